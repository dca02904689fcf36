import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { digest } from '../../src/core/crypto.ts';
import { startFakeSms } from '../helpers/fake-sms.ts';
import { connectUser, expectError, uniqueEmail } from '../helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { csrfOf, decide, page, vaultUser } from './helpers.ts';

/**
 * Passkey recovery (issue 29; docs/vault.md "Passkey recovery"): the platform starts a reset, the user
 * proves their email or phone with a one-time code on the hosted page, registers a new passkey in the
 * same browser, and the old ones stop working; `passkey.reset` fires once.
 */
const f = usePurchases();
const RESET_URL = /^http:\/\/purser\.test\/passkeys\/reset\/pkrt_[0-9A-Za-z]{33}$/;

const startReset = (userId: string, token = f.sandbox, headers: Record<string, string> = {}) =>
  f.t.call('POST', `/api/v2/users/${userId}/passkeys/reset`, { token, body: {}, headers });

/** One browser on the reset page (of the suite's app, unless `app`): its cookie, kept from the first GET. */
class Browser {
  cookie = '';
  constructor(
    readonly path: string,
    readonly app: TestApp = f.t,
  ) {}

  async open(): Promise<LightMyRequestResponse> {
    const shown = await this.app.request({ method: 'GET', url: this.path, headers: this.headers() });
    const set = [shown.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('purser_passkey_reset='));
    if (set) this.cookie = set.split(';')[0] as string;
    return shown;
  }

  /** Posts the page's form for `purpose` (its hidden fields as rendered now) with these fields. */
  async submit(purpose: 'code' | 'verify', fields: Record<string, string>, from?: string) {
    const html = from ?? (await this.open()).body;
    const form = new RegExp(
      `name="purpose" value="${purpose}"><input type="hidden" name="nonce" value="([^"]+)"><input type="hidden" name="csrf" value="([^"]+)">`,
    ).exec(html);
    if (!form) throw new Error(`no ${purpose} form on the page`);
    const action = purpose === 'code' ? 'code' : 'verify';
    return this.app.request({
      method: 'POST',
      url: `${this.path}/${action}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.headers() },
      payload: new URLSearchParams({ purpose, nonce: form[1]!, csrf: form[2]!, ...fields }).toString(),
    });
  }

  /** The passkey ceremony's two JSON posts, answered by `authenticator`. */
  async createPasskey(authenticator: SoftAuthenticator) {
    const csrf = csrfOf((await this.open()).body);
    const options = await this.app.call('POST', `${this.path}/webauthn/options`, {
      body: { purpose: 'register', csrf },
      headers: this.headers(),
    });
    if (options.statusCode !== 200) return options;
    return this.app.call('POST', `${this.path}/webauthn/verify`, {
      body: { purpose: 'register', csrf, response: authenticator.register(options.json()) },
      headers: this.headers(),
    });
  }

  private headers(): Record<string, string> {
    return this.cookie ? { cookie: this.cookie } : {};
  }
}

async function lastCodeTo(recipient: string): Promise<string> {
  const message = (await f.t.ctx.notifications.sentMessages(1000)).find(
    (m) => m.recipient === recipient && m.body.includes('reset your passkey'),
  );
  const code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1];
  if (!code) throw new Error(`no reset code for ${recipient}`);
  return code;
}

async function resetRow(id: string) {
  return f.t.ctx.db.selectFrom('passkey_resets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const passkeysOf = (userId: string) =>
  f.t.ctx.db.selectFrom('vault_passkeys').selectAll().where('user_id', '=', userId).execute();

describe('passkey recovery', () => {
  it('a user who lost their passkey proves their email, creates a new one, and the old one stops working', async () => {
    const email = uniqueEmail('lost');
    const { userId, accessToken } = await connectUser(f.t, f.sandbox, { email });
    const old = await vaultUser(f, userId);
    // A purchase waiting for the user's passkey, and a vault session unlocked with the old one.
    const ask = await f.turn(accessToken, { ask: '2 lattes and a croissant from coffee' });
    const paused = await f.turn(accessToken, {
      confirm: ask.cart!.hash,
      conversation_id: ask.conversation_id,
      payment_source: 'vault',
    });
    expect(paused.decline_code).toBe('vault_approval_required');

    const started = await startReset(userId);
    expect(started.statusCode, started.body).toBe(201);
    const reset = started.json();
    expect(reset).toEqual({
      object: 'passkey_reset',
      id: expect.stringMatching(/^pkr_/),
      user_id: userId,
      status: 'pending',
      channel: null,
      url: expect.stringMatching(RESET_URL),
      expires_at: new Date(f.t.clock.now() + 30 * 60_000).toISOString(),
      completed_at: null,
      test_mode: true,
    });
    const token = (reset.url as string).split('/').at(-1) as string;
    expect((await resetRow(reset.id)).token_digest).toBe(digest(token));
    expect(JSON.stringify(await resetRow(reset.id))).not.toContain(token);

    // Opening the page (a link preview too) changes nothing; it offers the email on the account, masked.
    const browser = new Browser(new URL(reset.url).pathname);
    const before = await resetRow(reset.id);
    const shown = await browser.open();
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.body).toContain(`Send a code to ${email[0]}•••@`);
    expect(shown.body).not.toContain(email);
    expect(await resetRow(reset.id)).toEqual(before);

    const sent = await browser.submit('code', { channel: 'email' });
    expect(sent.statusCode, sent.body).toBe(303);
    const code = await lastCodeTo(email);
    expect(code).toBe('111111');
    const wrong = await browser.submit('verify', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('This code is not right');
    const right = await browser.submit('verify', { code });
    expect(right.statusCode, right.body).toBe(303);
    expect((await browser.open()).body).toContain('id="create-passkey"');

    const fresh = new SoftAuthenticator(f.t.ctx.config.baseUrl);
    const created = await browser.createPasskey(fresh);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ next: new URL(reset.url).pathname });
    expect((await browser.open()).body).toContain('Your old passkeys no longer work');

    // Only the new passkey remains; the reset says so; one event.
    expect((await passkeysOf(userId)).map((k) => k.credential_id)).toEqual([fresh.id]);
    const read = await f.t.call('GET', `/api/v2/passkey_resets/${reset.id}`, { token: f.sandbox });
    expect(read.json()).toEqual({
      ...reset,
      url: undefined,
      status: 'completed',
      channel: 'email',
      completed_at: new Date(f.t.clock.now()).toISOString(),
    });
    expect((await f.events('passkey.reset')).filter((e) => e.user_id === userId)).toEqual([
      {
        id: reset.id,
        user_id: userId,
        channel: 'email',
        passkeys_removed: 1,
        completed_at: new Date(f.t.clock.now()).toISOString(),
      },
    ]);

    // The waiting purchase: the old passkey is refused, the new one approves it.
    const refused = await decide(f, paused.approval_url as string, old.authenticator, 'approve');
    expectError(refused, 400, 'passkey_invalid');
    const approved = await decide(f, paused.approval_url as string, fresh, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('approved');
    // The vault session unlocked with the old passkey is locked again.
    expect((await page(f, old.path)).body).toContain('Unlock with your passkey');

    // The link is spent: the ceremony again is 409, the page says it is done.
    expectError(await browser.createPasskey(new SoftAuthenticator(f.t.ctx.config.baseUrl)), 409, 'link_used');
    expect((await passkeysOf(userId)).map((k) => k.credential_id)).toEqual([fresh.id]);
  });

  it('the code binds the reset to the browser that entered it; five wrong codes lock the link', async () => {
    const email = uniqueEmail('lost');
    const { userId } = await connectUser(f.t, f.sandbox, { email });
    const reset = (await startReset(userId)).json();
    const path = new URL(reset.url).pathname;
    const mine = new Browser(path);
    const theirs = new Browser(path);
    const html = (await mine.open()).body;
    expect((await mine.submit('code', { channel: 'email' }, html)).statusCode).toBe(303);
    // A form of my page posted from another browser (without my cookie) is refused.
    await theirs.open();
    const forged = await theirs.submit('verify', { code: '111111' }, (await mine.open()).body);
    expect(forged.statusCode).toBe(403);
    expect((await resetRow(reset.id)).status).toBe('pending');
    expect((await mine.submit('verify', { code: '111111' })).statusCode).toBe(303);
    // The other browser sees where to continue, and cannot create the passkey.
    expect((await theirs.open()).body).toContain('Continue on the other device');
    expectError(
      await theirs.createPasskey(new SoftAuthenticator(f.t.ctx.config.baseUrl)),
      403,
      'passkey_required',
    );
    expect(await passkeysOf(userId)).toEqual([]);

    const locked = (await startReset(userId)).json();
    const browser = new Browser(new URL(locked.url).pathname);
    expect((await browser.submit('code', { channel: 'email' })).statusCode).toBe(303);
    const beforeLock = (await browser.open()).body;
    for (let i = 1; i <= 4; i++)
      expect((await browser.submit('verify', { code: `00000${i}` })).statusCode).toBe(400);
    const fifth = await browser.submit('verify', { code: '000005' });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.body).toContain('Too many wrong codes');
    expect((await browser.open()).body).toContain('no longer works');
    expect((await resetRow(locked.id)).status).toBe('locked');
    // A form of the page from before does nothing on the locked link: 409, and the page says why.
    const late = await browser.submit('code', { channel: 'email' }, beforeLock);
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('no longer works');
    expect(
      (await f.t.call('GET', `/api/v2/passkey_resets/${locked.id}`, { token: f.sandbox })).json().status,
    ).toBe('locked');
    // The earlier reset was canceled by this newer one.
    expect((await resetRow(reset.id)).status).toBe('canceled');
  });

  it('a phone gets its code by SMS; codes are rate limited; the link expires after 30 minutes', async () => {
    const phone = `+1415555${String(Date.now()).slice(-4)}`;
    const { userId } = await connectUser(f.t, f.sandbox, { phone });
    const reset = (await startReset(userId)).json();
    const browser = new Browser(new URL(reset.url).pathname);
    const shown = (await browser.open()).body;
    expect(shown).toContain(`Send a code to •••• ${phone.slice(-4)}`);
    expect(shown).not.toContain('id="send-email"');
    expect((await browser.submit('code', { channel: 'phone' })).statusCode).toBe(303);
    const sms = (await f.t.ctx.notifications.sentMessages(1000)).filter(
      (m) => m.channel === 'sms' && m.recipient === phone && m.body.includes('reset your passkey'),
    );
    expect(sms).toHaveLength(1);
    // A contact the account does not have is not offered, nor taken.
    expect((await browser.submit('code', { channel: 'email' })).statusCode).toBe(400);
    // Again at once: wait; after the cooldown, a new code; five in all.
    const again = await browser.submit('code', { channel: 'phone' });
    expect(again.statusCode).toBe(429);
    expect(again.body).toContain('Wait 30 seconds');
    for (let sent = 2; sent <= 5; sent++) {
      f.t.clock.advance(30_000);
      expect((await browser.submit('code', { channel: 'phone' })).statusCode).toBe(303);
    }
    f.t.clock.advance(30_000);
    expect((await browser.submit('code', { channel: 'phone' })).body).toContain('Too many codes');
    expect((await resetRow(reset.id)).codes_sent).toBe(5);

    f.t.clock.advance(30 * 60_000);
    const expired = await browser.open();
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('This link has expired');
    // A form of the page from before sends nothing: 410.
    expect((await browser.submit('code', { channel: 'phone' }, shown)).statusCode).toBe(410);
    // Nor does its passkey ceremony start.
    expectError(
      await browser.createPasskey(new SoftAuthenticator(f.t.ctx.config.baseUrl)),
      410,
      'link_expired',
    );
    expect(
      (await f.t.call('GET', `/api/v2/passkey_resets/${reset.id}`, { token: f.sandbox })).json().status,
    ).toBe('expired');
  });

  it('a code the SMS service refused: the page answers 502 and asks for a code again', async () => {
    const sms = await startFakeSms();
    const app = await startTestApp({
      SMS_API_URL: sms.url,
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
      SMS_ACCOUNT_SID: 'AC_test_sid',
      SMS_AUTH_TOKEN: 'sms-auth-token',
      SMS_FROM: '+15005550006',
      SANDBOX_REAL_DELIVERY: 'true',
    });
    try {
      const org = await app.createOrg();
      const sandbox = await app.platformToken(org.sandbox);
      const { userId } = await connectUser(app, sandbox, { phone: '+14155550199' });
      const started = await app.call('POST', `/api/v2/users/${userId}/passkeys/reset`, {
        token: sandbox,
        body: {},
      });
      const browser = new Browser(new URL(started.json().url).pathname, app);
      sms.respondWith(500);
      const refused = await browser.submit('code', { channel: 'phone' });
      expect(refused.statusCode).toBe(502);
      expect(refused.body).toContain('The code could not be sent');
      // The page asks for a code again: none is waiting to be entered.
      const again = (await browser.open()).body;
      expect(again).toContain('First, prove it is you');
      expect(again).not.toContain('id="code-form"');
    } finally {
      await app.close();
      await sms.close();
    }
  });

  it('the API: 404 for a user of another organization or mode, 422 without contact, 401 without a token, Idempotency-Key', async () => {
    const { userId } = await connectUser(f.t, f.sandbox, { email: uniqueEmail('lost') });
    expectError(await startReset('usr_doesnotexist000000000'), 404, 'not_found');
    expectError(await startReset(userId, f.production), 404, 'not_found');
    const other = await f.t.createOrg('Other');
    expectError(await startReset(userId, await f.t.platformToken(other.sandbox)), 404, 'not_found');
    expectError(
      await f.t.call('POST', `/api/v2/users/${userId}/passkeys/reset`, { body: {} }),
      401,
      'unauthorized',
    );
    const reset = (await startReset(userId)).json();
    expectError(
      await f.t.call('GET', `/api/v2/passkey_resets/${reset.id}`, { token: f.production }),
      404,
      'not_found',
    );
    const headers = { 'idempotency-key': `reset-${userId}` };
    const first = await startReset(userId, f.sandbox, headers);
    const second = await startReset(userId, f.sandbox, headers);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(
      await f.t.ctx.db.selectFrom('passkey_resets').select('id').where('user_id', '=', userId).execute(),
    ).toHaveLength(2);
    await f.t.ctx.db
      .updateTable('users')
      .set({ email: null, phone: null })
      .where('id', '=', userId)
      .execute();
    expectError(await startReset(userId), 422, 'contact_missing');
    const unknown = await f.t.request({ method: 'GET', url: '/passkeys/reset/pkrt_nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(f.t.logs.text).not.toContain((reset.url as string).split('/').at(-1));
  });
});
