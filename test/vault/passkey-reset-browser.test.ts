import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPlatformAuthenticator, freePort, launchChromium, picture } from '../helpers/browser.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { vaultPath } from './helpers.ts';

/**
 * Passkey recovery in Chromium at a phone's viewport, with the DevTools protocol's virtual
 * authenticators as the user's phones: a passkey made on one phone, the phone lost (its authenticator
 * removed), the approval page saying so in plain words, the reset (a code to the email, a new passkey
 * on the new phone), and the payment approved with the new passkey. With VAULT_SCREENSHOTS=docs the
 * screenshots refresh the ones in docs/vault.md.
 */
const IMAGES =
  process.env.VAULT_SCREENSHOTS === 'docs'
    ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'purser-reset-screens-'));
const PHONE = { width: 390, height: 844 };
// WebAuthn needs a domain (never an IP address) in a secure context: localhost is one.
const port = await freePort();
const f = usePurchases({ BASE_URL: `http://localhost:${port}` });

describe('passkey recovery in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;

  /** A phone's platform authenticator. */
  const newPhone = () => addPlatformAuthenticator(cdp);

  beforeAll(async () => {
    await f.t.app.listen({ port, host: 'localhost' });
    browser = await launchChromium();
    mkdirSync(IMAGES, { recursive: true });
    context = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  const origin = `http://localhost:${port}`;

  it('a lost passkey: plain words on the approval page, a reset by email code, the payment approved with the new passkey', async () => {
    const { token, userId } = await f.shopper(0);
    const user = await f.t.ctx.connect.findUser(f.org.organization_id, false, userId);
    const email = user!.email as string;
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) outside.push(request.url());
    });

    // The first phone: a passkey and a card.
    const lostPhone = await newPhone();
    await page.goto(`${origin}${await vaultPath(f, userId)}`);
    await page.locator('#create-passkey').tap();
    await page.waitForURL(/done=passkey/);
    await page.locator('#number').fill('4242 4242 4242 4242');
    await page.locator('#expiry').fill('12/34');
    await page.locator('#cvc').fill('123');
    await page.locator('#save-card').tap();
    await page.waitForURL(/done=card/);

    // The phone is lost; a new one has no passkey for this account.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: lostPhone });
    const newPhoneId = await newPhone();
    const ask = await f.turn(token, { ask: '2 lattes and a croissant from coffee' });
    const paused = await f.turn(token, {
      confirm: ask.cart!.hash,
      conversation_id: ask.conversation_id,
      payment_source: 'vault',
    });
    expect(paused.decline_code).toBe('vault_approval_required');
    await page.goto(paused.approval_url as string);
    await page.locator('#approve').tap();
    const problem = page.locator('#passkey-error');
    await problem.waitFor({ state: 'visible' });
    const said = (await problem.textContent()) ?? '';
    // Plain words, and what to do: never the browser's raw message.
    expect(said).toContain('ask the app to reset it');
    expect(said).not.toMatch(
      /NotAllowedError|DOMException|timed out or was not allowed|privacy-considerations/,
    );
    await picture(page, join(IMAGES, 'approval-passkey-lost.png'));

    // The platform starts a reset; the user proves their email and creates a new passkey.
    const started = await f.t.call('POST', `/api/v2/users/${userId}/passkeys/reset`, {
      token: f.sandbox,
      body: {},
    });
    expect(started.statusCode, started.body).toBe(201);
    await page.goto(started.json().url as string);
    await picture(page, join(IMAGES, 'passkey-reset-code.png'));
    await page.locator('#send-email').tap();
    await page.waitForURL(/done=sent/);
    const message = (await f.t.ctx.notifications.sentMessages(1000)).find(
      (m) => m.recipient === email && m.body.includes('reset your passkey'),
    );
    const code = /\b(\d{6})\b/.exec(message!.body)![1]!;
    await page.locator('#code').fill(code);
    await page.locator('#check-code').tap();
    await page.waitForURL(/done=verified/);
    await picture(page, join(IMAGES, 'passkey-reset-create.png'));
    await page.locator('#create-passkey').tap();
    await page.locator('#reset-done').waitFor();
    expect(await page.locator('#reset-done').textContent()).toContain('Your old passkeys no longer work');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: newPhoneId });
    const stored = await f.t.ctx.db
      .selectFrom('vault_passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(stored.map((k) => k.credential_id)).toEqual(
      credentials.map((c) => Buffer.from(c.credentialId, 'base64').toString('base64url')),
    );

    // The waiting payment, approved with the new passkey: placed once.
    await page.goto(paused.approval_url as string);
    await page.locator('#approve').tap();
    await page.waitForSelector('#approval[data-state="approved"]');
    const orders = await f.t.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('conversation_id', '=', ask.conversation_id)
      .execute();
    expect(orders.map((o) => o.status)).toEqual(['confirmed']);
    expect((await f.events('passkey.reset')).filter((e) => e.user_id === userId)).toHaveLength(1);
    expect(outside).toEqual([]);
  }, 90_000);
});
