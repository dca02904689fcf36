/**
 * Redirect URI rules of the authorization server. Registered URIs must be absolute, without a
 * fragment (RFC 6749 §3.1.2), https or loopback http, or a private-use scheme for native apps
 * (RFC 8252 §7.1); a request's redirect_uri must match a registered one exactly (RFC 9700 §4.1.3,
 * simple string comparison), except that the port of a loopback redirect may differ (RFC 8252
 * §7.3: native apps listen on an ephemeral port).
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Is the URI an http redirect to a loopback interface (RFC 8252 §7.3; `localhost` tolerated per §8.3)? */
export function isLoopbackRedirect(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** Why a redirect URI cannot be registered, or null. */
export function redirectUriProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URI';
  }
  // RFC 6749 §3.1.2: the endpoint URI must not include a fragment.
  if (url.hash || raw.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:')
    return isLoopbackRedirect(url) ? null : 'must use https (http only for loopback)';
  // RFC 8252 §7.1: private-use URI schemes (reverse domain names, e.g. com.example.app:/cb; apps'
  // own short schemes such as cursor: are common enough to take). A scheme of the web or another
  // protocol names no app.
  if (/^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !NOT_APP_SCHEMES.has(url.protocol)) return null;
  return 'must be an https, loopback http or private-use scheme URI';
}

/** Schemes that belong to the web, the browser or another protocol, never to an app's redirect. */
const NOT_APP_SCHEMES = new Set(
  (
    'about blob chrome chrome-extension data file filesystem ftp ftps gopher imap irc javascript ldap ' +
    'mailto news nntp pop sftp sip sms smtp ssh tel telnet vbscript view-source ws wss'
  )
    .split(' ')
    .map((scheme) => `${scheme}:`),
);

/** Does the requested redirect_uri match one of the registered ones? */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  // RFC 9700 §4.1.3: exact string matching.
  if (registered.includes(requested)) return true;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return false;
  }
  if (!isLoopbackRedirect(url)) return false;
  // RFC 8252 §7.3: for loopback, any port matches; everything else must still be identical, and
  // what no registered URI may carry (a fragment, credentials) matches none.
  if (url.hash || requested.includes('#') || url.username || url.password) return false;
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((candidate) => {
    try {
      const other = new URL(candidate);
      return isLoopbackRedirect(other) && withoutPort(other) === withoutPort(url);
    } catch {
      return false;
    }
  });
}
