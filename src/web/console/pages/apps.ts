import type { RoutesApp } from '../../../core/schemas.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  copyable,
  type OrgScope,
  type Page,
  ScopeParams,
  shortId,
  when,
} from '../kit.ts';
import * as store from '../store.ts';

/**
 * Connected apps and their grants: each OAuth app of this mode with how many users it holds a live
 * grant of and their open mandates, then every grant (a user's connection to an app), newest first.
 */

const GRANT_LIMIT = 200;
const OPEN = new Set(['pending_approval', 'active', 'exhausted']);

export async function appPages(
  app: RoutesApp,
  { clock, db, orgs }: Pick<ConsoleServices, 'clock' | 'db' | 'orgs'>,
  { header, show }: ConsoleKit,
) {
  const appsPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    const [{ clients }, grants, mandates] = await Promise.all([
      orgs.credentials(scope.organizationId, scope.mode),
      store.grants(db, scope, clock.now(), GRANT_LIMIT),
      store.mandates(db, scope, 1000),
    ]);
    const base = `/dashboard/${scope.organizationId}/${scope.mode}`;
    const appRows = clients
      .map((c) => {
        const live = grants.filter((g) => g.client_id === c.id && g.live).length;
        const open = mandates.filter((m) => m.client_id === c.id && OPEN.has(m.status)).length;
        return `<tr><td>${escapeHtml(c.name ?? '')}<br>${copyable(c.id, true)}</td><td>${escapeHtml(c.type)}</td><td>${escapeHtml(c.status)}</td><td class="num">${live}</td><td class="num">${open}</td></tr>`;
      })
      .join('');
    const grantRows = grants
      .map((g) => {
        const theirs = mandates.filter((m) => m.client_id === g.client_id && m.user_id === g.user_id);
        const mandateLinks = theirs
          .map((m) => `${shortId(m.id)} <span class="hint">${m.status.replace('_', ' ')}</span>`)
          .join('<br>');
        return `<tr><td><a href="${base}/users/${escapeHtml(g.user_id)}">${shortId(g.user_id)}</a><br><span class="wrap">${escapeHtml(g.email ?? g.phone ?? '')}</span></td><td>${escapeHtml(g.client_name)}</td><td>${g.live ? 'live' : 'ended'}</td><td>${when(g.created_at)}</td><td>${when(g.updated_at)}</td><td>${mandateLinks}</td></tr>`;
      })
      .join('');
    return {
      title: 'Connected apps',
      body: `${header(member, scope, csrf, 'apps')}<main><h1>Connected apps</h1>
<section><h2>Apps</h2><table id="apps"><tr><th>app</th><th>type</th><th>status</th><th class="num">live grants</th><th class="num">open mandates</th></tr>${appRows}</table>
<p class="hint">Create, rotate or revoke an app on <a href="${base}/credentials">Credentials</a>; revoking it ends every grant.</p></section>
<section><h2>Grants</h2><table id="grants"><tr><th>user</th><th>app</th><th>grant</th><th>since</th><th>last refreshed</th><th>mandates</th></tr>${grantRows}</table>
${grants.length === 0 ? '<p class="hint">No user has connected an app in this mode yet.</p>' : ''}${grants.length === GRANT_LIMIT ? `<p class="hint">The newest ${GRANT_LIMIT}.</p>` : ''}
<p class="hint">A grant is live while its refresh token works; the user ends it on their connected-apps page, or the app with <code>POST /revoke</code>.</p></section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/apps',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) => show(request, reply, appsPage),
  );
}
