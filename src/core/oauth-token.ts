/**
 * What Purser needs as an OAuth 2.0 client of another service (a messaging provider, a merchant's
 * account linking): its client authentication, and reading a token endpoint's answer.
 */

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresIn: number | null;
  scopes: string[] | null;
  /** The whole answer, for fields a provider adds. */
  body: Record<string, unknown>;
}

/** HTTP Basic client authentication (RFC 6749 §2.3.1: each part form-encoded before joining). */
export function basicClientAuth(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
}

/**
 * A token endpoint's answer (RFC 6749 §5.1): a bearer token, with an optional positive `expires_in`,
 * refresh token and space-separated scope. A refusal (§5.2) keeps only its error code, never the
 * provider's description.
 */
export function readTokenAnswer(
  status: number,
  answerBody: unknown,
): { ok: true; tokens: TokenSet } | { ok: false; error: string } {
  const body = (answerBody ?? {}) as Record<string, unknown>;
  if (status < 200 || status >= 300)
    return {
      ok: false,
      error: typeof body.error === 'string' ? body.error.slice(0, 64) : `status ${status}`,
    };
  const { access_token, token_type, expires_in, refresh_token, scope } = body;
  const valid =
    typeof access_token === 'string' &&
    access_token.length > 0 &&
    typeof token_type === 'string' &&
    token_type.toLowerCase() === 'bearer' &&
    (expires_in === undefined || (Number.isInteger(expires_in) && (expires_in as number) > 0)) &&
    (refresh_token === undefined || typeof refresh_token === 'string') &&
    (scope === undefined || typeof scope === 'string');
  if (!valid) return { ok: false, error: 'malformed token response' };
  return {
    ok: true,
    tokens: {
      accessToken: access_token,
      refreshToken: (refresh_token as string | undefined) ?? null,
      expiresIn: (expires_in as number | undefined) ?? null,
      scopes: typeof scope === 'string' ? scope.split(' ').filter(Boolean) : null,
      body,
    },
  };
}
