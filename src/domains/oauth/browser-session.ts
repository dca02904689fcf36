import { createHmac } from 'node:crypto';
import { safeEqual } from '../../core/crypto.ts';
import type { PendingAuthorization } from './service.ts';

/**
 * The state of a sign-in in one browser, kept in an HMAC-signed HttpOnly cookie: the pending
 * authorization request (so `state`, the redirect URI and the PKCE challenge are bound to this
 * browser and cannot be swapped by a form field; RFC 9700 §4.7), the code attempt, then the user.
 * `flow` is also sent in every form: a form from another flow (another tab, or a forged page) is
 * refused.
 */
export interface BrowserSession {
  purpose: 'authorize' | 'apps';
  flow: string;
  clientId: string;
  pending: PendingAuthorization | null;
  attempt: { id: string; destination: string } | null;
  userId: string | null;
  account: string | null;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** How long a browser has to sign in and decide. */
export const SESSION_TTL_MS = 15 * 60 * 1000;

export const COOKIE_NAMES = { authorize: 'purser_oauth', apps: 'purser_oauth_apps' } as const;

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

export function sealSession(key: Buffer, session: BrowserSession): string {
  const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The session in a cookie value, or null when it is missing, forged or expired. */
export function openSession(
  key: Buffer,
  value: string | undefined,
  purpose: BrowserSession['purpose'],
  now: number,
): BrowserSession | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot < 0) return null;
  const payload = value.slice(0, dot);
  if (!safeEqual(value.slice(dot + 1), mac(key, payload))) return null;
  try {
    const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as BrowserSession;
    if (session.purpose !== purpose || session.expiresAt <= now) return null;
    return session;
  } catch {
    return null;
  }
}

/** The Set-Cookie value: HttpOnly, SameSite=Lax (no cross-site POST carries it), Secure over https. */
export function sessionCookie(
  name: string,
  value: string,
  options: { path: string; secure: boolean; maxAgeSeconds: number },
): string {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
