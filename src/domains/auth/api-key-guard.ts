import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { OrgService } from '../orgs/service.ts';
import { bearerToken } from './guard.ts';

/** Who is calling a v1 endpoint: the organization and mode of the API key. */
export interface ApiKeyPrincipal {
  organizationId: string;
  livemode: boolean;
  keyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API key guard; null elsewhere. */
    apiKey: ApiKeyPrincipal | null;
  }
}

function unauthorized(keyPresented: boolean): ApiError {
  // RFC 6750 §3: challenge with the Bearer scheme; name invalid_token when one was sent.
  const challenge = keyPresented ? 'Bearer realm="purser", error="invalid_token"' : 'Bearer realm="purser"';
  return new ApiError(401, 'unauthorized', 'A valid API key (sk_test_… or sk_live_…) is required.', {
    headers: { 'www-authenticate': challenge },
  });
}

/**
 * onRequest hook for v1 endpoints (spec §5.7): `Authorization: Bearer <API_KEY>`, a test key for
 * sandbox and a live key for production. The key's mode is the mode of everything it touches.
 * Register `request.apiKey` with `app.decorateRequest('apiKey', null)` in the plugin using it.
 */
export function apiKeyGuard(orgs: OrgService) {
  return async function requireApiKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const key = bearerToken(request);
    if (!key) throw unauthorized(request.headers.authorization !== undefined);
    const principal = await orgs.authenticateApiKey(key);
    if (!principal) throw unauthorized(true);
    const organization = await orgs.getOrganization(principal.organizationId);
    if (organization.status !== 'active')
      throw new ApiError(403, 'access_denied', 'The organization is suspended.');
    request.apiKey = principal;
  };
}
