import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPlatformAuthenticator, freePort, launchChromium, picture } from '../helpers/browser.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { vaultPath } from './helpers.ts';

/**
 * The hosted vault and the approval page in Chromium at a phone's viewport, with the DevTools
 * protocol's virtual authenticator standing in for the phone's passkey: create a passkey, add a
 * card, approve a payment (placed once), decline one (nothing charged), replay an assertion
 * (refused). With VAULT_SCREENSHOTS=docs the screenshots refresh the ones in docs/vault.md.
 */
const IMAGES =
  process.env.VAULT_SCREENSHOTS === 'docs'
    ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'purser-vault-screens-'));
const PHONE = { width: 390, height: 844 };
// WebAuthn needs a domain (never an IP address) in a secure context: localhost is one.
const port = await freePort();
const f = usePurchases({ BASE_URL: `http://localhost:${port}` });

describe('hosted vault and approvals in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

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
    // The phone's platform authenticator: user verification always succeeds, presence is simulated.
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await addPlatformAuthenticator(cdp);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  const origin = `http://localhost:${port}`;
  const orders = (conversationId: string) =>
    f.t.ctx.db.selectFrom('orders').selectAll().where('conversation_id', '=', conversationId).execute();

  it('creates a passkey, adds a card, approves a payment once, declines another, refuses a replay', async () => {
    const { token, userId } = await f.shopper(0);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) outside.push(request.url());
    });

    // The vault: a passkey first, then the card.
    const vault = `${origin}${await vaultPath(f, userId)}`;
    await page.goto(vault);
    expect(await page.locator('#cards-locked').isVisible()).toBe(true);
    await picture(page, join(IMAGES, 'vault-passkey.png'));
    await page.locator('#create-passkey').tap();
    await page.waitForURL(/done=passkey/);
    expect(await page.locator('#notice').textContent()).toBe('Your passkey is ready.');
    await page.locator('#number').fill('4242 4242 4242 4242');
    await page.locator('#expiry').fill('12/34');
    await page.locator('#cvc').fill('123');
    await page.locator('#save-card').tap();
    await page.waitForURL(/done=card/);
    expect(await page.locator('#cards li').textContent()).toContain('Visa •••• 4242');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await picture(page, join(IMAGES, 'vault-page.png'));

    // A confirm from the vault pauses; the user approves on the page with the passkey.
    const ask = await f.turn(token, { ask: '2 lattes and a croissant from coffee' });
    const paused = await f.turn(token, {
      confirm: ask.cart!.hash,
      conversation_id: ask.conversation_id,
      payment_source: 'vault',
    });
    expect(paused.decline_code).toBe('vault_approval_required');
    let captured: string | null = null;
    await page.route('**/webauthn/verify', async (route) => {
      captured = route.request().postData();
      await route.continue();
    });
    await page.goto(paused.approval_url as string);
    expect(await page.locator('#approval-merchant').textContent()).toBe('Sandbox Coffee');
    expect(await page.locator('#approval-total').textContent()).toBe('$15.24');
    expect(await page.locator('#paying-with').textContent()).toContain('Visa •••• 4242');
    await picture(page, join(IMAGES, 'approval-page.png'));
    await page.locator('#approve').tap();
    await page.waitForSelector('#approval[data-state="approved"]');
    expect(await page.locator('#approval-decision').textContent()).toContain('You approved this payment');
    const placed = await orders(ask.conversation_id);
    expect(placed).toHaveLength(1);
    expect(placed[0]?.status).toBe('confirmed');
    await page.unroute('**/webauthn/verify');

    // The captured assertion, sent again: refused, and still one order.
    expect(captured).not.toBeNull();
    const replay = await page.request.post(`${paused.approval_url as string}/webauthn/verify`, {
      headers: { 'content-type': 'application/json' },
      data: captured as unknown as string,
    });
    expect(replay.status()).toBe(400);
    expect((await replay.json()).error.code).toBe('passkey_invalid');
    await page.reload();
    expect(await page.locator('#approval').getAttribute('data-state')).toBe('approved');
    expect(await orders(ask.conversation_id)).toHaveLength(1);

    // Another confirm, declined: nothing charged, no order.
    const again = await f.turn(token, { ask: 'a latte from coffee' });
    const second = await f.turn(token, {
      confirm: again.cart!.hash,
      conversation_id: again.conversation_id,
      payment_source: 'vault',
    });
    await page.goto(second.approval_url as string);
    await page.locator('#decline').tap();
    await page.waitForSelector('#approval[data-state="declined"]');
    expect(await orders(again.conversation_id)).toEqual([]);
    expect(await f.wallet(userId)).toBe(0);
    expect(outside).toEqual([]);
  }, 60_000);
});
