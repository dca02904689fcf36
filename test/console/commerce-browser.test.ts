import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeReader } from '../../src/domains/kyc/reader/index.ts';
import { type CardsFixture, startCards } from '../cards/helpers.ts';
import { freePort, launchChromium } from '../helpers/browser.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { driveTo, newUser } from '../kyc/api/helpers.ts';
import { activate, createMandate } from '../mandates/helpers.ts';
import { consoleBrowser } from './browser-steps.ts';

/**
 * The console pages of issues 28 and 29 in Chromium, at desktop and phone width: a user's mandates,
 * orders and an order's receipt, merchants, the KYC review queue (a verdict given in the page) and
 * connected apps; the copy buttons copy (screenshots: ./browser-steps.ts).
 */

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
    const steps = consoleBrowser(f.t, browser, base);
    const { email, context, page, outside, problems } = await steps.memberPage(
      f.org.organization_id,
      'owner',
    );
    try {
      await steps.signIn(page, email);
      const scope = `${base}/dashboard/${f.org.organization_id}`;

      await page.goto(`${scope}/sandbox/users/${userId}`);
      await expect.poll(() => page.locator('#mandates tr').count()).toBe(3);
      await steps.shoot(page, 'user-mandates');

      await page.goto(`${scope}/sandbox/orders`);
      await expect.poll(() => page.locator('#orders tr').count()).toBe(2);
      await steps.shoot(page, 'orders');
      await page.click(`a[href$="/orders/${orderId}"]`);
      await page.waitForSelector('#receipt-jws');
      await page.click(`button[data-copy="${orderId}"]`);
      await expect.poll(() => page.locator(`button[data-copy="${orderId}"]`).textContent()).toBe('Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(orderId);
      await steps.shoot(page, 'order-receipt');

      await page.goto(`${scope}/sandbox/merchants`);
      await page.waitForSelector('#merchants');
      await steps.shoot(page, 'merchants');

      await page.goto(`${scope}/sandbox/apps`);
      await page.waitForSelector('#grants');
      await steps.shoot(page, 'apps');

      await page.goto(`${scope}/production/kyc`);
      await page.waitForSelector('section.verification');
      await steps.shoot(page, 'kyc');
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
