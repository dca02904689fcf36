import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceWithAuthenticator,
  launchChromium,
  PHONE,
  picture,
  screenshotDir,
} from '../helpers/browser.ts';
import {
  callbackServer,
  createClient,
  type OAuthServer,
  SANDBOX_CODE,
  startOAuthServer,
  uniqueEmail,
} from '../oauth/helpers.ts';

/**
 * A spending mandate asked for during OAuth, in Chromium (docs/oauth-mcp.md "Spending mandates"):
 * an app authorizes with `purser:spend` and a `mandate` parameter; the user signs in with the
 * one-time code, reads the terms on the consent page, creates their first passkey there (a DevTools
 * virtual authenticator), and one passkey assertion approves the grant and the mandate. The token
 * the code is exchanged for carries `purser:spend`; the mandate is active for that app and user.
 * At a desktop's width and a phone's; with MANDATE_SCREENSHOTS=docs the screenshots refresh those
 * of docs/images (docs/mandates.md shows them).
 */
const IMAGES = screenshotDir('MANDATE_SCREENSHOTS');

let s: OAuthServer;
let browser: Browser;
let app: Awaited<ReturnType<typeof callbackServer>>;

beforeAll(async () => {
  // WebAuthn needs a domain (never an IP address) in a secure context: localhost is one.
  s = await startOAuthServer({ host: 'localhost' });
  app = await callbackServer();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  app?.server.close();
  await s?.close();
});

const terms = () => ({
  description: 'Weekly groceries from the corner shop',
  currency: 'usd',
  max_amount_cents: 15_000,
  budget: { amount_cents: 40_000, interval: 'monthly' },
  allowed_categories: ['5411'],
  expires_at: new Date(s.t.clock.now() + 90 * 86_400_000).toISOString(),
});

describe('the OAuth consent page with a mandate in Chromium', () => {
  for (const phone of [false, true]) {
    const width = phone ? 'phone' : 'desktop';
    it(`${width}: shows the terms, makes a first passkey, and one assertion approves the grant and the mandate`, async () => {
      const client = await createClient(s, { type: 'public', redirectUri: app.url, name: 'Grocer bot' });
      const verifier = randomBytes(32).toString('base64url');
      const state = randomBytes(8).toString('hex');
      const url = new URL(`${s.issuer}/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: app.url,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        resource: s.resource,
        scope: 'purser:tools purser:spend',
        state,
        mandate: JSON.stringify(terms()),
      }).toString();

      const { context, page } = await deviceWithAuthenticator(browser, phone);
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused/.test(message.text())) refused.push(message.text());
      });
      const click = (selector: string) => (phone ? page.locator(selector).tap() : page.click(selector));
      await page.goto(url.toString());
      await page.fill('#destination', uniqueEmail(`consent-${width}`));
      await click('#send-code');
      await page.waitForSelector('#enter-code');
      await page.fill('#code', SANDBOX_CODE);
      await click('#verify-code');
      await page.waitForSelector('#consent');

      // The terms in plain words, and no passkey yet: create one first.
      const body = (await page.locator('body').textContent()) ?? '';
      expect(body).toContain('Weekly groceries from the corner shop');
      expect(body).toContain('up to $150.00');
      expect(body).toContain('$400.00 each calendar month (UTC)');
      await page.locator('#create-passkey').waitFor();
      await picture(page, join(IMAGES, `mandate-consent-first-passkey-${width}.png`));
      await click('#create-passkey');
      const approve = page.locator('#approve[data-passkey="approve"]');
      await approve.waitFor();
      const hash = await approve.getAttribute('data-terms-hash');
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      await picture(page, join(IMAGES, `mandate-consent-${width}.png`));
      if (phone)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );

      // One assertion: the grant's code at the app, and the mandate active.
      await Promise.all([
        page.waitForURL((target) => target.toString().startsWith(app.url)),
        click('#approve'),
      ]);
      await page.waitForSelector('#back');
      const callback = app.hits.filter((hit) => hit.pathname === '/callback').at(-1)!;
      expect(callback.searchParams.get('state')).toBe(state);
      const code = callback.searchParams.get('code');
      expect(code).toMatch(/^oac_/);
      expect(refused).toEqual([]);

      const token = await fetch(`${s.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: code!,
          redirect_uri: app.url,
          client_id: client.client_id,
          code_verifier: verifier,
          resource: s.resource,
        }),
      });
      expect(token.status).toBe(200);
      expect(((await token.json()).scope as string).split(' ')).toContain('purser:spend');

      const mandates = await s.t.ctx.db
        .selectFrom('mandates')
        .selectAll()
        .where('client_id', '=', client.client_id)
        .execute();
      expect(mandates).toEqual([expect.objectContaining({ status: 'active', terms_hash: hash })]);
      const kept = JSON.parse(mandates[0]!.approval as string);
      const bound = createHash('sha256').update(`purser-mandate:${mandates[0]!.id}:${hash}`).digest();
      expect(Buffer.from(kept.challenge, 'base64url').subarray(0, 32).equals(bound)).toBe(true);
      await context.close();
    }, 90_000);
  }
});
