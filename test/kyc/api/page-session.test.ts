import { describe, expect, it } from 'vitest';
import {
  cameraFrames,
  driveTo,
  expectError,
  expectState,
  getState,
  type KycUser,
  newUser,
  openPage,
  pagePath,
  startKycApp,
  submitPage,
  useKycApp,
} from './helpers.ts';

/** The hosted page's session belongs to the browser that opened it (its page cookie). */
// Tests move the clock by half an hour: fresh platform tokens for each.
const f = useKycApp({ each: 'tokens' });

async function row(u: KycUser) {
  return f.t.ctx.db
    .selectFrom('kyc_verifications')
    .selectAll()
    .where('user_id', '=', u.userId)
    .executeTakeFirstOrThrow();
}

const finish = { fields: {}, frames: cameraFrames() };

describe('a hosted page session is bound to the browser that opened it', () => {
  it('opening sets an HttpOnly, SameSite page cookie scoped to the page, living as long as the session', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const res = await f.t.request({ method: 'GET', url: pagePath(state.iframe_url as string) });
    expect(res.statusCode).toBe(200);
    const cookie = String(res.headers['set-cookie']);
    const id = (await row(u)).id;
    expect(cookie).toMatch(new RegExp(`^kyc_${id}=kys_[A-Za-z0-9]+; `));
    const attributes = cookie.split('; ').slice(1);
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/kyc/verify', 'Max-Age=1800', 'HttpOnly', 'SameSite=Lax']),
    );
    // Plain http (this test's BASE_URL): no Secure, which browsers would refuse there.
    expect(attributes).not.toContain('Secure');
  });

  it('a second browser opening the same link gets a page saying it is open elsewhere (409), and takes nothing', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const first = await openPage(f.t, state.iframe_url as string);
    const before = await row(u);

    // Same link, another browser (no cookie), or one with a forged or another page's cookie.
    const id = before.id;
    for (const cookie of [undefined, `kyc_${id}=kys_${'A'.repeat(43)}`, `kyc_${id}=nonsense`]) {
      const res = await f.t.request({
        method: 'GET',
        url: pagePath(state.iframe_url as string),
        headers: cookie ? { cookie } : {},
      });
      expect(res.statusCode, cookie).toBe(409);
      expect(res.body).toContain('data-status="open_elsewhere"');
      expect(res.body).toContain('another browser');
      expect(res.body).not.toContain('data-session');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(await row(u)).toEqual(before);

    // The first browser's page still works.
    expect((await submitPage(f.t, first.session, finish)).statusCode).toBe(200);
    expectState(await getState(f.t, u), 'pending');
  });

  it('the same browser opening the link again (or a renewed link) gets the same session', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const first = await openPage(f.t, state.iframe_url as string);
    const again = await openPage(f.t, state.iframe_url as string, { cookie: first.cookie });
    expect(again.session).toBe(first.session);
    // A link renewed near expiry, opened in the same browser.
    f.t.clock.advance(700_000);
    const renewed = expectState(await getState(f.t, u), 'requires_verification').iframe_url as string;
    expect(renewed).not.toBe(state.iframe_url);
    const third = await openPage(f.t, renewed, { cookie: first.cookie });
    expect(third.session).toBe(first.session);
    expect((await submitPage(f.t, first.session, finish)).statusCode).toBe(200);
  });

  it('every page post needs the page cookie of its session: without it, or with another, 401 and nothing changes', async () => {
    const u = await newUser(f.t, f.sandbox);
    const v = await newUser(f.t, f.sandbox);
    const page = await openPage(f.t, (await driveTo(f.t, u, 'requires_verification')).iframe_url as string);
    const other = await openPage(f.t, (await driveTo(f.t, v, 'requires_verification')).iframe_url as string);
    const before = await row(u);
    const id = before.id;
    for (const cookie of [
      null,
      other.cookie,
      `kyc_${id}=${other.session}`,
      `kyc_${id}=${page.session}x`,
      `kyc_${(await row(v)).id}=${page.session}`,
    ]) {
      expectError(await submitPage(f.t, page.session, finish, { cookie }), 401, 'session_expired');
    }
    expect(await row(u)).toEqual(before);
    expectState(await getState(f.t, u), 'requires_verification');
    // Both cookies together (one browser, two verifications): each page works.
    const both = `${other.cookie}; ${page.cookie}`;
    expect((await submitPage(f.t, page.session, finish, { cookie: both })).statusCode).toBe(200);
    expect((await submitPage(f.t, other.session, finish, { cookie: both })).statusCode).toBe(200);
  });

  it('once the session has ended, another browser may open the page; the first one is then out', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const first = await openPage(f.t, state.iframe_url as string);
    f.t.clock.advance(1_801_000);
    const link = expectState(await getState(f.t, u), 'requires_verification').iframe_url as string;
    const second = await openPage(f.t, link);
    expect(second.session).not.toBe(first.session);
    expectError(await submitPage(f.t, first.session, finish), 401, 'session_expired');
    // The first browser, opening the link again, is now the other one.
    const res = await f.t.request({ method: 'GET', url: pagePath(link), headers: { cookie: first.cookie } });
    expect(res.statusCode).toBe(409);
    expect((await submitPage(f.t, second.session, finish)).statusCode).toBe(200);
  });

  it('the other browser may take over only by its explicit choice ("Continue in this browser"), which ends the first page', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const link = pagePath(state.iframe_url as string);
    const first = await openPage(f.t, state.iframe_url as string);
    const elsewhere = await f.t.request({ method: 'GET', url: link });
    expect(elsewhere.statusCode).toBe(409);
    // The open-elsewhere page offers the choice as a plain form posting to the link itself.
    expect(elsewhere.body).toContain(`<form method="post" action="${link}">`);

    const taken = await f.t.request({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(taken.statusCode).toBe(303);
    expect(taken.headers.location).toBe(link);
    const cookie = String(taken.headers['set-cookie']).split(';')[0] as string;
    const second = await openPage(f.t, state.iframe_url as string, { cookie });
    expect(second.session).not.toBe(first.session);
    expectError(await submitPage(f.t, first.session, finish), 401, 'session_expired');
    // The first browser is now the other one.
    const back = await f.t.request({ method: 'GET', url: link, headers: { cookie: first.cookie } });
    expect(back.statusCode).toBe(409);
    expect((await submitPage(f.t, second.session, finish)).statusCode).toBe(200);
  });

  it('taking over needs the newest valid link: a replaced, expired or forged one changes nothing', async () => {
    const u = await newUser(f.t, f.sandbox);
    const state = await driveTo(f.t, u, 'requires_verification');
    const first = await openPage(f.t, state.iframe_url as string);
    const link = pagePath(state.iframe_url as string);
    const forged = `${link.slice(0, -1)}${link.endsWith('A') ? 'B' : 'A'}`;
    expect((await f.t.request({ method: 'POST', url: forged })).statusCode).toBe(404);
    f.t.clock.advance(700_000);
    expectState(await getState(f.t, u), 'requires_verification'); // renews the link
    expect((await f.t.request({ method: 'POST', url: link })).statusCode).toBe(410);
    const before = await row(u);
    f.t.clock.advance(300_000);
    expect((await f.t.request({ method: 'POST', url: link })).statusCode).toBe(410);
    expect(await row(u)).toEqual(before);
    expect((await submitPage(f.t, first.session, finish)).statusCode).toBe(200);
  });

  it('a page that only shows a message takes no session: any browser may open it', async () => {
    const u = await newUser(f.t, f.sandbox);
    const link = expectState(await getState(f.t, u), 'awaiting_documents').iframe_url as string;
    for (let i = 0; i < 2; i++) {
      const res = await f.t.request({ method: 'GET', url: pagePath(link) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).not.toContain('data-session');
    }
    expect((await row(u)).session_digest).toBeNull();
  });
});

describe('over https', () => {
  it('the page cookie is Secure, SameSite=None and Partitioned, so that it reaches the page in a platform iframe', async () => {
    const secure = await startKycApp({ BASE_URL: 'https://purser.example' });
    try {
      const o = await secure.createOrg();
      const u = await newUser(secure, await secure.platformToken(o.sandbox));
      const state = await driveTo(secure, u, 'requires_verification');
      const res = await secure.request({ method: 'GET', url: pagePath(state.iframe_url as string) });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie']).split('; ')).toEqual(
        expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=None', 'Partitioned']),
      );
    } finally {
      await secure.close();
    }
  });
});
