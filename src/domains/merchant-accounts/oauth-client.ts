// The one SSRF-guarded outbound client (resolved and checked address, pinned, no redirects, bounded).
import { guardedRequest } from '../../core/http/client.ts';
import type { DestinationPolicy, HostResolver } from '../../core/http/ssrf.ts';
import { basicClientAuth, readTokenAnswer } from '../../core/oauth-token.ts';
import { s256Challenge } from '../messaging/index.ts';

/** A merchant's OAuth 2.0 endpoints and Purser's client there (merchant_account_linking). */
export interface MerchantOAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

/** What the merchant granted (RFC 6749 §5.1) and whose account it is (the userinfo `sub`). */
export interface MerchantGrant {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds; null when the merchant did not say. */
  expiresIn: number | null;
  /** Null when the answer has no `scope`: RFC 6749 §5.1 then means the scopes asked for. */
  scopes: string[] | null;
  accountRef: string;
}

export type GrantAnswer = { ok: true; grant: MerchantGrant } | { ok: false; error: string };

export interface GuardOptions {
  policy: DestinationPolicy;
  resolveHost?: HostResolver;
  timeoutMs: number;
}

/** An account reference worth keeping: printable, bounded (it goes into events and lists). */
const ACCOUNT_REF = /^[\x21-\x7e]{1,200}$/;

/**
 * Purser as an OAuth 2.0 client of a merchant: the authorization request (RFC 6749 §4.1.1 with
 * PKCE S256, RFC 7636 §4.3), the code exchange (§4.1.3, RFC 7636 §4.5) authenticated with HTTP Basic
 * (§2.3.1), and the userinfo read that names the account (OpenID Connect Core §5.3, `sub`). Every
 * request goes through the SSRF guard; nothing here logs a token.
 */
export class MerchantOAuthClient {
  constructor(
    private readonly endpoints: MerchantOAuthEndpoints,
    private readonly guard: GuardOptions,
  ) {}

  authorizeUrl(request: { state: string; verifier: string; redirectUri: string }): string {
    const url = new URL(this.endpoints.authorizeUrl);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: this.endpoints.clientId,
      redirect_uri: request.redirectUri,
      scope: this.endpoints.scopes.join(' '),
      state: request.state,
      code_challenge: s256Challenge(request.verifier),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(name, value);
    return url.toString();
  }

  /** The code for tokens, then the account they are for; a failure says which step, never a token. */
  async exchange(code: string, verifier: string, redirectUri: string): Promise<GrantAnswer> {
    const answer = await guardedRequest(
      new URL(this.endpoints.tokenUrl),
      {
        method: 'POST',
        headers: {
          authorization: basicClientAuth(this.endpoints.clientId, this.endpoints.clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }).toString(),
      },
      this.guard,
    );
    if (answer.kind === 'failure') return { ok: false, error: `token endpoint: ${answer.error}` };
    const read = readTokenAnswer(answer.status, answer.body);
    if (!read.ok) return { ok: false, error: `token endpoint: ${read.error}` };
    const { tokens } = read;

    const who = await guardedRequest(
      new URL(this.endpoints.userinfoUrl),
      { method: 'GET', headers: { authorization: `Bearer ${tokens.accessToken}` } },
      this.guard,
    );
    if (who.kind === 'failure') return { ok: false, error: `userinfo: ${who.error}` };
    const sub = (who.body as { sub?: unknown } | null)?.sub;
    if (who.status !== 200 || typeof sub !== 'string' || !ACCOUNT_REF.test(sub))
      return { ok: false, error: `userinfo: status ${who.status} without a usable sub` };
    return {
      ok: true,
      grant: {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresIn: tokens.expiresIn,
        scopes: tokens.scopes,
        accountRef: sub,
      },
    };
  }
}
