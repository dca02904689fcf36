import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RoutesApp } from '../../core/schemas.ts';

// CORS (metadata, token, registration, revocation; not authorize): browser-based clients call
// them from their own origin without credentials, so any origin may read the answers.

/** `onRequest` of a route any origin may read. */
export async function allowAnyOrigin(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply
    .header('access-control-allow-origin', '*')
    .header('access-control-expose-headers', 'www-authenticate');
}

/** The preflight (`OPTIONS`) of a route any origin may call with these methods. */
export function preflightRoute(app: RoutesApp, url: string, methods: string): void {
  app.options(
    url,
    // A preflight of a token endpoint fails (rarely: bad text) in that endpoint's error body.
    { schema: { hide: true }, config: { errorFormat: methods === 'POST' ? 'oauth' : 'v2' } },
    async (_request, reply) => {
      reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', methods)
        .header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version')
        .header('access-control-max-age', '600');
    },
  );
}
