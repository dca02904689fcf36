import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import { safeEqual } from '../../core/crypto.ts';
import { ApiError } from '../../core/errors.ts';
import { asApiError } from '../../core/refusal.ts';
import { errorResponses, type RoutesApp } from '../../core/schemas.ts';
import type { MandateService } from '../../domains/mandates/index.ts';
import {
  type BrowserSession,
  COOKIE_NAMES,
  type MandateCheck,
  OAUTH_SCOPES,
  type OAuthClient,
  type OAuthService,
  openSession,
  SESSION_TTL_MS,
  sealSession,
  sessionCookie,
} from '../../domains/oauth/index.ts';
import type { OrgService } from '../../domains/orgs/index.ts';
import type { VaultService } from '../../domains/vault/index.ts';
import { requestCookies } from '../kyc/page.ts';
import {
  appsPage,
  codePage,
  consentPage,
  errorPage,
  type FormContext,
  formTargetOf,
  mandateLine,
  pageHeaders,
  signInPage,
} from './pages.ts';

/** Form fields arrive as strings; anything else (a repeated field) is treated as absent. */
function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** Where the user goes back to, as they can judge it: the host, or the app's own scheme. */
function returnTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.host || url.protocol;
}

/** Rough email shape; the code sent to it is the real check. */
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/;

/** What the authorization server's pages use. */
export interface OAuthPageOptions {
  oauth: OAuthService;
  orgs: OrgService;
  mandates: MandateService;
  /** A mandate approved on the consent page, with the passkey that signs the grant. */
  approvals: MandateService['approvals'];
  passkeys: VaultService['passkeys'];
  clock: Clock;
  mcpUrl: string;
  baseUrl: string;
}

/**
 * The browser side of the authorization server: `GET /authorize` with the hosted sign-in (a
 * one-time code, as connect sends it), the consent page and the decision's redirect; the connected
 * apps page. Handed to `oauthRoutes` by app.ts, which registers it inside its own scope (its form
 * parser, its path prefix): the domain serves the pages without importing web/.
 */
export async function oauthPageRoutes(app: RoutesApp, options: OAuthPageOptions): Promise<void> {
  const { oauth, orgs, mandates, approvals, passkeys, clock, baseUrl } = options;
  const mcpUrl = new URL(options.mcpUrl);
  const prefix = mcpUrl.pathname.replace(/\/$/, '');
  const secure = mcpUrl.protocol === 'https:';
  const sessionKey = oauth.sessionKey;
  const paths = {
    code: `${prefix}/authorize/code`,
    verify: `${prefix}/authorize/verify`,
    decision: `${prefix}/authorize/decision`,
    apps: `${prefix}/apps`,
    disconnect: `${prefix}/apps/disconnect`,
    revokeMandate: `${prefix}/apps/revoke-mandate`,
  };
  const appsPaths = { ...paths, code: `${prefix}/apps/code`, verify: `${prefix}/apps/verify` };

  const nonce = () => randomBytes(16).toString('base64');
  const setSession = (reply: FastifyReply, session: BrowserSession) =>
    reply.header(
      'set-cookie',
      sessionCookie(COOKIE_NAMES[session.purpose], sealSession(sessionKey, session), {
        path: prefix || '/',
        secure,
        maxAgeSeconds: Math.max(0, Math.floor((session.expiresAt - clock.now()) / 1000)),
      }),
    );
  const clearSession = (reply: FastifyReply, purpose: BrowserSession['purpose']) =>
    reply.header(
      'set-cookie',
      sessionCookie(COOKIE_NAMES[purpose], '', { path: prefix || '/', secure, maxAgeSeconds: 0 }),
    );
  const showError = (reply: FastifyReply, status: number, message: string) => {
    const n = nonce();
    pageHeaders(reply, n).code(status);
    return errorPage(n, message);
  };
  const formContext = (session: BrowserSession, n: string): FormContext => ({
    nonce: n,
    paths: session.purpose === 'authorize' ? paths : appsPaths,
    flow: session.flow,
  });
  const appsLink = (client: OAuthClient) => `${paths.apps}?client_id=${encodeURIComponent(client.id)}`;
  const renderSignIn = (
    reply: FastifyReply,
    session: BrowserSession,
    client: OAuthClient,
    error?: string,
    status = 200,
  ) => {
    const n = nonce();
    pageHeaders(reply, n).code(status);
    return signInPage(formContext(session, n), {
      appName: client.name,
      purpose: session.purpose,
      appsLink: session.purpose === 'authorize' ? appsLink(client) : null,
      ...(error ? { error } : {}),
    });
  };
  const newSession = (
    purpose: BrowserSession['purpose'],
    client: OAuthClient,
    pending: BrowserSession['pending'],
  ): BrowserSession => ({
    purpose,
    flow: randomBytes(16).toString('base64url'),
    clientId: client.id,
    pending,
    attempt: null,
    userId: null,
    account: null,
    expiresAt: clock.now() + SESSION_TTL_MS,
  });

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
  const userOf = (client: OAuthClient, userId: string) => ({
    organizationId: client.organizationId,
    livemode: client.livemode,
    userId,
  });

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

  /** The browser's session and its client, when the form belongs to it; else the error page. */
  async function formSession(
    request: FastifyRequest,
    reply: FastifyReply,
    purpose: BrowserSession['purpose'],
  ): Promise<{ session: BrowserSession; client: OAuthClient } | string> {
    const session = openSession(
      sessionKey,
      requestCookies(request.headers.cookie)[COOKIE_NAMES[purpose]],
      purpose,
      clock.now(),
    );
    const flow = field(request.body, 'flow');
    if (!session || !flow || !safeEqual(flow, session.flow))
      return showError(
        reply,
        400,
        'This sign-in has expired or was opened elsewhere. Return to the application and start again.',
      );
    const client = await oauth.findClient(session.clientId);
    if (!client) return showError(reply, 400, 'This application is no longer available.');
    return { session, client };
  }

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
    if (purpose === 'apps') return showApps(reply, next, client);
    return renderConsent(reply, next, client);
  }

  /**
   * The user's apps in the client's organization and mode: the live connections, and every app
   * holding an open mandate of the user (pending, active or exhausted), each with those mandates.
   */
  const listApps = async (client: OAuthClient, userId: string) => {
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
  };
  const showApps = async (
    reply: FastifyReply,
    session: BrowserSession,
    client: OAuthClient,
    notice?: string,
  ) => {
    const n = nonce();
    pageHeaders(reply, n);
    return appsPage(formContext(session, n), {
      account: session.account ?? '',
      apps: await listApps(client, session.userId as string),
      ...(notice ? { notice } : {}),
    });
  };

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
    const session = openSession(
      sessionKey,
      requestCookies(request.headers.cookie)[COOKIE_NAMES.authorize],
      'authorize',
      clock.now(),
    );
    const client = session?.userId && session.pending ? await oauth.findClient(session.clientId) : null;
    if (!session || !client)
      return showError(
        reply,
        400,
        'This sign-in has expired or was opened elsewhere. Return to the application and start again.',
      );
    return renderConsent(reply, session, client);
  });

  /**
   * The consent page's passkey ceremony (a mandate asked for with `purser:spend`): a first passkey for
   * a user who has none (the sign-in code in this browser proved the email or phone), then the one
   * assertion that approves the grant and the mandate. JSON posts, the flow id as their CSRF token.
   */
  const CeremonyBody = Type.Object({
    csrf: Type.Optional(Type.String({ maxLength: 200 })),
    purpose: Type.Optional(Type.String({ maxLength: 20 })),
    terms_hash: Type.Optional(Type.String({ maxLength: 64 })),
    response: Type.Optional(Type.Object({}, { additionalProperties: true })),
  });
  const ceremony = async (request: { body: Static<typeof CeremonyBody>; headers: { cookie?: string } }) => {
    const session = openSession(
      sessionKey,
      requestCookies(request.headers.cookie)[COOKIE_NAMES.authorize],
      'authorize',
      clock.now(),
    );
    const csrf = request.body.csrf;
    if (!session || !csrf || !safeEqual(csrf, session.flow))
      throw new ApiError(
        403,
        'csrf_invalid',
        'This page is out of date or the request did not come from it. Reload the page and try again.',
      );
    const client = await oauth.findClient(session.clientId);
    if (!client || !session.userId || !session.pending?.mandate)
      throw new ApiError(400, 'invalid_request', 'Sign in first: this consent asks for no spending terms.');
    const purpose = request.body.purpose;
    if (purpose !== 'register' && purpose !== 'approve')
      throw new ApiError(400, 'invalid_request', 'purpose must be register or approve.', {
        fieldErrors: { purpose: 'must be register or approve' },
      });
    const user = userOf(client, session.userId);
    const pending = session.pending;
    const mandate = { id: pending.mandate!.id, terms: JSON.parse(pending.mandate!.terms) };
    return { session, client, user, pending, mandate, purpose, binding: `oauth_consent:${session.flow}` };
  };
  const firstPasskeyOnly = async (user: ReturnType<typeof userOf>) => {
    if ((await passkeys.list(user)).length > 0)
      throw new ApiError(409, 'link_used', 'You have a passkey already: use it to allow.');
  };

  app.post(
    `${prefix}/authorize/webauthn/options`,
    { schema: { hide: true, body: CeremonyBody } },
    async (request) => {
      const { session, client, user, mandate, purpose, binding } = await ceremony(request);
      if (purpose === 'approve') return approvals.grantOptions(user, mandate);
      await firstPasskeyOnly(user);
      const organization = await orgs.getOrganization(client.organizationId);
      const name = session.account ?? session.userId;
      return passkeys.registrationOptions(
        { ...user, name: name as string, displayName: name as string, rpName: organization.name },
        binding,
      );
    },
  );

  app.post(
    `${prefix}/authorize/webauthn/verify`,
    { schema: { hide: true, body: CeremonyBody } },
    async (request, reply) => {
      const { client, user, pending, mandate, purpose, binding } = await ceremony(request);
      // biome-ignore lint/suspicious/noExplicitAny: the library checks the response's shape itself
      const response = (request.body.response ?? {}) as any;
      if (purpose === 'register') {
        await firstPasskeyOnly(user);
        await passkeys.verifyRegistration(user, binding, response);
        return { next: `${prefix}/authorize/consent` };
      }
      const url = await approvals.approveWithGrant(
        user,
        mandate,
        request.body.terms_hash ?? '',
        response,
        (trx) => oauth.approve(client, pending, user.userId, trx),
      );
      // One decision per authorization request: the cookie is spent.
      clearSession(reply, 'authorize');
      return { next: url };
    },
  );

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
      if (!client) return showError(reply, 400, 'Open this page from an application’s sign-in page.');
      const session = newSession('apps', client, null);
      setSession(reply, session);
      return renderSignIn(reply, session, client);
    },
  );

  app.post(paths.disconnect, { schema: { hide: true, body: FormBody } }, async (request, reply) => {
    const found = await formSession(request, reply, 'apps');
    if (typeof found === 'string') return found;
    const { session, client } = found;
    if (!session.userId) return renderSignIn(reply, session, client);
    const connectionId = field(request.body, 'connection_id') ?? '';
    const done = await oauth.disconnect(client, session.userId, connectionId);
    return showApps(
      reply,
      session,
      client,
      done ? 'The app was disconnected.' : 'That app was not connected.',
    );
  });

  // The user revokes one of their mandates (any app's, in this organization and mode): mandate.revoked.
  app.post(paths.revokeMandate, { schema: { hide: true, body: FormBody } }, async (request, reply) => {
    const found = await formSession(request, reply, 'apps');
    if (typeof found === 'string') return found;
    const { session, client } = found;
    if (!session.userId) return renderSignIn(reply, session, client);
    const scope = { organizationId: client.organizationId, livemode: client.livemode };
    const id = field(request.body, 'mandate_id') ?? '';
    const row = await mandates.owned(scope, id).catch(() => null);
    if (!row || row.user_id !== session.userId)
      return showApps(reply.code(404), session, client, 'That mandate is not yours.');
    const revoked = await mandates.revoke(scope, id).catch((thrown: unknown) => {
      const error = asApiError(thrown);
      if (error instanceof ApiError && error.status === 409) return null;
      throw error;
    });
    return showApps(
      reply,
      session,
      client,
      revoked
        ? 'The mandate was revoked: the app can no longer buy under it.'
        : 'That mandate has already ended.',
    );
  });
}

const OPEN_MANDATE: ReadonlySet<string> = new Set(['pending_approval', 'active', 'exhausted']);
