import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addPlatformAuthenticator,
  deviceWithAuthenticator,
  freePort,
  launchChromium,
  PHONE,
  picture,
  screenshotDir,
} from '../helpers/browser.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { vaultPath } from '../vault/helpers.ts';
import { createMandate } from './helpers.ts';

/**
 * The mandate approval page in Chromium, the DevTools protocol's virtual authenticators as the
 * user's devices: approved with a passkey at a desktop's width, a first passkey made after a code at
 * a phone's, a missing passkey told in plain words. With MANDATE_SCREENSHOTS=docs the screenshots
 * refresh the ones in docs/images (docs/mandates.md shows them).
 */
const IMAGES = screenshotDir('MANDATE_SCREENSHOTS');
// WebAuthn needs a domain (never an IP address) in a secure context: localhost is one.
const port = await freePort();
const f = usePurchases({ BASE_URL: `http://localhost:${port}` });
const origin = `http://localhost:${port}`;

describe('the mandate approval page in Chromium', () => {
  let browser: Browser;

  const status = async (id: string) =>
    (await f.t.call('GET', `/api/v2/mandates/${id}`, { token: f.sandbox })).json().status;

  beforeAll(async () => {
    await f.t.app.listen({ port, host: 'localhost' });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('desktop: the terms, approved with the passkey; a device without it told in plain words', async () => {
    const { context, page, cdp, authenticatorId } = await deviceWithAuthenticator(browser, false);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) outside.push(request.url());
    });
    const userId = await f.connectedUser();
    await page.goto(`${origin}${await vaultPath(f, userId)}`);
    await page.locator('#create-passkey').click();
    await page.waitForURL(/done=passkey/);

    const mandate = await createMandate(f, userId, {
      description: 'Weekly groceries',
      max_amount_cents: 15_000,
      budget: { amount_cents: 40_000, interval: 'monthly' },
      allowed_categories: ['5411'],
    });
    await page.goto(mandate.approval_url as string);
    expect(await page.locator('#term-max').textContent()).toContain('up to $150.00');
    expect(await page.locator('#term-budget').textContent()).toContain('$400.00 each calendar month');
    await picture(page, join(IMAGES, 'mandate-approval-desktop.png'));
    await page.locator('#approve').click();
    await page.waitForURL(/done=approved/);
    expect(await page.locator('#mandate-decision').textContent()).toContain('You approved these terms');
    expect(await status(mandate.id)).toBe('active');

    // Another device with no passkey for this account: plain words, never the browser's message.
    const second = await createMandate(f, userId);
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await addPlatformAuthenticator(cdp);
    await page.goto(second.approval_url as string);
    await page.locator('#approve').click();
    const problem = page.locator('#passkey-error');
    await problem.waitFor({ state: 'visible' });
    const said = (await problem.textContent()) ?? '';
    expect(said).toContain('this device has no passkey for this account');
    expect(said).not.toMatch(/NotAllowedError|DOMException|privacy-considerations/);
    await picture(page, join(IMAGES, 'mandate-approval-no-passkey-here.png'));
    expect(await status(second.id)).toBe('pending_approval');
    expect(outside).toEqual([]);
    await context.close();
  }, 90_000);

  it('phone: a user with no passkey proves their email, creates one, and approves', async () => {
    const { context, page } = await deviceWithAuthenticator(browser, true);
    const email = uniqueEmail('phone');
    const { userId } = await connectUser(f.t, f.sandbox, { email });
    const mandate = await createMandate(f, userId, { allowed_merchants: ['coffee', 'grocer'] });
    await page.goto(mandate.approval_url as string);
    await picture(page, join(IMAGES, 'mandate-approval-phone-first-passkey.png'));
    await page.locator('#send-email').tap();
    await page.waitForURL(/done=sent/);
    const message = (await f.t.ctx.notifications.sentMessages(1000)).find(
      (m) => m.recipient === email && m.body.includes('spending mandate'),
    );
    const code = /\b(\d{6})\b/.exec(message!.body)![1]!;
    await page.locator('#code').fill(code);
    await page.locator('#check-code').tap();
    await page.waitForURL(/done=verified/);
    await page.locator('#create-passkey').tap();
    await page.waitForURL(/done=passkey/);
    await picture(page, join(IMAGES, 'mandate-approval-phone.png'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.locator('#approve').tap();
    await page.waitForURL(/done=approved/);
    expect(await status(mandate.id)).toBe('active');
    await context.close();
  }, 90_000);
});
