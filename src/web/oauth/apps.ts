import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import type { RoutesApp } from '../../core/schemas.ts';
import type { BrowserSession, OAuthClient } from '../../domains/oauth/index.ts';
import { field, type PageKit } from './kit.ts';
import { appsPage, mandateLine, pageHeaders } from './pages.ts';

/**
 * The connected apps page of the authorization server: the user signs in as on the authorization
 * page (its own session cookie), sees the apps holding a grant or an open mandate, and disconnects
 * an app or revokes a mandate.
 */

const OPEN_MANDATE: ReadonlySet<string> = new Set(['pending_approval', 'active', 'exhausted']);

const FormBody = Type.Object({}, { additionalProperties: true });

/**
 * The user's apps in the client's organization and mode: the live connections, and every app
 * holding an open mandate of the user (pending, active or exhausted), each with those mandates.
 */
async function listApps({ oauth, mandates }: PageKit, client: OAuthClient, userId: string) {
  const scope = { organizationId: client.organizationId, livemode: client.livemode };
  const connected = await oauth.connectedApps(client, userId);
  const open = (await mandates.list(scope, userId, { limit: 100 })).data.filter((m) =>
    OPEN_MANDATE.has(m.status),
  );
  const apps = connected.map((app) => ({
    id: app.id as string | null,
    clientId: app.client_id,
    name: app.client_name,
  }));
  for (const clientId of new Set(open.map((m) => m.terms.client_id)))
    if (!apps.some((app) => app.clientId === clientId))
      apps.push({ id: null, clientId, name: (await oauth.findClient(clientId))?.name ?? clientId });
  return apps.map((app) => ({
    id: app.id,
    name: app.name,
    mandates: open.filter((m) => m.terms.client_id === app.clientId).map(mandateLine),
  }));
}

/** The connected apps page of a signed-in session, with what the last action did. */
export async function showApps(
  kit: PageKit,
  reply: FastifyReply,
  session: BrowserSession,
  client: OAuthClient,
  notice?: string,
) {
  const n = kit.nonce();
  pageHeaders(reply, n);
  return appsPage(kit.formContext(session, n), {
    account: session.account ?? '',
    apps: await listApps(kit, client, session.userId as string),
    ...(notice ? { notice } : {}),
  });
}

export function appsRoutes(app: RoutesApp, kit: PageKit): void {
  const { oauth, mandates, paths } = kit;

  app.get(
    paths.apps,
    {
      schema: {
        hide: true,
        querystring: Type.Object({ client_id: Type.Optional(Type.String({ maxLength: 2000 })) }),
      },
    },
    async (request, reply) => {
      const client = request.query.client_id ? await oauth.findClient(request.query.client_id) : null;
      if (!client) return kit.showError(reply, 400, 'Open this page from an application’s sign-in page.');
      const session = kit.newSession('apps', client, null);
      kit.setSession(reply, session);
      return kit.renderSignIn(reply, session, client);
    },
  );

  app.post(paths.disconnect, { schema: { hide: true, body: FormBody } }, async (request, reply) => {
    const found = await kit.formSession(request, reply, 'apps');
    if (typeof found === 'string') return found;
    const { session, client } = found;
    if (!session.userId) return kit.renderSignIn(reply, session, client);
    const connectionId = field(request.body, 'connection_id') ?? '';
    const done = await oauth.disconnect(client, session.userId, connectionId);
    return showApps(
      kit,
      reply,
      session,
      client,
      done ? 'The app was disconnected.' : 'That app was not connected.',
    );
  });

  // The user revokes one of their mandates (any app's, in this organization and mode): mandate.revoked.
  app.post(paths.revokeMandate, { schema: { hide: true, body: FormBody } }, async (request, reply) => {
    const found = await kit.formSession(request, reply, 'apps');
    if (typeof found === 'string') return found;
    const { session, client } = found;
    if (!session.userId) return kit.renderSignIn(reply, session, client);
    const scope = { organizationId: client.organizationId, livemode: client.livemode };
    const id = field(request.body, 'mandate_id') ?? '';
    const row = await mandates.owned(scope, id).catch(() => null);
    if (!row || row.user_id !== session.userId)
      return showApps(kit, reply.code(404), session, client, 'That mandate is not yours.');
    const revoked = await mandates.revoke(scope, id).catch((thrown: unknown) => {
      const error = asApiError(thrown);
      if (error instanceof ApiError && error.status === 409) return null;
      throw error;
    });
    return showApps(
      kit,
      reply,
      session,
      client,
      revoked
        ? 'The mandate was revoked: the app can no longer buy under it.'
        : 'That mandate has already ended.',
    );
  });
}
