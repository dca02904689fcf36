import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, serviceUnavailable } from '../../core/errors.ts';
import { isDatabaseUnavailable } from '../../db/availability.ts';
import type { AuthService, Principal } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the platform guard; null on unauthenticated routes. */
    principal: Principal | null;
  }
}

/** The bearer token of an `Authorization: Bearer …` header (RFC 6750 §2.1), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  return match ? (match[1] as string) : null;
}

function unauthorized(tokenPresented: boolean): ApiError {
  // RFC 6750 §3: challenge with the Bearer scheme; name invalid_token when one was sent.
  const challenge = tokenPresented ? 'Bearer realm="purser", error="invalid_token"' : 'Bearer realm="purser"';
  return new ApiError(401, 'unauthorized', 'A valid platform access token is required.', {
    headers: { 'www-authenticate': challenge },
  });
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

/**
 * onRequest hook for v2 platform endpoints, so it runs before the body is parsed: the bearer must be
 * a live platform token minted by the client-credentials grant. A connection (user) token is refused
 * with `client_credentials_required`.
 */
export function platformGuard(auth: AuthService) {
  return async function requirePlatformToken(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request);
    if (!token) throw unauthorized(request.headers.authorization !== undefined);
    let principal: Awaited<ReturnType<AuthService['authenticate']>>;
    try {
      principal = await auth.authenticate(token);
    } catch (error) {
      throw tokenCheckFailed(request, error);
    }
    if (!principal) throw unauthorized(true);
    if (principal.kind !== 'platform') {
      throw new ApiError(
        400,
        'client_credentials_required',
        'This endpoint needs a platform token minted from client credentials, not a connection token.',
      );
    }
    if (!principal.organizationActive)
      throw new ApiError(403, 'access_denied', 'The organization is suspended.');
    request.principal = principal;
  };
}

/**
 * preValidation hook of the simulators (spec §7): a live credential is `403 sandbox_only` whatever
 * its body says, which is only checked after this.
 */
export async function testModeOnly(request: FastifyRequest): Promise<void> {
  if (request.principal?.livemode)
    throw new ApiError(403, 'sandbox_only', 'Simulations need a test-mode credential.');
}
