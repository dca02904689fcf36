import type { FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/availability.ts';
import { ApiError, serviceUnavailable } from './errors.ts';

/** The bearer token of an `Authorization: Bearer …` header (RFC 6750 §2.1), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  // A keep-alive client sends the same header on each request of its connection: the token read
  // from it last time is that string again, whose hash the token cache has already computed (a
  // token cut out anew is hashed anew at each lookup, which cost more than the rest of the check).
  const connection = request.raw.socket;
  const last = connection ? lastHeaders.get(connection) : undefined;
  if (last?.header === header) return last.token;
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  const token = match ? (match[1] as string) : null;
  if (connection) lastHeaders.set(connection, { header, token });
  return token;
}

/** Each connection's last `Authorization` header and the token read from it. */
const lastHeaders = new WeakMap<object, { header: string; token: string | null }>();

/** RFC 6750 §3: challenge with the Bearer scheme; name `invalid_token` when one was sent. */
export function bearerChallenge(tokenPresented: boolean): string {
  return tokenPresented ? 'Bearer realm="purser", error="invalid_token"' : 'Bearer realm="purser"';
}

/** `403 access_denied`: the credential is good, its organization suspended. */
export function organizationSuspended(): ApiError {
  return new ApiError(403, 'access_denied', 'The organization is suspended.');
}

/**
 * A token that could not be checked: `503 service_unavailable` when the database cannot be reached
 * (as every request then), else `503 auth_unavailable` (spec §7: its store failed), its cause
 * logged. Never a bare 500; the client retries after `Retry-After`.
 */
export function tokenCheckFailed(request: FastifyRequest, error: unknown): ApiError {
  if (isDatabaseUnavailable(error)) return serviceUnavailable(error);
  request.log.error({ err: error }, 'authentication unavailable');
  return new ApiError(503, 'auth_unavailable', 'Authentication is temporarily unavailable; retry shortly.', {
    headers: { 'retry-after': '1' },
  });
}

/** How a route family checks the bearer credential it takes. */
export interface BearerCheck<Holder> {
  /**
   * The holder of the token, or null when it is none of this family's (`401`, `invalid_token`).
   * Throwing is a check that failed (`tokenCheckFailed`), never a 500.
   */
  authenticate(token: string): Promise<Holder | null>;
  /** The `401 unauthorized` message: which credential the family takes. */
  required: string;
  /** The `WWW-Authenticate` challenge, `bearerChallenge` unless the family names another. */
  challenge?: (tokenPresented: boolean) => string;
}

/**
 * The one bearer guard of every authenticated route family (platform tokens, API keys, user tokens,
 * the tool server, the review queue): the `Authorization: Bearer …` token (RFC 6750 §2.1), checked
 * by the family's `authenticate`. No token or an unknown one is `401 unauthorized` with the
 * family's challenge; a check that failed is `503`. What the family then accepts of the holder
 * (its kind, its organization's status) is the caller's.
 */
export function bearerGuard<Holder>(check: BearerCheck<Holder>) {
  const challenge = check.challenge ?? bearerChallenge;
  const unauthorized = (tokenPresented: boolean) =>
    new ApiError(401, 'unauthorized', check.required, {
      headers: { 'www-authenticate': challenge(tokenPresented) },
    });
  return async function holderOf(request: FastifyRequest): Promise<Holder> {
    const token = bearerToken(request);
    if (!token) throw unauthorized(request.headers.authorization !== undefined);
    let holder: Holder | null;
    try {
      holder = await check.authenticate(token);
    } catch (error) {
      throw tokenCheckFailed(request, error);
    }
    if (holder === null) throw unauthorized(true);
    return holder;
  };
}
