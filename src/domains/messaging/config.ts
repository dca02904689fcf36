import { ConfigError, type Env, integer, optional } from '../../core/env.ts';

/** The scope that lets Purser send messages from the organization's numbers (docs/messaging.md). */
export const SEND_SCOPE = 'messages:send';

/** RFC 6749 §3.3: a scope token is one or more of %x21 / %x23-5B / %x5D-7E. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The messaging provider (`MESSAGING_*`; docs/messaging.md). */
export interface MessagingConfig {
  /** The provider's OAuth client; null when the three variables are unset (start answers 404 `messaging_not_configured`). */
  provider: { url: string; clientId: string; clientSecret: string } | null;
  /** The scopes asked for at the provider (`MESSAGING_SCOPES`, space-separated). */
  scopes: string[];
  /** How long an authorization request (`state`) may be completed. */
  stateTtlSeconds: number;
  /** Access tokens are refreshed this long before they expire. */
  refreshBeforeSeconds: number;
  /** A whole answer from the provider must arrive within this. */
  timeoutMs: number;
}

function providerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`MESSAGING_PROVIDER_URL must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError('MESSAGING_PROVIDER_URL must be an http or https URL');
  // Credentials in a URL end up in logs; the client secret has its own variable.
  if (url.username || url.password || url.search || url.hash)
    throw new ConfigError('MESSAGING_PROVIDER_URL must not carry credentials, a query or a fragment');
  return url.toString().replace(/\/$/, '');
}

export function loadMessagingConfig(env: Env): MessagingConfig {
  const names = ['MESSAGING_PROVIDER_URL', 'MESSAGING_CLIENT_ID', 'MESSAGING_CLIENT_SECRET'] as const;
  const values = names.map((name) => optional(env, name));
  const [url, clientId, clientSecret] = values;
  const missing = names.filter((_, i) => values[i] === null);
  if (missing.length > 0 && missing.length < names.length)
    throw new ConfigError(
      `The messaging provider needs ${names.join(', ')} together; missing ${missing.join(', ')}`,
    );
  const scopes = (env.MESSAGING_SCOPES || SEND_SCOPE).split(/[\s,]+/).filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => !SCOPE_TOKEN.test(scope)))
    throw new ConfigError('MESSAGING_SCOPES must be space-separated OAuth scope names (RFC 6749 §3.3)');
  return {
    provider: url && clientId && clientSecret ? { url: providerUrl(url), clientId, clientSecret } : null,
    scopes: [...new Set(scopes)],
    stateTtlSeconds: integer(env, 'MESSAGING_OAUTH_STATE_TTL_SECONDS', 600, 60, 3600),
    refreshBeforeSeconds: integer(env, 'MESSAGING_REFRESH_BEFORE_SECONDS', 300, 30, 86_400),
    timeoutMs: integer(env, 'MESSAGING_TIMEOUT_MS', 10_000, 100, 60_000),
  };
}
