import type { FastifyReply, FastifyRequest } from 'fastify';
import { bearerGuard, organizationSuspended } from '../../core/bearer.ts';
import type { OrgService } from '../orgs/index.ts';

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

/**
 * onRequest hook for v1 endpoints (spec §5.7): `Authorization: Bearer <API_KEY>`, a test key for
 * sandbox and a live key for production. The key's mode is the mode of everything it touches.
 * Register `request.apiKey` with `app.decorateRequest('apiKey', null)` in the plugin using it.
 */
export function apiKeyGuard(orgs: OrgService) {
  const holderOf = bearerGuard({
    authenticate: (key) => orgs.authenticateApiKey(key),
    required: 'A valid API key (sk_test_… or sk_live_…) is required.',
  });
  return async function requireApiKey(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const principal = await holderOf(request);
    const organization = await orgs.getOrganization(principal.organizationId);
    if (organization.status !== 'active') throw organizationSuspended();
    request.apiKey = principal;
  };
}
