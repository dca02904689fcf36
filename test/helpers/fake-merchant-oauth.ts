import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * Account linking at a fake merchant: an OAuth 2.0 authorization server as a merchant would run one
 * (ACP has no account linking; this is what Purser's extension expects, docs/merchant-accounts.md).
 * The authorization endpoint signs the shopper in and approves at once (a redirect back with a code,
 * or `error=access_denied` when told to deny); the token endpoint authenticates the client with HTTP
 * Basic (RFC 6749 §2.3.1), checks the redirect URI, uses each code once and checks PKCE S256
 * (RFC 7636 §4.6); userinfo (OpenID Connect Core §5.3) names the account of a bearer access token.
 */

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const token = (prefix: string) => `${prefix}_${b64url(randomBytes(24))}`;

interface Code {
  challenge: string;
  method: string;
  redirectUri: string;
  scope: string;
  accountId: string;
  used: boolean;
}

export class FakeMerchantOAuth {
  readonly clientId = 'purser-at-merchant';
  readonly clientSecret = `mcs_${b64url(randomBytes(16))}`;
  /** The account the next sign-in is for (the shopper who signs in at the merchant). */
  accountId = 'cust_4821';
  /** Following authorizations are declined (`error=access_denied`). */
  deny = false;
  /** The token endpoint answers this status with `server_error` (null: normal). */
  tokenStatus: number | null = null;
  /** Every token request, as its form fields. */
  readonly tokenRequests: Record<string, string>[] = [];
  /** Every authorization request, as its query. */
  readonly authorizeRequests: Record<string, string>[] = [];
  /** Access and refresh tokens issued, newest last. */
  readonly issued: { accessToken: string; refreshToken: string; accountId: string }[] = [];
  private readonly codes = new Map<string, Code>();
  private readonly accessTokens = new Map<string, string>();

  constructor(private readonly base: () => string) {}

  /** The `merchant add --link-…` URLs of this merchant. */
  get urls() {
    return {
      authorizeUrl: `${this.base()}/oauth/authorize`,
      tokenUrl: `${this.base()}/oauth/token`,
      userinfoUrl: `${this.base()}/oauth/userinfo`,
    };
  }

  handle(request: IncomingMessage, response: ServerResponse, body: string) {
    const url = new URL(request.url ?? '/', 'http://fake');
    const json = (status: number, answer: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(answer));
    };

    if (request.method === 'GET' && url.pathname === '/oauth/authorize') {
      const q = Object.fromEntries(url.searchParams);
      this.authorizeRequests.push(q);
      if (q.client_id !== this.clientId || !q.redirect_uri) return json(400, { error: 'invalid_client' });
      const back = new URL(q.redirect_uri);
      if (q.state !== undefined) back.searchParams.set('state', q.state);
      if (q.response_type !== 'code' || q.code_challenge_method !== 'S256' || !q.code_challenge)
        back.searchParams.set('error', 'invalid_request');
      else if (this.deny) back.searchParams.set('error', 'access_denied');
      else {
        const code = token('code');
        this.codes.set(code, {
          challenge: q.code_challenge,
          method: q.code_challenge_method,
          redirectUri: q.redirect_uri,
          scope: q.scope ?? '',
          accountId: this.accountId,
          used: false,
        });
        back.searchParams.set('code', code);
      }
      response.writeHead(302, { location: back.toString() });
      return void response.end();
    }

    if (request.method === 'POST' && url.pathname === '/oauth/token') {
      const form = Object.fromEntries(new URLSearchParams(body));
      this.tokenRequests.push(form);
      if (this.tokenStatus !== null) return json(this.tokenStatus, { error: 'server_error' });
      const header = request.headers.authorization ?? '';
      const [id, secret] = Buffer.from(header.replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':')
        .map(decodeURIComponent);
      if (!header.startsWith('Basic ') || id !== this.clientId || secret !== this.clientSecret)
        return json(401, { error: 'invalid_client' });
      if (form.grant_type !== 'authorization_code') return json(400, { error: 'unsupported_grant_type' });
      const entry = form.code ? this.codes.get(form.code) : undefined;
      if (!entry || entry.used || entry.redirectUri !== form.redirect_uri)
        return json(400, { error: 'invalid_grant', error_description: 'bad code' });
      entry.used = true;
      // RFC 7636 §4.6: BASE64URL(SHA256(code_verifier)) must equal the challenge.
      const computed = form.code_verifier
        ? b64url(createHash('sha256').update(form.code_verifier).digest())
        : '';
      if (computed !== entry.challenge)
        return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      const pair = { accessToken: token('mat'), refreshToken: token('mrt'), accountId: entry.accountId };
      this.issued.push(pair);
      this.accessTokens.set(pair.accessToken, entry.accountId);
      return json(200, {
        access_token: pair.accessToken,
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: pair.refreshToken,
        scope: entry.scope,
      });
    }

    if (request.method === 'GET' && url.pathname === '/oauth/userinfo') {
      const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      const accountId = this.accessTokens.get(bearer);
      if (!accountId) return json(401, { error: 'invalid_token' });
      return json(200, { sub: accountId });
    }
    json(404, { error: 'not_found' });
  }
}
