import { ApiError } from '../../../core/errors.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import { livemodeColumn } from '../../../core/tenant.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  type Feedback,
  messages,
  type OrgScope,
  type Page,
  when,
} from '../kit.ts';

/** Credentials: OAuth clients (create, rotate, revoke) and the v1 API key (rotate); secrets shown once. */
export async function credentialPages(
  app: RoutesApp,
  { members, orgs }: Pick<ConsoleServices, 'members' | 'orgs'>,
  { header, formPage }: ConsoleKit,
) {
  const credentialsPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: Feedback & { secret?: string },
  ): Promise<Page> => {
    const { clients, apiKeys } = await orgs.credentials(scope.organizationId, scope.mode);
    const action = `/dashboard/${scope.organizationId}/${scope.mode}/credentials`;
    const button = (name: string, label: string, extra = '') =>
      `<form class="inline" method="post" action="${action}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="${name}">${extra}<button type="submit" class="secondary">${label}</button></form>`;
    const clientRows = clients
      .map(
        (c) =>
          `<tr><td><code>${escapeHtml(c.id)}</code></td><td>${escapeHtml(c.name)}</td><td>${c.type}</td><td>${c.status}</td><td>${when(c.created_at)}</td><td>${
            c.status === 'active'
              ? `${c.type === 'confidential' ? button('rotate_secret', 'Rotate secret', `<input type="hidden" name="client_id" value="${escapeHtml(c.id)}">`) : ''}${button('revoke_client', 'Revoke', `<input type="hidden" name="client_id" value="${escapeHtml(c.id)}">`)}`
              : ''
          }</td></tr>`,
      )
      .join('');
    const keyRows = apiKeys
      .map(
        (k) =>
          `<tr><td><code>${escapeHtml(k.key_prefix)}…</code></td><td>${k.status}</td><td>${when(k.created_at)}</td><td>${when(k.revoked_at)}</td></tr>`,
      )
      .join('');
    return {
      title: 'Credentials',
      body: `${header(member, scope, csrf, 'credentials')}<main><h1>Credentials</h1>${messages(feedback)}
${feedback.secret ? `<section><p>Shown only this once: copy it now.</p><p><code id="secret">${escapeHtml(feedback.secret)}</code></p></section>` : ''}
<section><h2>Clients (OAuth client credentials)</h2><table><tr><th>client_id</th><th>name</th><th>type</th><th>status</th><th>created</th><th></th></tr>${clientRows}</table>
<form method="post" action="${action}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="create_client">
<label for="f_name">New client name</label><br><input id="f_name" name="name" type="text" maxlength="100" required><button type="submit">Create client</button></form></section>
<section><h2>API keys (v1)</h2><table><tr><th>key</th><th>status</th><th>created</th><th>revoked</th></tr>${keyRows}</table>
${button('create_key', 'Create API key')}${button('rotate_key', 'Rotate API key')}<p class="hint">Rotating replaces every active key of this mode; the old ones stop at once.</p></section></main>`,
    };
  };

  formPage(app, 'credentials', credentialsPage, (request) => async (member, scope, csrf) => {
    const { body } = request;
    const owned = async () => {
      const client = await orgs.findClient(body.client_id ?? '');
      if (
        !client ||
        client.organization_id !== scope.organizationId ||
        client.livemode !== livemodeColumn(scope.livemode)
      )
        throw new ApiError(404, 'not_found', 'No such client.');
      return client.id;
    };
    if (body.action === 'create_client') {
      const name = (body.name ?? '').trim();
      if (name.length === 0 || name.length > 100)
        throw new ApiError(400, 'invalid_request', 'Name the client (1 to 100 characters).');
      const created = await orgs.createClient(scope.organizationId, {
        mode: scope.mode,
        type: 'confidential',
        name,
      });
      await members.audit(member, scope, 'client.created', created.client_id);
      return credentialsPage(member, scope, csrf, {
        notice: `Client ${created.client_id} created.`,
        secret: created.client_secret ?? undefined,
      });
    }
    if (body.action === 'rotate_secret') {
      const rotated = await orgs.rotateClientSecret(await owned());
      await members.audit(member, scope, 'client.secret_rotated', rotated.client_id);
      return credentialsPage(member, scope, csrf, {
        notice: 'Secret rotated.',
        secret: rotated.client_secret,
      });
    }
    if (body.action === 'revoke_client') {
      const revoked = await orgs.revokeClient(await owned());
      await members.audit(member, scope, 'client.revoked', revoked.client_id);
      return { redirect: `${request.url}?done=revoked` };
    }
    if (body.action === 'create_key') {
      const key = await orgs.createApiKey(scope.organizationId, scope.mode);
      await members.audit(member, scope, 'api_key.created', key.id);
      return credentialsPage(member, scope, csrf, { notice: 'API key created.', secret: key.api_key });
    }
    if (body.action === 'rotate_key') {
      const key = await orgs.rotateApiKey(scope.organizationId, scope.mode);
      await members.audit(member, scope, 'api_key.rotated', key.id);
      return credentialsPage(member, scope, csrf, { notice: 'API key rotated.', secret: key.api_key });
    }
    throw new ApiError(400, 'invalid_request', 'Unknown action.');
  });
}
