import { ConfigError, type Env, optional } from '../../core/env.ts';

/** Settings of the user-facing authorization server (`OAUTH_*`); docs/oauth-mcp.md lists them. */
export interface OAuthConfig {
  /**
   * Where clients that register themselves (RFC 7591) or arrive by a Client ID Metadata Document
   * belong: an organization and mode (`OAUTH_REGISTRATION=org_…:sandbox`); `organizationId` null is
   * the oldest organization, in sandbox (the default outside production). Null: both are off, and
   * only clients made with `purser client create` can ask for authorization.
   */
  registration: { organizationId: string | null; livemode: boolean } | null;
  /** PEM file of extra certificate authorities trusted when fetching metadata documents (private PKI). */
  clientDocumentCaFile: string | null;
}

export function loadOAuthConfig(env: Env): OAuthConfig {
  return {
    registration: registrationOf(optional(env, 'OAUTH_REGISTRATION'), env.NODE_ENV === 'production'),
    clientDocumentCaFile: optional(env, 'OAUTH_CLIENT_DOCUMENT_CA_FILE'),
  };
}

function registrationOf(raw: string | null, production: boolean): OAuthConfig['registration'] {
  // Production names its organization or goes without; elsewhere a fresh start works out of the box.
  if (raw === null) return production ? null : { organizationId: null, livemode: false };
  if (raw === 'off') return null;
  const match = /^(org_[A-Za-z0-9]+)(?::(sandbox|production))?$/.exec(raw);
  if (!match)
    throw new ConfigError(`OAUTH_REGISTRATION must be off or org_…[:sandbox|:production], got "${raw}"`);
  return { organizationId: match[1] as string, livemode: match[2] === 'production' };
}
