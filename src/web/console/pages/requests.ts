import { Type } from 'typebox';
import { ApiError } from '../../../core/errors.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import { escapeHtml } from '../../html.ts';
import { REQUEST_LOG_SIZE } from '../../request-log.ts';
import { type ConsoleKit, type ConsoleServices, ScopeParams, shortId, when } from '../kit.ts';

/**
 * API requests: the last 1,000 requests of the organization's credentials in this mode (time,
 * credential, method, path, status, latency, request id; never a body or a secret), filtered by
 * status (a class such as `4xx`, or one status) and by path prefix.
 */

const RequestsQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 3 })),
  path: Type.Optional(Type.String({ maxLength: 300 })),
});
const STATUS_CHOICES = ['', '2xx', '3xx', '4xx', '5xx'];

/** A status filter: a class, one status, or none; anything else is a 400 naming it. */
function statusFilter(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^[1-5](xx|\d\d)$/.test(value)) return value;
  throw new ApiError(400, 'invalid_request', 'status must be a class such as 4xx or a status such as 404.');
}

export async function requestPages(
  app: RoutesApp,
  { requestLog }: Pick<ConsoleServices, 'requestLog'>,
  { header, show }: ConsoleKit,
) {
  app.get<{ Params: { org: string; mode: string }; Querystring: { status?: string; path?: string } }>(
    '/dashboard/:org/:mode/requests',
    { schema: { hide: true, params: ScopeParams, querystring: RequestsQuery } },
    async (request, reply) =>
      show(request, reply, async (member, scope, csrf) => {
        const status = statusFilter(request.query.status);
        const path = request.query.path?.trim() || undefined;
        const rows = await requestLog.recent(scope, { status, path });
        const base = `/dashboard/${scope.organizationId}/${scope.mode}/requests`;
        const options = [...STATUS_CHOICES, ...(status && !STATUS_CHOICES.includes(status) ? [status] : [])]
          .map(
            (choice) =>
              `<option value="${choice}"${choice === (status ?? '') ? ' selected' : ''}>${choice || 'any status'}</option>`,
          )
          .join('');
        const list = rows
          .map(
            (r) =>
              `<tr><td>${when(r.created_at)}</td><td>${shortId(r.credential)}</td><td>${escapeHtml(r.method)}</td><td><code>${escapeHtml(r.path)}</code></td><td class="num status">${r.status}</td><td class="num">${r.latency_ms} ms</td><td>${shortId(r.request_id)}</td></tr>`,
          )
          .join('');
        return {
          title: 'API requests',
          body: `${header(member, scope, csrf, 'requests')}<main><h1>API requests</h1>
<section><form class="filters" method="get" action="${base}">
<label>Status<br><select name="status">${options}</select></label>
<label>Path starts with<br><input type="text" name="path" value="${escapeHtml(path ?? '')}" placeholder="/api/v2/cards"></label>
<button type="submit">Filter</button></form>
<p class="hint">The last ${REQUEST_LOG_SIZE.toLocaleString('en-US')} requests made with this organization's ${scope.mode} credentials: never their bodies or secrets.</p></section>
<section><table id="requests" class="log stack"><tr><th>time</th><th>credential</th><th>method</th><th>path</th><th class="num">status</th><th class="num">latency</th><th>request id</th></tr>${list}</table>
${rows.length === 0 ? '<p class="hint">No requests match.</p>' : ''}</section></main>`,
        };
      }),
  );
}
