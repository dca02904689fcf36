import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/core/clock.ts';

/** A message the send API accepted. */
export interface SentMessage {
  to: string;
  text: string;
  idempotencyKey: string | undefined;
}

export interface FakeMessagingProvider {
  /** Base URL to use as `MESSAGING_PROVIDER_URL`. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** The env of an app that uses this provider (loopback allowed by the SSRF guard). */
  env: Record<string, string>;
  sent: SentMessage[];
  /** Every token request, as its form fields (grant_type, code, code_verifier, refresh_token...). */
  tokenRequests: Record<string, string>[];
  /** Tokens handed to the revocation endpoint. */
  revoked: string[];
  /** Access and refresh tokens issued, newest last. */
  issued: { accessToken: string; refreshToken: string }[];
  /** The scopes the next consents grant (null: what was asked for). */
  grantScopes(scopes: string[] | null): void;
  /** Following consents are declined (`error=access_denied`). */
  deny(on: boolean): void;
  /** The send API answers this status (null: 201; 0: the connection is cut without an answer). */
  failSends(status: number | null): void;
  /** The token endpoint answers this status with `server_error` (null: normal). */
  failTokens(status: number | null): void;
  /** The revocation endpoint answers this status (null: 200). */
  failRevocations(status: number | null): void;
  /** Ends every grant at the provider's side (as an operator uninstalling the app there would). */
  endAllGrants(): void;
  /** Whether an access token would be accepted by the send API now. */
  accepts(accessToken: string): boolean;
  close(): Promise<void>;
}

interface Grant {
  scopes: string[];
  ended: boolean;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const token = (prefix: string) => `${prefix}_${b64url(randomBytes(24))}`;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

/**
 * A local messaging provider speaking OAuth 2.0 (RFC 6749) as a real one does: the authorization
 * endpoint redirects back with a code (or `access_denied`); the token endpoint authenticates the
 * client with HTTP Basic, checks PKCE S256 (RFC 7636 §4.6) and the redirect URI, issues codes once,
 * and rotates refresh tokens (a used refresh token is `invalid_grant`); the revocation endpoint
 * (RFC 7009) ends a grant; the send API takes a bearer access token, checks its expiry on `clock`,
 * its scope, and records the message.
 */
export async function startFakeMessagingProvider(
  options: {
    clock?: Clock;
    accessTokenTtlSeconds?: number;
    organizationIds?: string[];
    /** A fixed port (the local provider for trying it by hand); default any free one. */
    port?: number;
    onMessage?: (message: SentMessage) => void;
  } = {},
): Promise<FakeMessagingProvider> {
  const clientId = 'purser-client';
  const clientSecret = `secret_${b64url(randomBytes(16))}`;
  const now = () => (options.clock ?? { now: () => Date.now() }).now();
  const ttl = options.accessTokenTtlSeconds ?? 3600;
  const codes = new Map<
    string,
    { challenge: string; redirectUri: string; scopes: string[]; used: boolean; expiresAt: number }
  >();
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, { grantId: string; expiresAt: number }>();
  const refreshTokens = new Map<string, { grantId: string; used: boolean }>();
  const sent: SentMessage[] = [];
  const tokenRequests: Record<string, string>[] = [];
  const revoked: string[] = [];
  const issued: { accessToken: string; refreshToken: string }[] = [];
  let grantedScopes: string[] | null = null;
  let denying = false;
  let sendStatus: number | null = null;
  let tokenStatus: number | null = null;
  let revokeStatus: number | null = null;

  const issue = (grantId: string) => {
    const pair = { accessToken: token('at'), refreshToken: token('rt') };
    accessTokens.set(pair.accessToken, { grantId, expiresAt: now() + ttl * 1000 });
    refreshTokens.set(pair.refreshToken, { grantId, used: false });
    issued.push(pair);
    return {
      access_token: pair.accessToken,
      token_type: 'Bearer',
      expires_in: ttl,
      refresh_token: pair.refreshToken,
      scope: grants.get(grantId)!.scopes.join(' '),
      organization_ids: options.organizationIds ?? ['porg_fake1'],
    };
  };
  const clientAuthenticated = (request: IncomingMessage) => {
    const header = request.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const [id, secret] = decoded.split(':').map(decodeURIComponent);
    return id === clientId && secret === clientSecret;
  };
  const liveAccess = (bearer: string) => {
    const entry = accessTokens.get(bearer);
    if (!entry || entry.expiresAt <= now()) return null;
    const grant = grants.get(entry.grantId)!;
    return grant.ended ? null : grant;
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = await readBody(request);

    if (request.method === 'GET' && url.pathname === '/oauth/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      if (q.get('client_id') !== clientId || !redirectUri)
        return json(response, 400, { error: 'invalid_client' });
      const back = new URL(redirectUri);
      back.searchParams.set('state', q.get('state') ?? '');
      if (
        q.get('response_type') !== 'code' ||
        q.get('code_challenge_method') !== 'S256' ||
        !q.get('code_challenge')
      )
        back.searchParams.set('error', 'invalid_request');
      else if (denying) back.searchParams.set('error', 'access_denied');
      else {
        const code = token('code');
        const asked = (q.get('scope') ?? '').split(' ').filter(Boolean);
        codes.set(code, {
          challenge: q.get('code_challenge')!,
          redirectUri,
          scopes: grantedScopes ?? asked,
          used: false,
          expiresAt: now() + 60_000,
        });
        back.searchParams.set('code', code);
      }
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }

    if (request.method === 'POST' && url.pathname === '/oauth/token') {
      const form = Object.fromEntries(new URLSearchParams(body));
      tokenRequests.push(form);
      if (tokenStatus !== null) return json(response, tokenStatus, { error: 'server_error' });
      if (!clientAuthenticated(request)) return json(response, 401, { error: 'invalid_client' });
      if (form.grant_type === 'authorization_code') {
        const entry = form.code ? codes.get(form.code) : undefined;
        if (!entry || entry.used || entry.expiresAt <= now() || entry.redirectUri !== form.redirect_uri)
          return json(response, 400, { error: 'invalid_grant', error_description: 'bad code' });
        entry.used = true;
        // RFC 7636 §4.6: BASE64URL(SHA256(code_verifier)) must equal the challenge.
        const computed = form.code_verifier
          ? b64url(createHash('sha256').update(form.code_verifier).digest())
          : '';
        if (computed !== entry.challenge)
          return json(response, 400, {
            error: 'invalid_grant',
            error_description: 'PKCE verification failed',
          });
        const grantId = token('grant');
        grants.set(grantId, { scopes: entry.scopes, ended: false });
        return json(response, 200, issue(grantId));
      }
      if (form.grant_type === 'refresh_token') {
        const entry = form.refresh_token ? refreshTokens.get(form.refresh_token) : undefined;
        if (!entry || entry.used || grants.get(entry.grantId)!.ended)
          return json(response, 400, {
            error: 'invalid_grant',
            error_description: 'refresh token not valid',
          });
        // Rotation: the refresh token works once.
        entry.used = true;
        return json(response, 200, issue(entry.grantId));
      }
      return json(response, 400, { error: 'unsupported_grant_type' });
    }

    if (request.method === 'POST' && url.pathname === '/oauth/revoke') {
      if (revokeStatus !== null) return json(response, revokeStatus, { error: 'server_error' });
      if (!clientAuthenticated(request)) return json(response, 401, { error: 'invalid_client' });
      const form = Object.fromEntries(new URLSearchParams(body));
      revoked.push(form.token ?? '');
      const entry = accessTokens.get(form.token ?? '') ?? refreshTokens.get(form.token ?? '');
      // RFC 7009 §2.1: revoking a token ends its grant here (and its other tokens with it).
      if (entry) grants.get(entry.grantId)!.ended = true;
      response.writeHead(200);
      return response.end();
    }

    if (request.method === 'POST' && url.pathname === '/v1/messages') {
      if (sendStatus === 0) return request.socket.destroy();
      if (sendStatus !== null) return json(response, sendStatus, { error: 'unavailable' });
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const grant = liveAccess(bearer);
      if (!grant) return json(response, 401, { error: 'invalid_token' });
      if (!grant.scopes.includes('messages:send'))
        return json(response, 403, { error: 'insufficient_scope' });
      const message = JSON.parse(body) as { to: string; text: string };
      const key = request.headers['idempotency-key'];
      const accepted: SentMessage = {
        to: message.to,
        text: message.text,
        idempotencyKey: typeof key === 'string' ? key : undefined,
      };
      sent.push(accepted);
      options.onMessage?.(accepted);
      return json(response, 201, { id: `msg_${sent.length}`, status: 'queued' });
    }

    json(response, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    clientId,
    clientSecret,
    env: {
      MESSAGING_PROVIDER_URL: url,
      MESSAGING_CLIENT_ID: clientId,
      MESSAGING_CLIENT_SECRET: clientSecret,
      // The provider is the operator's: reached under its outbound policy, this loopback fake named in it.
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    },
    sent,
    tokenRequests,
    revoked,
    issued,
    grantScopes: (scopes) => {
      grantedScopes = scopes;
    },
    deny: (on) => {
      denying = on;
    },
    failSends: (status) => {
      sendStatus = status;
    },
    failTokens: (status) => {
      tokenStatus = status;
    },
    failRevocations: (status) => {
      revokeStatus = status;
    },
    endAllGrants: () => {
      for (const grant of grants.values()) grant.ended = true;
    },
    accepts: (accessToken) => liveAccess(accessToken) !== null,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
