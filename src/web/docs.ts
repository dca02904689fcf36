import swaggerUi from '@fastify/swagger-ui';
import type { RoutesApp } from '../core/schemas.ts';
import { ERROR_CATALOG } from './error-catalog.ts';
import { escapeHtml, referenceDocument } from './html.ts';

/** The OpenAPI 3.1 document (generated from the route schemas) and the readable reference at /docs. */
export async function docsRoutes(app: RoutesApp): Promise<void> {
  app.get('/api/v2/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });

  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) => {
    const rows = ERROR_CATALOG.map(
      (e) =>
        `<tr id="${escapeHtml(e.code)}"><td><code>${escapeHtml(e.code)}</code></td><td>${e.status}</td><td>${escapeHtml(e.when)}</td></tr>`,
    ).join('\n');
    reply.type('text/html; charset=utf-8');
    return referenceDocument({
      title: 'Purser error codes',
      style:
        'td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}tr:target{background:#fff7d6}',
      body: `<p>Every error under <code>/api/v2</code> has the body
<code>{ "error": { "code", "message", "docs", "field_errors", "warnings" } }</code>; the token endpoint answers
<code>{ "error", "error_description" }</code> (RFC 6749).</p>
<table><thead><tr><th>code</th><th>HTTP</th><th>when</th></tr></thead><tbody>
${rows}
</tbody></table><p><a href="/docs">API reference</a></p>`,
    });
  });
}
