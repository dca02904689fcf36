import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { redirectUriProblem } from './redirects.ts';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client whose
 * `client_id` is an https URL publishes its metadata (RFC 7591 §2 fields) at that URL.
 */

/** Largest document read (the draft recommends a 5 KB limit). */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
/** Whole fetch, connection to last byte. */
export const DOCUMENT_TIMEOUT_MS = 5_000;
/** How long a fetched document is used before it is fetched again: its max-age, within bounds. */
export const DOCUMENT_CACHE = { defaultSeconds: 3600, minSeconds: 300, maxSeconds: 86_400 } as const;

/** Why a client_id cannot be a metadata document URL, or null (draft §3). */
export function documentUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (url.username || url.password) return 'must not contain credentials';
  if (raw.includes('#')) return 'must not contain a fragment';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path';
  // The WHATWG parser resolves dot segments; a URL that changes when parsed contained them.
  if (/\/\.\.?(\/|$)/.test(raw.split('?')[0] ?? '')) return 'must not contain dot segments';
  if (url.href !== raw) return 'must be in canonical form';
  return null;
}

const ClientDocument = Type.Object({
  client_id: Type.String(),
  client_name: Type.Optional(Type.String()),
  redirect_uris: Type.Array(Type.String({ maxLength: 2000 }), { minItems: 1, maxItems: 20 }),
  token_endpoint_auth_method: Type.Optional(Type.String()),
  grant_types: Type.Optional(Type.Array(Type.String())),
  response_types: Type.Optional(Type.Array(Type.String())),
});
export type ClientDocument = Static<typeof ClientDocument>;

/** The document's metadata, or why it is refused. */
export function parseClientDocument(clientId: string, body: string): ClientDocument | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { problem: 'is not JSON' };
  }
  if (!Value.Check(ClientDocument, value)) return { problem: 'lacks redirect_uris or has malformed fields' };
  // Draft §4.1: the document's client_id must be the URL it was fetched from.
  if (value.client_id !== clientId) return { problem: 'names another client_id' };
  // Draft §4.1: no shared secret can be published; only public clients (`none`) here.
  if ('client_secret' in value || 'client_secret_expires_at' in value)
    return { problem: 'publishes a client secret' };
  if ((value.token_endpoint_auth_method ?? 'none') !== 'none')
    return { problem: 'asks for a token endpoint authentication other than none' };
  if (value.grant_types?.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
    return { problem: 'asks for an unsupported grant type' };
  for (const uri of value.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return { problem: `redirect URI ${uri} ${problem}` };
  }
  return value;
}

/** How long to keep a document: Cache-Control max-age within DOCUMENT_CACHE's bounds. */
export function documentLifetimeSeconds(cacheControl: string): number {
  const match = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl);
  const wanted = match ? Number(match[1]) : DOCUMENT_CACHE.defaultSeconds;
  return Math.min(DOCUMENT_CACHE.maxSeconds, Math.max(DOCUMENT_CACHE.minSeconds, wanted));
}
