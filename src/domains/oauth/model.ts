import { invalid, Refusal } from '../../core/refusal.ts';
import type { Client } from '../../db/schema.ts';
import { invalidClient } from '../auth/index.ts';
import type { OAuthRefusalCode } from './index.ts';

/** What the authorization server's parts share: scopes, the client shape, the OAuth errors. */

/**
 * The scopes of the tool server (docs/oauth-mcp.md): acting for the user with the tools, and buying
 * for them within a spending mandate they sign at consent (`purser:spend`, with a `mandate` parameter).
 */
export const OAUTH_SCOPES = {
  'purser:tools': 'Use Purser tools on your behalf',
  'purser:spend': 'Buy for you without asking each time, within the spending terms below',
} as const;

/** The scope that comes with a `mandate` request parameter, and only with one. */
export const SPEND_SCOPE = 'purser:spend';

/** The longest `mandate` parameter: the pending request, terms included, must fit the browser's cookie. */
export const MAX_MANDATE_LENGTH = 1_200;

export const DEFAULT_SCOPE = 'purser:tools';

/** A client able to take part in the user-facing flow, whatever way it was registered. */
export interface OAuthClient {
  id: string;
  name: string;
  organizationId: string;
  livemode: boolean;
  type: 'confidential' | 'public';
  redirectUris: string[];
  grantTypes: string[];
  row: Client;
}

const refuse = (code: OAuthRefusalCode, description: string) =>
  new Refusal<OAuthRefusalCode>(code, description);

/**
 * RFC 6749 §5.2 (and RFC 7009, RFC 7591 §3.2.2, RFC 8707 §2) refusals, rendered in the OAuth body;
 * their statuses are in routes.ts. `invalid_client` is auth's, answered as the platform token
 * endpoint answers it.
 */
export const tokenError = {
  invalidRequest: (description: string) => invalid(description),
  invalidGrant: (description: string) => refuse('invalid_grant', description),
  invalidTarget: (description: string) => refuse('invalid_target', description),
  invalidScope: (description: string) => refuse('invalid_scope', description),
  unsupportedGrantType: () =>
    refuse('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.'),
  unauthorizedClient: (description: string) => refuse('unauthorized_client', description),
  invalidClient,
  invalidClientMetadata: (description: string) => refuse('invalid_client_metadata', description),
  invalidRedirectUri: (description: string) => refuse('invalid_redirect_uri', description),
  accessDenied: (description: string) => refuse('access_denied', description),
};

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  scope: string;
}

/** What an unknown scope is told (authorize, refresh, registration). */
export const UNKNOWN_SCOPE = `scope must be among: ${Object.keys(OAUTH_SCOPES).join(' ')}.`;

/**
 * RFC 6749 §3.3: the requested scope, or the default; null when it names an unknown scope.
 * `offline_access` is ignored: refresh tokens come without asking (issue 10), and clients written
 * for OpenID providers ask for it.
 */
export function grantedScope(requested: string | undefined): string | null {
  const names = (requested ?? '').split(' ').filter((name) => name !== '' && name !== 'offline_access');
  if (names.length === 0) return DEFAULT_SCOPE;
  return names.every((name) => name in OAUTH_SCOPES) ? [...new Set(names)].join(' ') : null;
}
