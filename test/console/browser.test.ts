import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '../../src/jobs/worker.ts';
import { Receiver } from '../events/receiver.ts';
import { freePort, launchChromium } from '../helpers/browser.ts';
import { approvedUser, type OrgApp, quiet, startOrgApp, uniqueEmail } from '../helpers/fixtures.ts';

/**
 * The console in Chromium, as the issue walks it: sign in by email code, create a webhook
 * destination, receive a test event on a local receiver, roll its secret, see the delivery, rotate
 * the API key and see the old one refused. With CONSOLE_SCREENSHOTS=docs the screenshots refresh
 * those in docs/console.md.
 */
const IMAGES =
  process.env.CONSOLE_SCREENSHOTS === 'docs'
    ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'purser-console-screens-'));

const signature = (secret: string, header: string, body: string) => {
  const [t, v1] = header.split(',').map((part) => part.split('=')[1]);
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex') === v1;
};

describe('the console in Chromium', () => {
  const f = {} as OrgApp;
  let browser: Browser;
  let receiver: Receiver;
  let worker: Worker;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startOrgApp(
      { env: { BASE_URL: base, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' }, name: 'Acme Platform' },
      f,
    );
    await f.t.app.listen({ port, host: '127.0.0.1' });
    receiver = await Receiver.start();
    worker = new Worker(f.t.ctx, quiet);
    browser = await launchChromium();
    mkdirSync(IMAGES, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    // The second walk moves money: the ledger's invariants hold after it.
    if (f.t) expect(await f.t.ctx.ledger.verify()).toEqual([]);
    await f.close?.();
  });

  async function signIn(page: Page, email: string) {
    await page.goto(`${base}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.fill('#f_email', email);
    await page.click('button[type="submit"]');
    await page.waitForSelector('#f_code');
    const message = (await f.t.ctx.notifications.outbox(1000)).find((m) => m.recipient === email);
    const code = /\b(\d{6})\b/.exec(message?.body ?? '')![1]!;
    await page.fill('#f_code', code);
    await Promise.all([page.waitForURL(/\/credentials$/), page.click('button[type="submit"]')]);
  }

  /** Screenshots of the page at desktop and phone widths: `console-{name}.png`, `console-{name}-phone.png`. */
  async function shoot(page: Page, name: string) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(IMAGES, `console-${name}.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(IMAGES, `console-${name}-phone.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /**
   * A new member with `role` and a browser page for them, with every request the page makes outside
   * Purser collected in `outside` (the console loads no third-party resource).
   */
  async function memberPage(role: 'owner' | 'developer') {
    const email = uniqueEmail(role);
    await f.t.ctx.members.add(f.org.organization_id, email, role);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) outside.push(request.url());
    });
    return { email, context, page, outside };
  }

  it('sign in, a destination that receives a test event, its secret rolled, the API key rotated', async () => {
    const { email, context, page, outside } = await memberPage('owner');
    try {
      await signIn(page, email);
      // The session cookie as the issue asks: HttpOnly; Secure; SameSite=Lax (loopback keeps Secure ones).
      const session = (await context.cookies()).find((c) => c.name === 'purser_member');
      expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
      expect(await page.textContent('header')).toContain('Acme Platform');
      await page.screenshot({ path: join(IMAGES, 'console-credentials.png'), fullPage: true });

      // A destination on the local receiver, subscribed to card.created.
      await page.click('text=Webhooks');
      await page.fill('#f_url', receiver.url);
      await page.check('input[value="card.created"]');
      await page.click('#create-endpoint');
      const firstSecret = (await page.textContent('#secret'))!.trim();
      expect(firstSecret).toMatch(/^whsec_/);
      await page.screenshot({ path: join(IMAGES, 'console-webhooks.png'), fullPage: true });

      // A test event, delivered by the worker and signed with that secret.
      await page.click('table a');
      await page.click('#test');
      await worker.runOnce();
      expect(receiver.received).toHaveLength(1);
      const first = receiver.received[0]!;
      expect(signature(firstSecret, first.headers['service-signature'] as string, first.body)).toBe(true);
      await page.reload();
      expect(await page.textContent('#deliveries')).toContain('succeeded');
      expect(await page.textContent('#deliveries')).toContain('webhook_endpoint.test');

      // Rolled: the next delivery is signed with the new secret only.
      await page.click('#roll');
      const secondSecret = (await page.textContent('#secret'))!.trim();
      expect(secondSecret).not.toBe(firstSecret);
      await page.click('#test');
      await worker.runOnce();
      const second = receiver.received[1]!;
      expect(signature(secondSecret, second.headers['service-signature'] as string, second.body)).toBe(true);
      expect(signature(firstSecret, second.headers['service-signature'] as string, second.body)).toBe(false);
      await page.screenshot({ path: join(IMAGES, 'console-endpoint.png'), fullPage: true });

      // The API key rotated: the old one is refused at once, the new one works.
      const oldKey = f.org.sandbox.api_key;
      const v1 = (key: string) =>
        f.t.call('GET', '/api/v1/cardholders/ch_none', { headers: { authorization: `Bearer ${key}` } });
      expect((await v1(oldKey)).statusCode).toBe(404);
      await page.click('text=Credentials');
      await page.click('form:has(input[value="rotate_key"]) button');
      const newKey = (await page.textContent('#secret'))!.trim();
      expect(newKey).toMatch(/^sk_test_/);
      expect((await v1(oldKey)).statusCode).toBe(401);
      expect((await v1(newKey)).statusCode).toBe(404);

      // Every action is in the audit log.
      await page.click('text=Audit log');
      const audit = await page.textContent('#audit');
      for (const action of [
        'webhook_endpoint.created',
        'webhook_endpoint.test_sent',
        'webhook_endpoint.secret_rolled',
        'api_key.rotated',
      ])
        expect(audit).toContain(action);
      expect(audit).toContain(email);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(IMAGES, 'console-audit-phone.png'), fullPage: true });
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('events, users, cards, the company wallet and settings: read, filtered, and an origin saved', async () => {
    const call = (method: string, url: string, body: Record<string, unknown>) =>
      f.t.call(method, url, { token: f.sandbox, body });
    const user = await approvedUser(f.t, f.sandbox, { fund: 12_500, prefix: 'ada' });
    const card = (
      await call('POST', '/api/v2/cards', { user_id: user, amount_cents: 4000, type: 'multi_use' })
    ).json();
    f.t.clock.advance(1);
    expect(
      (
        await call('POST', '/api/v2/simulate/authorize', {
          card_id: card.id,
          amount_cents: 1299,
          merchant: 'Blue Bottle Coffee',
          mcc: '5814',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', '/api/v2/simulate/company_funding', { amount_cents: 250_000 })).statusCode,
    ).toBe(200);
    f.t.clock.advance(1);
    const flow = (
      await call('POST', '/api/v2/cards', {
        user_id: user,
        amount_cents: 5000,
        type: 'multi_use',
        funding: 'company',
      })
    ).json();
    const { email, context, page, outside } = await memberPage('developer');
    try {
      await signIn(page, email);

      // Events: filtered by type with the picker, then one event's JSON.
      await page.click('header >> text=Events');
      await page.selectOption('select[name="type"]', 'transaction.authorized');
      await Promise.all([page.waitForURL(/type=transaction.authorized/), page.click('text=Filter')]);
      expect(await page.locator('#events tr').count()).toBe(2);
      await shoot(page, 'events');
      await page.click('#events a');
      expect(await page.textContent('#event-json')).toContain('Blue Bottle Coffee');

      // Users: the list, then the user with their wallet, card and transaction.
      await page.click('header >> text=Users');
      expect(await page.textContent('#users')).toContain(`•${card.last4}`);
      await shoot(page, 'users');
      await page.click(`a[href$="/users/${user}"]`);
      expect(await page.textContent('#kyc-status')).toContain('approved');
      expect(await page.textContent('#wallet-balance')).toBe('$85.00');
      expect(await page.textContent('main')).toContain('Blue Bottle Coffee');
      await shoot(page, 'user');

      await page.click('header >> text=Cards');
      expect(await page.textContent('#transactions')).toContain('$12.99');
      await shoot(page, 'cards');

      await page.click('header >> text=Company wallet');
      expect(await page.getAttribute('#flows code', 'title')).toBe(flow.transfer_id);
      await shoot(page, 'wallet');

      // Settings: an embed origin saved by a developer, and audited.
      await page.click('header >> text=Settings');
      await page.fill('#f_origins', 'https://app.acme.example');
      await page.click('text=Save origins');
      expect(await page.textContent('.notice')).toContain('Embed origins saved.');
      expect(
        await f.t.ctx.orgs.embedOrigins({ organizationId: f.org.organization_id, livemode: false }),
      ).toEqual(['https://app.acme.example']);
      await shoot(page, 'settings');
      await page.click('header >> text=Audit log');
      expect(await page.textContent('#audit')).toContain('embed_origins.replaced');
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
