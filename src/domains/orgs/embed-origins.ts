import { isIP } from 'node:net';

/** The most origins one list may hold (the spec leaves the maximum open). */
export const MAX_EMBED_ORIGINS = 50;

/** Test mode may always be framed from loopback origins, for local development. */
export const LOOPBACK_FRAME_ANCESTORS = ['http://localhost:*', 'http://127.0.0.1:*'] as const;

/** A page that carries nothing to protect (a dead link's) may be framed by any site. */
export const ANY_FRAME_ANCESTOR = 'frame-ancestors *';

/** An embed origin taken apart: what the stored form and the CSP source are serialized from. */
export interface EmbedOrigin {
  scheme: 'https' | 'http';
  /** A lower-case DNS name in ASCII (punycode), a dotted-quad IPv4 address, or `[IPv6]`. */
  host: string;
  /** Null for the scheme's default port. */
  port: number | null;
}

const DEFAULT_PORT = { https: 443, http: 80 } as const;
const ORIGIN_ONLY = 'must be an origin only (scheme, host and port; no path, query, fragment or credentials)';
const BAD_HOST = 'must name one host: a DNS name, an IPv4 address or a bracketed IPv6 address';
// RFC 1123 §2.1: letters, digits and hyphens, 1 to 63 per label, no hyphen at either end.
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '[::1]';
}

/** The host in canonical form, or null when it is not exactly one DNS name or IP address. */
function canonicalHost(raw: string): string | null {
  if (raw.startsWith('[')) {
    const inner = raw.slice(1, -1);
    // Node's isIP takes a zone id (`fe80::1%eth0`); an origin has none.
    if (!raw.endsWith(']') || !/^[0-9A-Fa-f:.]+$/.test(inner) || isIP(inner) !== 6) return null;
    return new URL(`https://${raw}`).hostname; // compressed, lower case (RFC 5952)
  }
  // Percent-escapes and anything a URL would turn into a path, port or credentials are refused
  // before the URL parser sees the host; what it returns is checked again below.
  if (raw === '' || /[%/\\?#@:[\]]/.test(raw)) return null;
  if (!URL.canParse(`https://${raw}/`)) return null;
  // WHATWG host parsing: IDN to punycode (UTS #46), lower case; `0x7f.1` would become 127.0.0.1.
  const host = new URL(`https://${raw}/`).hostname;
  if (isIP(host) === 4) return DOTTED_QUAD.test(raw) ? host : null;
  if (host.length > 253) return null;
  return host.split('.').every((label) => LDH_LABEL.test(label)) ? host : null;
}

/**
 * An embed origin parsed strictly as `scheme://host[:port]`, or why it is refused (spec §4): https
 * (http only for loopback hosts), one host, an optional port 1–65535, and nothing else. A single
 * trailing `/` is tolerated and dropped (what pasting an address bar gives); any other path, a
 * query, fragment, credentials, wildcard, whitespace, control character or punctuation is refused.
 */
export function parseEmbedOriginParts(value: string): EmbedOrigin | { problem: string } {
  if (/[\p{White_Space}\p{Cc}\p{Cf}]/u.test(value))
    return { problem: 'must not contain spaces or control characters' };
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(value);
  if (!match) return { problem: 'is not an origin (scheme://host[:port])' };
  const [, rawScheme, authority, rest] = match as unknown as [string, string, string, string];
  const scheme = rawScheme.toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') return { problem: 'must be an https origin' };
  if ((rest !== '' && rest !== '/') || authority.includes('@')) return { problem: ORIGIN_ONLY };
  if (authority.includes('*')) return { problem: 'must name one host (no wildcards)' };

  const split = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(authority);
  if (!split) return { problem: BAD_HOST };
  const [, rawHost, rawPort] = split as unknown as [string, string, string | undefined];
  const host = canonicalHost(rawHost);
  if (host === null) return { problem: BAD_HOST };
  let port: number | null = null;
  if (rawPort !== undefined) {
    port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : 0;
    if (port < 1 || port > 65535) return { problem: 'must have a port from 1 to 65535' };
    if (port === DEFAULT_PORT[scheme]) port = null;
  }
  if (scheme === 'http' && !isLoopbackHost(host))
    return { problem: 'must use https (http is allowed only for loopback hosts)' };
  return { scheme, host, port };
}

/** The origin's one serialization: what is stored, answered and put in the CSP. */
export function serializeEmbedOrigin(origin: EmbedOrigin): string {
  return `${origin.scheme}://${origin.host}${origin.port === null ? '' : `:${origin.port}`}`;
}

/** An embed origin in its canonical form (`scheme://host[:port]`), or why it is refused. */
export function parseEmbedOrigin(value: string): { origin: string } | { problem: string } {
  const parsed = parseEmbedOriginParts(value);
  return 'problem' in parsed ? parsed : { origin: serializeEmbedOrigin(parsed) };
}

/**
 * The stored origins that still parse, in canonical form. Rows written before the strict parser
 * may hold values it refuses (`https://a.example;sandbox` once passed): those are ignored.
 */
export function validEmbedOrigins(stored: readonly string[]): string[] {
  const origins: string[] = [];
  for (const value of stored) {
    const parsed = parseEmbedOrigin(value);
    if ('origin' in parsed && !origins.includes(parsed.origin)) origins.push(parsed.origin);
  }
  return origins;
}

/**
 * The CSP `frame-ancestors` directive (CSP Level 3 §6.4.2) of a hosted page: the organization's
 * embed origins for the page's mode, each re-parsed and serialized from its parts so that nothing
 * stored can add a directive or a source, plus loopback in test mode; `'none'` when that is empty.
 */
export function frameAncestorsDirective(stored: readonly string[], options: { loopback: boolean }): string {
  const sources = [...(options.loopback ? LOOPBACK_FRAME_ANCESTORS : []), ...validEmbedOrigins(stored)];
  return `frame-ancestors ${sources.length > 0 ? sources.join(' ') : "'none'"}`;
}
