import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { brandOf, checkCard, luhnValid } from '../../src/domains/vault/cards.ts';
import { purser } from '../cli/process.ts';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { addCard, ceremony, csrfOf, page, vaultPath, vaultUser } from './helpers.ts';

const f = usePurchases();
const NOV_2026 = Date.UTC(2026, 10, 23);

describe('card checks', () => {
  it('Luhn, brand, expiry not past, CVC length by brand', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(brandOf('5555555555554444')).toBe('mastercard');
    expect(brandOf('378282246310005')).toBe('amex');
    const ok = { number: '4242 4242 4242 4242', expiry: '11/26', cvc: '123' };
    expect(checkCard(ok, NOV_2026)).toMatchObject({ ok: true, brand: 'visa', expMonth: 11, expYear: 2026 });
    expect(checkCard({ ...ok, expiry: '10/26' }, NOV_2026)).toMatchObject({ ok: false, field: 'expiry' });
    expect(checkCard({ ...ok, expiry: '13/30' }, NOV_2026)).toMatchObject({ ok: false, field: 'expiry' });
    expect(checkCard({ ...ok, number: '4242 4242 4242 4241' }, NOV_2026)).toMatchObject({
      ok: false,
      field: 'number',
    });
    expect(checkCard({ ...ok, cvc: '12' }, NOV_2026)).toMatchObject({ ok: false, field: 'cvc' });
    expect(checkCard({ number: '378282246310005', expiry: '01/2030', cvc: '1234' }, NOV_2026)).toMatchObject({
      ok: true,
      brand: 'amex',
    });
  });
});

describe('the hosted vault page', () => {
  const tables = async () =>
    Promise.all(
      (['vault_sessions', 'vault_passkeys', 'webauthn_challenges', 'vault_cards'] as const).map((table) =>
        f.t.ctx.db.selectFrom(table).selectAll().execute(),
      ),
    );

  it('opening it writes nothing; it asks for a passkey before any card, with passkeys allowed for Purser only', async () => {
    const { userId } = await f.shopper(0);
    const path = await vaultPath(f, userId);
    const before = await tables();
    const shown = await page(f, path);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['permissions-policy']).toContain('publickey-credentials-create=(self)');
    expect(shown.headers['permissions-policy']).toContain('publickey-credentials-get=(self)');
    expect(shown.headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+' 'self'/);
    expect(shown.body).toContain('id="create-passkey"');
    expect(shown.body).toContain('A passkey is needed before you can add a card');
    expect(shown.body).toContain('src="/assets/simplewebauthn-browser.js"');
    expect(shown.body).not.toContain('id="add-card"');
    expect(await tables()).toEqual(before);

    const refused = await addCard(f, path, { number: '4242424242424242', expiry: '12/39', cvc: '123' });
    expect(refused.statusCode).toBe(403);
    expect(
      await f.t.ctx.db.selectFrom('vault_cards').selectAll().where('user_id', '=', userId).execute(),
    ).toEqual([]);

    const script = await f.t.request({ method: 'GET', url: '/assets/simplewebauthn-browser.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body).toContain('SimpleWebAuthnBrowser');
  });

  it('a passkey, then a card: shown as brand and last4 only, the number sealed at rest', async () => {
    const { userId } = await f.shopper(0);
    const { path } = await vaultUser(f, userId, false);
    const ready = await page(f, path);
    expect(ready.body).toContain('Passkey ready');
    expect(ready.body).toContain('id="add-card"');

    const bad = await addCard(f, path, { number: '4242 4242 4242 4241', expiry: '12/39', cvc: '123' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('This card number is not valid.');
    const past = await addCard(f, path, { number: '5555 5555 5555 4444', expiry: '01/20', cvc: '123' });
    expect(past.body).toContain('This card has expired.');

    const added = await addCard(f, path, { number: '5555 5555 5555 4444', expiry: '09/31', cvc: '321' });
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe(`${path}?done=card`);
    const shown = await page(f, `${path}?done=card`);
    expect(shown.body).toContain('Your card was saved.');
    expect(shown.body).toContain('Mastercard •••• 4444');
    expect(shown.body).not.toContain('5555 5555');
    const rows = await f.t.ctx.db
      .selectFrom('vault_cards')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 9, exp_year: 2031 });
    expect(JSON.stringify(rows)).not.toContain('5555555555554444');
    // The sealed text is random base64url, and the ids and the time may hold any three digits by
    // chance: the row's columns are these and no other, none of them the CVC.
    const { sealed, ...plain } = rows[0]!;
    expect(sealed).toMatch(/^v1\./);
    expect(plain).toEqual({
      id: expect.stringMatching(/^vc_/),
      organization_id: f.org.organization_id,
      livemode: expect.anything(),
      user_id: userId,
      brand: 'mastercard',
      last4: '4444',
      exp_month: 9,
      exp_year: 2031,
      created_at: expect.anything(),
    });
    expect(f.t.logs.text).not.toContain('5555555555554444');
    expect(f.t.logs.text).not.toContain('5555+5555');
  });

  it('a new session is locked until the passkey unlocks it; a second passkey needs the first', async () => {
    const { userId } = await f.shopper(0);
    const { authenticator } = await vaultUser(f, userId, false);
    const path = await vaultPath(f, userId);
    const locked = await page(f, path);
    expect(locked.body).toContain('id="unlock"');
    expect(locked.body).not.toContain('id="add-card"');

    const csrf = csrfOf(locked.body);
    const second = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf, purpose: 'register' },
    });
    expect(second.statusCode).toBe(403);
    expect(second.json().error.code).toBe('passkey_required');
    const stranger = new SoftAuthenticator(f.t.ctx.config.baseUrl);
    const wrong = await ceremony(f, path, { purpose: 'unlock' }, (o) => stranger.assert(o));
    expect(wrong.json().error.code).toBe('passkey_invalid');

    const unlocked = await ceremony(f, path, { purpose: 'unlock' }, (o) => authenticator.assert(o));
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json().next).toBe(`${path}?done=unlocked`);
    expect((await page(f, path)).body).toContain('id="add-card"');
  });

  it('refuses forged posts and expired links', async () => {
    const { userId } = await f.shopper(0);
    const path = await vaultPath(f, userId);
    const forged = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf: 'nonce.mac', purpose: 'register' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.code).toBe('csrf_invalid');
    // Another session's token does not fit this one.
    const other = await vaultPath(f, userId);
    const borrowed = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf: csrfOf((await page(f, other)).body), purpose: 'register' },
    });
    expect(borrowed.statusCode).toBe(403);
    f.t.clock.advance(15 * 60 * 1000 + 1);
    const expired = await f.t.call('POST', `${path}/webauthn/options`, {
      body: { csrf: 'x.y', purpose: 'register' },
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.code).toBe('link_expired');
  });
});

it('purser org update --approval-threshold sets and clears the threshold', { timeout: 60_000 }, async () => {
  const env = {
    DATABASE_URL: f.t.ctx.config.databaseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  };
  const on = await purser(
    ['org', 'update', f.org.organization_id, '--approval-threshold', '2500', '--json'],
    env,
  );
  expect(on.code, on.stderr).toBe(0);
  expect(JSON.parse(on.stdout).approval_threshold_cents).toBe(2500);
  expect(await f.t.ctx.vault.approvalThreshold(f.org.organization_id)).toBe(2500);
  const off = await purser(['org', 'update', f.org.organization_id, '--approval-threshold', 'off'], env);
  expect(off.code, off.stderr).toBe(0);
  expect(await f.t.ctx.vault.approvalThreshold(f.org.organization_id)).toBe(null);
  const bad = await purser(['org', 'update', f.org.organization_id, '--approval-threshold', '12.50'], env);
  expect(bad.code).not.toBe(0);
});
