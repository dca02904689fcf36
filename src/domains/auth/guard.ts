import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerGuard, organizationSuspended } from '../../core/bearer.ts';
import { ApiError } from '../../core/errors.ts';
import type { AuthService, Principal } from './service.ts';

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
 */
export function platformGuard(auth: AuthService) {
  const holderOf = bearerGuard({
    authenticate: (token) => auth.authenticate(token),
    required: 'A valid platform access token is required.',
  });
  return async function requirePlatformToken(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const principal = await holderOf(request);
    if (principal.kind !== 'platform') {
      throw new ApiError(
        400,
        'client_credentials_required',
        'This endpoint needs a platform token minted from client credentials, not a connection token.',
      );
    }
    if (!principal.organizationActive) throw organizationSuspended();
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
