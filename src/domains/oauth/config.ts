import { ConfigError, type Env, optional } from '../../core/env.ts';

/** Settings of the user-facing authorization server (`OAUTH_*`); docs/oauth-mcp.md lists them. */
export interface OAuthConfig {
  /**
   * Where clients that register themselves (RFC 7591) or arrive by a Client ID Metadata Document
   * belong: an organization and mode (`OAUTH_REGISTRATION=org_…:sandbox`). Null: both are off, and
   * only clients made with `purser client create` can ask for authorization.
   */
  registration: { organizationId: string; livemode: boolean } | null;
  /** PEM file of extra certificate authorities trusted when fetching metadata documents (private PKI). */
  clientDocumentCaFile: string | null;
}

export function loadOAuthConfig(env: Env): OAuthConfig {
  const raw = optional(env, 'OAUTH_REGISTRATION');
  let registration: OAuthConfig['registration'] = null;
  if (raw !== null) {
    const match = /^(org_[A-Za-z0-9]+)(?::(sandbox|production))?$/.exec(raw);
    if (!match) throw new ConfigError(`OAUTH_REGISTRATION must be org_…[:sandbox|:production], got "${raw}"`);
    registration = { organizationId: match[1] as string, livemode: match[2] === 'production' };
  }
  return { registration, clientDocumentCaFile: optional(env, 'OAUTH_CLIENT_DOCUMENT_CA_FILE') };
}
