import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeReader } from '../../../src/domains/kyc/reader/index.ts';
import { freePort, launchChromium } from '../../helpers/browser.ts';
import type { TestApp } from '../../helpers/harness.ts';
import { driveTo, expectState, getState, type KycUser, newUser, startKycApp } from '../api/helpers.ts';

/**
 * The hosted verification page in a real browser: Debian's Chromium driven by playwright-core, with
 * a fake camera. A parent page on an allowed (loopback) origin frames the iframe_url; a parent on
 * another origin (127.0.0.2, not in frame-ancestors) cannot.
 */
/** A platform's page that embeds the hosted page, as the spec asks: allow camera and microphone. */
async function parentServer(host: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    const escaped = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><body><h1>Platform</h1><iframe id="kyc" src="${escaped}" allow="camera; microphone" width="600" height="900"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

describe('hosted verification page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let allowed: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  let u: KycUser;

  beforeAll(async () => {
    const port = await freePort();
    t = await startKycApp({ BASE_URL: `http://127.0.0.1:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    allowed = await parentServer('127.0.0.1');
    // Any 127.0.0.0/8 address is loopback on Linux: a second origin that is not in frame-ancestors.
    other = await parentServer('127.0.0.2');
    browser = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
    const org = await t.createOrg();
    u = await newUser(t, await t.platformToken(org.sandbox));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    allowed?.server.close();
    other?.server.close();
    await t?.close();
    await closeReader();
  });

  it('framed by an allowed origin: confirm the prefilled fields, scan the face, and the state moves to pending', async () => {
    const state = await driveTo(t, u, 'requires_verification');
    const page = await browser.newPage();
    try {
      await page.goto(`${allowed.origin}/?src=${encodeURIComponent(state.iframe_url as string)}`);
      const frame = page.frameLocator('#kyc');
      await expect
        .poll(() => frame.locator('#f_last_name').inputValue(), { timeout: 15_000 })
        .toBe('TREMBLAY');
      expect(await frame.locator('#f_first_name').inputValue()).toBe('ALEX');
      expect(await frame.locator('#f_address_postal_code').inputValue()).toBe('M5H 2N2');
      // Confirm with a correction, as a user would.
      await frame.locator('#f_first_name').fill('Alex');
      await frame.locator('#scan').click();
      await expect
        .poll(() => frame.locator('#scan-status').textContent(), { timeout: 20_000 })
        .toBe('Face scan complete.');
      await frame.locator('#finish').click();
      await expect
        .poll(
          async () =>
            (await frame.locator('#done').isVisible())
              ? 'done'
              : await frame.locator('#form-error').textContent(),
          {
            timeout: 15_000,
          },
        )
        .toBe('done');
    } finally {
      await page.close();
    }
    expectState(await getState(t, u), 'pending');
    const [item] = await t.ctx.db
      .selectFrom('kyc_verifications')
      .select(['id', 'information', 'face_scan_at'])
      .where('user_id', '=', u.userId)
      .execute();
    // Personal data is sealed at rest: not readable in the row, readable with the key.
    expect(item?.information).not.toContain('Alex');
    const information = t.ctx.sealer.open(
      item?.information as string,
      `kyc_verifications.information:${item?.id}`,
    );
    expect(JSON.parse(information).first_name).toBe('Alex');
    expect(item?.face_scan_at).not.toBeNull();
  }, 90_000);

  it('an origin outside frame-ancestors cannot frame the page', async () => {
    const v = await newUser(t, u.token);
    const link = expectState(await getState(t, v), 'awaiting_documents').iframe_url as string;
    const page = await browser.newPage();
    try {
      await page.goto(`${other.origin}/?src=${encodeURIComponent(link)}`);
      await page.waitForTimeout(1500);
      const child = page.frames().find((f) => f !== page.mainFrame());
      expect(child).toBeDefined();
      // Chromium replaces a refused frame with its error page: the hosted page never renders.
      expect(await child!.locator('#kyc').count()).toBe(0);
      // The same parent page on an allowed origin renders it.
      const fresh = expectState(await getState(t, v), 'awaiting_documents').iframe_url as string;
      await page.goto(`${allowed.origin}/?src=${encodeURIComponent(fresh)}`);
      await expect.poll(() => page.frameLocator('#kyc').locator('#kyc').count(), { timeout: 15_000 }).toBe(1);
    } finally {
      await page.close();
    }
  }, 60_000);
});
