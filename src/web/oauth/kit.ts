import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/clock.ts';
import { safeEqual } from '../../core/crypto.ts';
import type { MandateService } from '../../domains/mandates/index.ts';
import {
  type BrowserSession,
  COOKIE_NAMES,
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
import { errorPage, type FormContext, pageHeaders, signInPage } from './pages.ts';

/**
 * What the authorization server's pages share (the sign-in and consent, the consent's passkey
 * ceremony, the connected apps): their paths, the browser's signed session cookie, and the sign-in
 * and error pages every step may fall back to.
 */

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

/** Form fields arrive as strings; anything else (a repeated field) is treated as absent. */
export function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** What a session's form is answered with when it does not belong to this browser's session. */
export const SESSION_LOST =
  'This sign-in has expired or was opened elsewhere. Return to the application and start again.';

export type PageKit = ReturnType<typeof pageKit>;

export function pageKit(options: OAuthPageOptions) {
  const { oauth, clock } = options;
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
  /** The browser's session of this purpose, from its signed cookie; null when absent, forged or expired. */
  const browserSession = (request: { headers: { cookie?: string } }, purpose: BrowserSession['purpose']) =>
    openSession(
      sessionKey,
      requestCookies(request.headers.cookie)[COOKIE_NAMES[purpose]],
      purpose,
      clock.now(),
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
  const userOf = (client: OAuthClient, userId: string) => ({
    organizationId: client.organizationId,
    livemode: client.livemode,
    userId,
  });

  /** The browser's session and its client, when the form belongs to it; else the error page. */
  async function formSession(
    request: FastifyRequest,
    reply: FastifyReply,
    purpose: BrowserSession['purpose'],
  ): Promise<{ session: BrowserSession; client: OAuthClient } | string> {
    const session = browserSession(request, purpose);
    const flow = field(request.body, 'flow');
    if (!session || !flow || !safeEqual(flow, session.flow)) return showError(reply, 400, SESSION_LOST);
    const client = await oauth.findClient(session.clientId);
    if (!client) return showError(reply, 400, 'This application is no longer available.');
    return { session, client };
  }

  return {
    ...options,
    mcpUrl,
    prefix,
    paths,
    appsPaths,
    nonce,
    setSession,
    clearSession,
    browserSession,
    showError,
    formContext,
    renderSignIn,
    newSession,
    userOf,
    formSession,
  };
}
