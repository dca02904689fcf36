import { expect } from 'vitest';
import { type OrgApp, uniqueEmail } from '../helpers/fixtures.ts';
import { formBody } from '../links/helpers.ts';

/** Console steps over HTTP for one test file's app: sign in through the pages, read, post forms. */

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export type ConsoleRole = 'owner' | 'developer' | 'viewer';
export interface SignedIn {
  email: string;
  cookie: string;
  csrf: string;
}

export function consoleSteps(f: OrgApp) {
  /** Signs in through the pages; answers the last response and the code the email carried. */
  async function signIn(email: string, code?: (real: string) => string) {
    const start = await f.t.request({ method: 'GET', url: '/dashboard/sign-in' });
    const browser = (start.headers['set-cookie'] as string).split(';')[0]!;
    const hidden = (html: string) =>
      Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
      );
    const asked = await f.t.request({
      method: 'POST',
      url: '/dashboard/sign-in',
      headers: { ...FORM, cookie: browser },
      payload: formBody({ ...hidden(start.body), email }),
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // The email with a code (an invitation may share its time: the outbox's order does not say).
    const codes = (await f.t.ctx.notifications.sentMessages(1000))
      .filter((m) => m.recipient === email)
      .map((m) => /\b(\d{6})\b/.exec(m.body)?.[1])
      .filter((code) => code !== undefined);
    const real = codes[0] ?? '';
    const verified = await f.t.request({
      method: 'POST',
      url: '/dashboard/sign-in',
      headers: { ...FORM, cookie: browser },
      payload: formBody({ ...hidden(asked.body), code: code ? code(real) : real }),
    });
    return { verified, real };
  }

  /** A new member of the organization with this role, signed in; with the credentials page. */
  async function member(role: ConsoleRole, organizationId = f.org.organization_id) {
    const email = uniqueEmail(role);
    await f.t.ctx.members.add(organizationId, email, role);
    const { verified } = await signIn(email);
    expect(verified.statusCode, verified.body).toBe(303);
    const cookie = (verified.headers['set-cookie'] as string).split(';')[0]!;
    const page = await f.t.request({
      method: 'GET',
      url: `/dashboard/${organizationId}/sandbox/credentials`,
      headers: { cookie },
    });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
    return { email, cookie, csrf, page };
  }

  const post = (url: string, cookie: string, fields: Record<string, string>) =>
    f.t.request({ method: 'POST', url, headers: { ...FORM, cookie }, payload: formBody(fields) });
  const get = (url: string, cookie: string) => f.t.request({ method: 'GET', url, headers: { cookie } });
  /** The URL of a console page of the file's organization: `page('users')`, `page('events', 'production')`. */
  const page = (name: string, mode: 'sandbox' | 'production' = 'sandbox') =>
    `/dashboard/${f.org.organization_id}/${mode}/${name}`;

  return { signIn, member, post, get, page };
}
