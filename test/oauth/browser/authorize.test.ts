import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, picture } from '../../helpers/browser.ts';
import { callbackServer, createClient, type OAuthServer, startOAuthServer, uniqueEmail } from '../helpers.ts';

/**
 * The authorization in a real browser: Debian's Chromium driven by playwright-core signs in with the
 * sandbox code, approves, and lands on the client's redirect URI with code, state and iss. Chromium
 * applies CSP `form-action` to the redirects that follow a form submission, so this is the test
 * that the consent page's CSP lets its 303 to the client through.
 */
describe('authorization in Chromium', () => {
  let s: OAuthServer;
  let browser: Browser;
  let app: Awaited<ReturnType<typeof callbackServer>>;
  const shots = process.env.OAUTH_SCREENSHOTS ?? join(tmpdir(), 'purser-oauth-screens');

  beforeAll(async () => {
    s = await startOAuthServer();
    app = await callbackServer();
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    app?.server.close();
    await s?.close();
  });

  it('signs in, approves and reaches the redirect with code, state and iss', async () => {
    const client = await createClient(s, { type: 'public', redirectUri: app.url, name: 'Acme Assistant' });
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
      scope: 'purser:tools',
      state,
    }).toString();

    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused/.test(message.text())) violations.push(message.text());
    });
    await page.goto(url.toString());
    await page.waitForSelector('#sign-in');
    await picture(page, join(shots, 'sign-in.png'));
    await page.fill('#destination', uniqueEmail('chromium'));
    await page.click('#send-code');
    await page.waitForSelector('#enter-code');
    await page.fill('#code', '111111');
    await page.click('#verify-code');
    await page.waitForSelector('#consent');
    await picture(page, join(shots, 'consent.png'));
    await Promise.all([
      page.waitForURL((target) => target.toString().startsWith(app.url)),
      page.click('#approve'),
    ]);
    await page.waitForSelector('#back');

    expect(violations).toEqual([]);
    // The browser also asks the app for /favicon.ico.
    const callbacks = app.hits.filter((hit) => hit.pathname === '/callback');
    expect(callbacks).toHaveLength(1);
    const callback = callbacks[0]!;
    expect(callback.searchParams.get('code')).toMatch(/^oac_/);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(s.issuer);
    await page.close();
  }, 60_000);
});
