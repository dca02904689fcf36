import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, launchChromium } from '../helpers/browser.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import { usePurchases } from '../purchases/helpers.ts';
import { vaultPath } from '../vault/helpers.ts';
import { createMandate } from './helpers.ts';

/**
 * The mandate approval page in Chromium, the DevTools protocol's virtual authenticators as the
 * user's devices: approved with a passkey at a desktop's width, a first passkey made after a code at
 * a phone's, a missing passkey told in plain words. With MANDATE_SCREENSHOTS=docs the screenshots
 * refresh the ones in docs/images.
 */
const IMAGES =
  process.env.MANDATE_SCREENSHOTS === 'docs'
    ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'purser-mandate-screens-'));
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
// WebAuthn needs a domain (never an IP address) in a secure context: localhost is one.
const port = await freePort();
const f = usePurchases({ BASE_URL: `http://localhost:${port}` });
const origin = `http://localhost:${port}`;

describe('the mandate approval page in Chromium', () => {
  let browser: Browser;

  /** A browser context at this size with its own virtual platform authenticator. */
  const device = async (
    viewport: { width: number; height: number },
    phone: boolean,
  ): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> => {
    const context = await browser.newContext({
      viewport,
      deviceScaleFactor: phone ? 2 : 1,
      isMobile: phone,
      hasTouch: phone,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { context, page, cdp, authenticatorId };
  };

  const status = async (id: string) =>
    (await f.t.call('GET', `/api/v2/mandates/${id}`, { token: f.sandbox })).json().status;

  beforeAll(async () => {
    await f.t.app.listen({ port, host: 'localhost' });
    browser = await launchChromium();
    mkdirSync(IMAGES, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('desktop: the terms, approved with the passkey; a device without it told in plain words', async () => {
    const { context, page, cdp, authenticatorId } = await device(DESKTOP, false);
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
    await page.screenshot({ path: join(IMAGES, 'mandate-approval-desktop.png'), fullPage: true });
    await page.locator('#approve').click();
    await page.waitForURL(/done=approved/);
    expect(await page.locator('#mandate-decision').textContent()).toContain('You approved these terms');
    expect(await status(mandate.id)).toBe('active');

    // Another device with no passkey for this account: plain words, never the browser's message.
    const second = await createMandate(f, userId);
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.goto(second.approval_url as string);
    await page.locator('#approve').click();
    const problem = page.locator('#passkey-error');
    await problem.waitFor({ state: 'visible' });
    const said = (await problem.textContent()) ?? '';
    expect(said).toContain('this device has no passkey for this account');
    expect(said).not.toMatch(/NotAllowedError|DOMException|privacy-considerations/);
    await page.screenshot({ path: join(IMAGES, 'mandate-approval-no-passkey-here.png'), fullPage: true });
    expect(await status(second.id)).toBe('pending_approval');
    expect(outside).toEqual([]);
    await context.close();
  }, 90_000);

  it('phone: a user with no passkey proves their email, creates one, and approves', async () => {
    const { context, page } = await device(PHONE, true);
    const email = uniqueEmail('phone');
    const { userId } = await connectUser(f.t, f.sandbox, { email });
    const mandate = await createMandate(f, userId, { allowed_merchants: ['coffee', 'grocer'] });
    await page.goto(mandate.approval_url as string);
    await page.screenshot({ path: join(IMAGES, 'mandate-approval-phone-first-passkey.png'), fullPage: true });
    await page.locator('#send-email').tap();
    await page.waitForURL(/done=sent/);
    const message = (await f.t.ctx.notifications.outbox(1000)).find(
      (m) => m.recipient === email && m.body.includes('spending mandate'),
    );
    const code = /\b(\d{6})\b/.exec(message!.body)![1]!;
    await page.locator('#code').fill(code);
    await page.locator('#check-code').tap();
    await page.waitForURL(/done=verified/);
    await page.locator('#create-passkey').tap();
    await page.waitForURL(/done=passkey/);
    await page.screenshot({ path: join(IMAGES, 'mandate-approval-phone.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.locator('#approve').tap();
    await page.waitForURL(/done=approved/);
    expect(await status(mandate.id)).toBe('active');
    await context.close();
  }, 90_000);
});
