import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { bearerGuard, bearerToken, organizationSuspended } from '../../core/bearer.ts';
import { ApiError } from '../../core/errors.ts';
import type { AuthenticatedPrincipal, AuthService, Principal } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the platform guard; null on unauthenticated routes. */
    principal: Principal | null;
  }
}

/**
 * onRequest hook for v2 platform endpoints, so it runs before the body is parsed: the bearer must be
 * a live platform token minted by the client-credentials grant. A connection (user) token is refused
 * with `client_credentials_required`.
 *
 * A callback hook: a token this process checked within the cache's TTL (nearly every request of a
 * busy client) is admitted at once, without the promises and the tick an async hook costs on every
 * request; any other goes through the lookup.
 */
export function platformGuard(auth: AuthService): onRequestHookHandler {
  const holderOf = bearerGuard({
    authenticate: (token) => auth.authenticate(token),
    required: 'A valid platform access token is required.',
  });
  return function requirePlatformToken(request, _reply, done) {
    const token = bearerToken(request);
    const recent = token === null ? undefined : auth.recentPrincipal(token);
    if (recent) return done(admit(request, recent));
    holderOf(request).then((principal) => done(admit(request, principal)), done);
  };
}

/** Sets the request's principal, or says why this platform route refuses it. */
function admit(request: FastifyRequest, principal: Readonly<AuthenticatedPrincipal>): ApiError | undefined {
  if (principal.kind !== 'platform') {
    return new ApiError(
      400,
      'client_credentials_required',
      'This endpoint needs a platform token minted from client credentials, not a connection token.',
    );
  }
  if (!principal.organizationActive) return organizationSuspended();
  request.principal = principal;
  return undefined;
}

/**
 * preValidation hook of the simulators (spec §7): a live credential is `403 sandbox_only` whatever
 * its body says, which is only checked after this.
 */
export async function testModeOnly(request: FastifyRequest): Promise<void> {
  if (request.principal?.livemode)
    throw new ApiError(403, 'sandbox_only', 'Simulations need a test-mode credential.');
}
