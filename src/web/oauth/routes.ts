import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import { errorResponses, type RoutesApp } from '../../core/schemas.ts';
import {
  type BrowserSession,
  type MandateCheck,
  OAUTH_SCOPES,
  type OAuthClient,
} from '../../domains/oauth/index.ts';
import { appsRoutes, showApps } from './apps.ts';
import { consentCeremonyRoutes } from './ceremony.ts';
import { field, type OAuthPageOptions, pageKit, SESSION_LOST } from './kit.ts';
import { codePage, consentPage, formTargetOf, pageHeaders } from './pages.ts';

export type { OAuthPageOptions } from './kit.ts';

/** Where the user goes back to, as they can judge it: the host, or the app's own scheme. */
function returnTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.host || url.protocol;
}

/** Rough email shape; the code sent to it is the real check. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

/**
 * The browser side of the authorization server: `GET /authorize` with the hosted sign-in (a
 * one-time code, as connect sends it), the consent page and the decision's redirect; the consent's
 * passkey ceremony (ceremony.ts) and the connected apps page (apps.ts). Handed to `oauthRoutes` by
 * app.ts, which registers it inside its own scope (its form parser, its path prefix): the domain
 * serves the pages without importing web/.
 */
export async function oauthPageRoutes(app: RoutesApp, options: OAuthPageOptions): Promise<void> {
  const kit = pageKit(options);
  const { oauth, orgs, mandates, passkeys, baseUrl, mcpUrl, prefix, paths, appsPaths, nonce } = kit;
  const { setSession, clearSession, showError, formContext, renderSignIn, newSession, userOf, formSession } =
    kit;

  /** docs/oauth-mcp.md "Spending mandates": the `mandate` parameter, checked as the mandate API checks terms. */
  const checkMandate: MandateCheck = async (client, raw) => {
    // WebAuthn's relying party is BASE_URL's host: the consent page must be on its origin.
    if (mcpUrl.origin !== new URL(baseUrl).origin)
      return {
        problem: 'is not available on this server (passkeys need MCP_URL on the origin of BASE_URL).',
      };
    const checked = await mandates.termsFromParameter(
      { organizationId: client.organizationId, livemode: client.livemode },
      client.id,
      raw,
    );
    return 'problem' in checked
      ? checked
      : { id: checked.id, terms: JSON.stringify(checked.terms), hash: checked.hash };
  };
  /** The consent page of a signed-in session; with a mandate, its terms and the passkey that signs them. */
  const renderConsent = async (reply: FastifyReply, session: BrowserSession, client: OAuthClient) => {
    const pending = session.pending as NonNullable<BrowserSession['pending']>;
    const organization = await orgs.getOrganization(client.organizationId);
    const mandate = pending.mandate
      ? {
          terms: JSON.parse(pending.mandate.terms),
          hash: pending.mandate.hash,
          hasPasskey: (await passkeys.list(userOf(client, session.userId as string))).length > 0,
        }
      : null;
    const n = nonce();
    pageHeaders(reply, n, [formTargetOf(pending.redirectUri)], { passkeys: mandate !== null });
    return consentPage(formContext(session, n), {
      appName: client.name,
      organizationName: organization.name,
      account: session.account as string,
      returnTo: returnTarget(pending.redirectUri),
      scopes: pending.scope
        .split(' ')
        .map((scope) => OAUTH_SCOPES[scope as keyof typeof OAUTH_SCOPES] ?? scope),
      mandate,
      ceremonyBase: `${prefix}/authorize`,
    });
  };

  const PageQuery = Type.Object(
    {
      response_type: Type.Optional(Type.String()),
      client_id: Type.Optional(Type.String()),
      redirect_uri: Type.Optional(Type.String()),
      code_challenge: Type.Optional(Type.String()),
      code_challenge_method: Type.Optional(Type.String()),
      resource: Type.Optional(Type.String()),
      scope: Type.Optional(Type.String()),
      state: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  );

  app.get(
    `${prefix}/authorize`,
    {
      attachValidation: true,
      schema: {
        operationId: 'authorize',
        // The browser's page: the user signs in on it.
        security: [],
        summary: 'Start the user-facing authorization (browser)',
        description:
          'RFC 6749 §4.1.1 with PKCE S256 and `resource`. Shows the hosted sign-in page; after the user ' +
          'signs in with a one-time code and approves, redirects to `redirect_uri` with `code`, `state` and ' +
          '`iss`. An unknown client or unregistered redirect URI shows an error page and never redirects; ' +
          'other errors redirect with `error`, `error_description`, `state` and `iss`.',
        tags: ['User-facing OAuth'],
        querystring: PageQuery,
        response: {
          200: {
            description: 'The sign-in page (HTML).',
            content: { 'text/html': { schema: { type: 'string' }, example: '<!doctype html>…' } },
          },
          302: {
            type: 'null',
            description: 'Error redirect to the client (`error`, `error_description`, `state`, `iss`).',
          },
          ...errorResponses(400),
        },
      },
    },
    async (request, reply) => {
      // A repeated parameter is no value (RFC 6749 §3.1): authorize tells the client, when it can.
      const raw = request.query as Record<string, string | string[] | undefined>;
      const repeated = Object.keys(raw).filter((name) => Array.isArray(raw[name]));
      const query = Object.fromEntries(
        Object.entries(raw).map(([name, value]) => [name, Array.isArray(value) ? undefined : value]),
      );
      const outcome = await oauth.authorize(query, repeated, checkMandate);
      if (outcome.kind === 'error_page') return showError(reply, 400, outcome.message);
      if (outcome.kind === 'redirect') return reply.redirect(outcome.url, 302);
      const session = newSession('authorize', outcome.client, outcome.pending);
      setSession(reply, session);
      return renderSignIn(reply, session, outcome.client);
    },
  );

  const FormBody = Type.Object({}, { additionalProperties: true });

  async function sendCode(request: FastifyRequest, reply: FastifyReply, purpose: BrowserSession['purpose']) {
    const found = await formSession(request, reply, purpose);
    if (typeof found === 'string') return found;
    const { session, client } = found;
    const destination = (field(request.body, 'destination') ?? '').trim();
    const input = destination.startsWith('+')
      ? { phone: destination }
      : EMAIL.test(destination)
        ? { email: destination }
        : null;
    if (!input)
      return renderSignIn(
        reply,
        session,
        client,
        'Enter an email address or a phone number such as +14155550123.',
        400,
      );
    let attemptId: string;
    try {
      attemptId = (await oauth.sendSignInCode(client, input)).id;
    } catch (thrown) {
      const error = asApiError(thrown);
      if (!(error instanceof ApiError) || (error.status >= 500 && error.status !== 502)) throw error;
      if (error.headers['retry-after']) reply.header('retry-after', error.headers['retry-after']);
      return renderSignIn(reply, session, client, error.message, error.status);
    }
    const next = { ...session, attempt: { id: attemptId, destination } };
    setSession(reply, next);
    const n = nonce();
    pageHeaders(reply, n);
    return codePage(formContext(next, n), { destination });
  }

  async function verifyCode(
    request: FastifyRequest,
    reply: FastifyReply,
    purpose: BrowserSession['purpose'],
  ) {
    const found = await formSession(request, reply, purpose);
    if (typeof found === 'string') return found;
    const { session, client } = found;
    if (!session.attempt) return renderSignIn(reply, session, client);
    let user: Awaited<ReturnType<typeof oauth.signIn>>;
    try {
      user = await oauth.signIn(client, {
        connect_id: session.attempt.id,
        code: (field(request.body, 'code') ?? '').trim().slice(0, 12),
      });
    } catch (thrown) {
      const error = asApiError(thrown);
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      if (error.code === 'invalid_code') {
        const n = nonce();
        pageHeaders(reply, n).code(401);
        return codePage(formContext(session, n), {
          destination: session.attempt.destination,
          error: 'That code is not right, or it has expired.',
        });
      }
      const next = { ...session, attempt: null };
      setSession(reply, next);
      return renderSignIn(reply, next, client, 'That code can no longer be used. Ask for a new one.', 400);
    }
    const next = { ...session, attempt: null, userId: user.id, account: user.email ?? user.phone ?? user.id };
    setSession(reply, next);
    if (purpose === 'apps') return showApps(kit, reply, next, client);
    return renderConsent(reply, next, client);
  }

  for (const purpose of ['authorize', 'apps'] as const) {
    const p = purpose === 'authorize' ? paths : appsPaths;
    app.post(p.code, { schema: { hide: true, body: FormBody } }, (request, reply) =>
      sendCode(request, reply, purpose),
    );
    app.post(p.verify, { schema: { hide: true, body: FormBody } }, (request, reply) =>
      verifyCode(request, reply, purpose),
    );
  }

  app.post(paths.decision, { schema: { hide: true, body: FormBody } }, async (request, reply) => {
    const found = await formSession(request, reply, 'authorize');
    if (typeof found === 'string') return found;
    const { session, client } = found;
    if (!session.userId || !session.pending) return renderSignIn(reply, session, client);
    // One decision per authorization request: the cookie is spent.
    clearSession(reply, 'authorize');
    const url =
      field(request.body, 'decision') === 'approve'
        ? await oauth.approve(client, session.pending, session.userId)
        : oauth.deny(session.pending);
    return reply.redirect(url, 303);
  });

  app.get(`${prefix}/authorize/consent`, { schema: { hide: true } }, async (request, reply) => {
    const session = kit.browserSession(request, 'authorize');
    const client = session?.userId && session.pending ? await oauth.findClient(session.clientId) : null;
    if (!session || !client) return showError(reply, 400, SESSION_LOST);
    return renderConsent(reply, session, client);
  });

  consentCeremonyRoutes(app, kit);
  appsRoutes(app, kit);
}
