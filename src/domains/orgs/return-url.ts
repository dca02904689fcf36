import { isLoopbackHost } from './embed-origins.ts';

/**
 * A platform's `return_url` for a hosted flow (onboarding, platform connect): `https://…`, or
 * `http://` to a loopback host (development); no credentials, no fragment. The problem, or null.
 */
export function returnUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    return 'must use https (http is allowed only for loopback hosts)';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.hash !== '') return 'must not carry a fragment';
  return null;
}

/** Where a finished hosted flow sends the browser: `return_url` with `session_id` and `state` added. */
export function returnAddress(session: { id: string; state: string | null; return_url: string }): string {
  const url = new URL(session.return_url);
  url.searchParams.set('session_id', session.id);
  if (session.state !== null) url.searchParams.set('state', session.state);
  return url.toString();
}
