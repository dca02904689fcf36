import { isIP } from 'node:net';

/** The most origins one list may hold (the spec leaves the maximum open). */
export const MAX_EMBED_ORIGINS = 50;

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/**
 * An embed origin in its canonical form (`scheme://host[:port]`, lower case, default port
 * dropped), or why it is refused: it must be an origin and nothing more, over HTTPS except for
 * loopback hosts (spec §4).
 */
export function parseEmbedOrigin(value: string): { origin: string } | { problem: string } {
  if (!URL.canParse(value)) return { problem: 'is not a URL' };
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must be an https origin' };
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/' || /[?#]$/.test(value))
    return { problem: 'must be an origin only (scheme, host and port; no path, query or credentials)' };
  if (url.hostname.includes('*')) return { problem: 'must name one host (no wildcards)' };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return { problem: 'must use https (http is allowed only for loopback hosts)' };
  return { origin: url.origin };
}
