import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeReader } from '../../src/domains/kyc/reader/index.ts';
import { type CardsFixture, startCards } from '../cards/helpers.ts';
import { freePort, launchChromium } from '../helpers/browser.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { driveTo, newUser } from '../kyc/api/helpers.ts';
import { activate, createMandate } from '../mandates/helpers.ts';

/**
 * The console pages of issues 28 and 29 in Chromium, at desktop and phone width: a user's mandates,
 * orders and an order's receipt, merchants, the KYC review queue (a verdict given in the page) and
 * connected apps; the copy buttons copy. With CONSOLE_SCREENSHOTS=docs the screenshots go to
 * docs/images (docs/console.md).
 */
const IMAGES =
  process.env.CONSOLE_SCREENSHOTS === 'docs'
    ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'purser-console-commerce-'));

describe('the console’s commerce pages in Chromium', () => {
  const f = {} as CardsFixture;
  let browser: Browser;
  let base: string;
  let userId: string;
  let orderId: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startCards({ BASE_URL: base }, f);
    await f.t.app.listen({ port, host: '127.0.0.1' });
    const buyer = await connectUser(f.t, f.sandbox, { email: uniqueEmail('grace') });
    userId = buyer.userId;
    await f.fund(userId, 5_000);
    const buy = async (body: Record<string, unknown>) =>
      (await f.t.call('POST', '/buy', { token: buyer.accessToken, body })).json();
    // An order placed under the mandate: the purchase path signs its receipt.
    const mandate = await createMandate(f, userId, {
      description: 'Coffee for the team',
      allowed_merchants: ['coffee'],
      budget: { amount_cents: 6_000, interval: 'weekly' },
    });
    await activate(f, mandate);
    await createMandate(f, userId, { description: 'Office supplies', max_amount_cents: 2_500 });
    const asked = await buy({ ask: 'a latte from coffee' });
    const placed = await buy({ conversation_id: asked.conversation_id, confirm: asked.carts[0].hash });
    expect(placed.status, placed.reply).toBe('order_placed');
    orderId = placed.order_id;
    await driveTo(f.t, await newUser(f.t, f.production, { production: true }), 'pending');
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await closeReader();
    await f.close?.();
  });

  it('opens each page at desktop and phone width, copies an id, and gives a KYC verdict', async () => {
    const email = uniqueEmail('owner');
    await f.t.ctx.members.add(f.org.organization_id, email, 'owner');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const outside: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) outside.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    try {
      await page.goto(`${base}/dashboard`);
      await page.fill('#f_email', email);
      await page.click('button[type="submit"]');
      await page.waitForSelector('#f_code');
      const message = (await f.t.ctx.notifications.outbox(1000)).find((m) => m.recipient === email);
      await page.fill('#f_code', /\b(\d{6})\b/.exec(message?.body ?? '')![1]!);
      await Promise.all([page.waitForURL(/\/credentials$/), page.click('button[type="submit"]')]);
      const scope = `${base}/dashboard/${f.org.organization_id}`;

      const shoot = async (name: string) => {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: join(IMAGES, `console-${name}.png`), fullPage: true });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.screenshot({ path: join(IMAGES, `console-${name}-phone.png`), fullPage: true });
        // Nothing wider than the phone's screen but the tables' own scrolling sections.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(overflow, name).toBeLessThanOrEqual(390);
        await page.setViewportSize({ width: 1280, height: 900 });
      };

      await page.goto(`${scope}/sandbox/users/${userId}`);
      await expect.poll(() => page.locator('#mandates tr').count()).toBe(3);
      await shoot('user-mandates');

      await page.goto(`${scope}/sandbox/orders`);
      await expect.poll(() => page.locator('#orders tr').count()).toBe(2);
      await shoot('orders');
      await page.click(`a[href$="/orders/${orderId}"]`);
      await page.waitForSelector('#receipt-jws');
      await page.click(`button[data-copy="${orderId}"]`);
      await expect.poll(() => page.locator(`button[data-copy="${orderId}"]`).textContent()).toBe('Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(orderId);
      await shoot('order-receipt');

      await page.goto(`${scope}/sandbox/merchants`);
      await page.waitForSelector('#merchants');
      await shoot('merchants');

      await page.goto(`${scope}/sandbox/apps`);
      await page.waitForSelector('#grants');
      await shoot('apps');

      await page.goto(`${scope}/production/kyc`);
      await page.waitForSelector('section.verification');
      await shoot('kyc');
      await Promise.all([
        page.waitForURL(/done=kyc_approved/),
        page.click('section.verification button:text("Approve")'),
      ]);
      expect(await page.textContent('.notice')).toContain('Verification approved.');
      expect(await page.textContent('#queue-empty')).toContain('No verification is waiting');

      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
