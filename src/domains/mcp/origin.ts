import { isIP } from 'node:net';

/**
 * The Origin rule of the tool server (docs/mcp-tools.md, "Origin"). MCP Streamable HTTP §Security:
 * servers MUST validate `Origin` to stop DNS-rebinding and cross-site pages from driving the server
 * with a token they obtained. The bearer is a header, never a cookie, so a page cannot borrow a
 * user's session; the rule is about which pages may hold and use a token at all.
 *
 * - no `Origin`: not a browser (desktop clients, IDEs, servers) — allowed;
 * - the tool server's own origin or the API's (`MCP_URL`, `BASE_URL`) — allowed;
 * - a loopback origin (`http://localhost:*`, `127.0.0.0/8`, `[::1]`) — allowed for test-mode
 *   tokens only, for local development (an MCP inspector on the developer's machine), as test-mode
 *   hosted pages may be framed from loopback;
 * - anything else, `null` included — refused with 403.
 */
export type OriginVerdict = 'allowed' | 'loopback' | 'refused';

export function originVerdict(origin: string | undefined, ownOrigins: ReadonlySet<string>): OriginVerdict {
  if (origin === undefined) return 'allowed';
  if (ownOrigins.has(origin)) return 'allowed';
  return isLoopbackOrigin(origin) ? 'loopback' : 'refused';
}

/** The origins (RFC 6454 serialization) of the configured public addresses. */
export function ownOrigins(...urls: string[]): Set<string> {
  return new Set(urls.map((url) => new URL(url).origin));
}

/** An `Origin` header naming a loopback host, serialized exactly as a browser sends it. */
export function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  // A browser sends scheme://host[:port] only; anything else is not an origin it would send.
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  const host = url.hostname;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '[::1]';
}
