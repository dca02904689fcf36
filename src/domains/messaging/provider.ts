import { hash } from 'node:crypto';
// The one SSRF-guarded outbound client (resolved and checked address, pinned, no redirects, bounded).
import { guardedRequest } from '../../core/http/client.ts';
import type { DestinationPolicy, HostResolver } from '../../core/http/ssrf.ts';
import { basicClientAuth, readTokenAnswer } from '../../core/oauth-token.ts';

/** Where each part of the provider's protocol lives, under `MESSAGING_PROVIDER_URL` (docs/messaging.md). */
export const PROVIDER_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  messages: '/v1/messages',
} as const;

/** What a token endpoint granted (RFC 6749 §5.1), with the provider's organization ids. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds; null when the provider did not say. */
  expiresIn: number | null;
  /** Null when the answer has no `scope`: RFC 6749 §5.1 then means the scopes asked for. */
  scopes: string[] | null;
  organizationIds: string[];
}

export type TokenAnswer =
  | { ok: true; tokens: ProviderTokens }
  /** `permanent`: the grant itself was refused (`invalid_grant`); asking again will not help. */
  | { ok: false; permanent: boolean; error: string };

export type ProviderAnswer = { ok: true } | { ok: false; status: number | null; error: string };

export interface ProviderClientOptions {
  url: string;
  clientId: string;
  clientSecret: string;
  policy: DestinationPolicy;
  resolveHost?: HostResolver;
  timeoutMs: number;
}

/** RFC 7636 §4.2: the S256 code challenge of a verifier. */
export function s256Challenge(verifier: string): string {
  return hash('sha256', verifier, 'base64url');
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * The messaging provider's protocol: OAuth 2.0 authorization code with PKCE (RFC 6749 §4.1, RFC 7636),
 * refresh (§6), revocation (RFC 7009), and its send-message API. The client authenticates with HTTP
 * Basic (RFC 6749 §2.3.1). Every request goes through the SSRF guard; nothing here logs a token.
 */
export class ProviderClient {
  constructor(private readonly options: ProviderClientOptions) {}

  /** The consent URL the operator opens (RFC 6749 §4.1.1, RFC 7636 §4.3). */
  authorizeUrl(request: { state: string; verifier: string; redirectUri: string; scopes: string[] }): string {
    const url = new URL(this.options.url + PROVIDER_PATHS.authorize);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: request.redirectUri,
      scope: request.scopes.join(' '),
      state: request.state,
      code_challenge: s256Challenge(request.verifier),
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  /** RFC 6749 §4.1.3 with the PKCE verifier (RFC 7636 §4.5). */
  exchangeCode(code: string, verifier: string, redirectUri: string): Promise<TokenAnswer> {
    return this.tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
  }

  /** RFC 6749 §6; the answer may carry a new refresh token (rotation), which replaces the old one. */
  refresh(refreshToken: string): Promise<TokenAnswer> {
    return this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** RFC 7009 §2.1; §2.2: 200 also for a token already invalid, so only a failure to answer is an error. */
  async revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<ProviderAnswer> {
    const answer = await this.post(PROVIDER_PATHS.revoke, this.form({ token, token_type_hint: hint }));
    if (answer.kind === 'failure') return { ok: false, status: null, error: answer.error };
    if (answer.status >= 200 && answer.status < 300) return { ok: true };
    return { ok: false, status: answer.status, error: `revocation answered ${answer.status}` };
  }

  /** One text message from the organization's numbers; the key makes a retried send act once. */
  async sendMessage(
    accessToken: string,
    message: { to: string; text: string; idempotencyKey: string },
  ): Promise<ProviderAnswer> {
    const answer = await guardedRequest(
      new URL(this.options.url + PROVIDER_PATHS.messages),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          'idempotency-key': message.idempotencyKey,
        },
        body: JSON.stringify({ to: message.to, text: message.text }),
      },
      this.guard(),
    );
    if (answer.kind === 'failure') return { ok: false, status: null, error: answer.error };
    if (answer.status >= 200 && answer.status < 300) return { ok: true };
    return { ok: false, status: answer.status, error: `the send API answered ${answer.status}` };
  }

  private async tokenRequest(fields: Record<string, string>): Promise<TokenAnswer> {
    const answer = await this.post(PROVIDER_PATHS.token, this.form(fields));
    if (answer.kind === 'failure') return { ok: false, permanent: false, error: answer.error };
    const read = readTokenAnswer(answer.status, answer.body);
    if (!read.ok) return { ok: false, permanent: read.error === 'invalid_grant', error: read.error };
    const { tokens } = read;
    const organizationIds = tokens.body.organization_ids;
    if (organizationIds !== undefined && !isStringArray(organizationIds))
      return { ok: false, permanent: false, error: 'malformed token response' };
    return {
      ok: true,
      tokens: {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresIn: tokens.expiresIn,
        scopes: tokens.scopes,
        organizationIds: organizationIds ?? [],
      },
    };
  }

  private form(fields: Record<string, string>) {
    return {
      headers: {
        authorization: basicClientAuth(this.options.clientId, this.options.clientSecret),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(fields).toString(),
    };
  }

  private post(path: string, request: { headers: Record<string, string>; body: string }) {
    return guardedRequest(new URL(this.options.url + path), { method: 'POST', ...request }, this.guard());
  }

  private guard() {
    return {
      policy: this.options.policy,
      timeoutMs: this.options.timeoutMs,
      ...(this.options.resolveHost ? { resolveHost: this.options.resolveHost } : {}),
    };
  }
}
