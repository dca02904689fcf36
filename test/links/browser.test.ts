import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsFixture, startCards } from '../cards/helpers.ts';
import { freePort, launchChromium, picture } from '../helpers/browser.ts';
import { walletLink } from './helpers.ts';

/**
 * The hosted wallet page in a real browser (Debian's Chromium through playwright-core) at a phone's
 * viewport: add test funds, see the new balance, approve a payment. With WALLET_SCREENSHOTS=docs its
 * screenshots refresh the ones in docs/wallet-links.md.
 */
/** Where the screenshots go: docs/images when WALLET_SCREENSHOTS=docs (to refresh the docs), else a temporary folder. */
const IMAGES =
  process.env.WALLET_SCREENSHOTS === 'docs'
    ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'purser-wallet-screens-'));
/** An iPhone 13-sized viewport. */
const PHONE = { width: 390, height: 844 };

describe('hosted wallet page in Chromium', () => {
  const f = {} as CardsFixture;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    await startCards({ BASE_URL: `http://127.0.0.1:${port}` }, f);
    await f.t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
    mkdirSync(IMAGES, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await f.expectSound?.();
    await f.close?.();
  });

  it('on a phone: the wallet, add test funds, the new balance', async () => {
    const w = await walletLink(f, { fund: 2500 });
    const card = await f.createCard(w.userId, 1500, 'multi_use');
    await f.authorize(card.id as string, 899, 'Corner Café');
    const context = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(new URL(w.url).origin)) outside.push(request.url());
    });
    try {
      await page.goto(w.url);
      expect(await page.locator('#balance').textContent()).toBe('$10.00');
      expect(await page.locator('#cards').textContent()).toContain(`•••• ${card.last4 as string}`);
      expect(await page.locator('#transactions').textContent()).toContain('Corner Café');
      expect(await page.locator('#no-deposit-address').isVisible()).toBe(true);
      // Fits the phone: nothing wider than the viewport.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        PHONE.width,
      );

      await page.locator('#add-test-funds').tap();
      await page.waitForURL(/done=funded/);
      expect(await page.locator('#notice').textContent()).toBe(
        '$50.00 in test funds were added to your wallet.',
      );
      expect(await page.locator('#balance').textContent()).toBe('$60.00');
      expect(await f.wallet(w.userId)).toBe(6000);
      await picture(page, join(IMAGES, 'wallet-page.png'));

      // Reloading the page after the post is a GET: it adds nothing.
      await page.reload();
      expect(await page.locator('#balance').textContent()).toBe('$60.00');
      expect(await f.wallet(w.userId)).toBe(6000);
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('on a phone: a payment approval, approved', async () => {
    const w = await walletLink(f, { fund: 5000 });
    const context = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    try {
      await page.goto(`${w.url}?merchant=${encodeURIComponent('Books & Co')}&amount=2450`);
      expect(await page.locator('#approval-amount').textContent()).toBe('$24.50');
      await picture(page, join(IMAGES, 'wallet-approval.png'));
      await page.locator('#approve').tap();
      await page.waitForURL(/done=approved/);
      expect(await page.locator('#approval-decision').textContent()).toBe('You approved this payment.');
      expect(await page.locator('#approve').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('an expired link in the browser: a clear page, no stack trace', async () => {
    const w = await walletLink(f, { expiresIn: 60 });
    f.t.clock.advance(61_000);
    const page = await browser.newPage({ viewport: PHONE });
    try {
      const response = await page.goto(w.url);
      expect(response?.status()).toBe(410);
      expect(await page.locator('h1').textContent()).toBe('This link has expired');
    } finally {
      await page.close();
    }
  });
});
