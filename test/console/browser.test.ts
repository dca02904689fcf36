import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, SECOND } from '../../src/core/clock.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { Receiver } from '../events/receiver.ts';
import { freePort, launchChromium, picture } from '../helpers/browser.ts';
import { approvedUser, type OrgApp, quiet, startOrgApp } from '../helpers/fixtures.ts';
import { CONSOLE_IMAGES, consoleBrowser } from './browser-steps.ts';

/**
 * The console in Chromium, as the issue walks it: sign in by email code, create a webhook
 * destination, receive a test event on a local receiver, roll its secret, see the delivery, rotate
 * the API key and see the old one refused; then the read pages, the overview and the API request
 * log. With CONSOLE_SCREENSHOTS=docs the screenshots refresh those in docs/console.md.
 */
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
  let steps: ReturnType<typeof consoleBrowser>;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    await startOrgApp(
      {
        env: {
          BASE_URL: base,
          WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
          // A delivery fails after two attempts a second apart (the overview counts failures).
          WEBHOOK_RETRY_SCHEDULE: '1',
          WEBHOOK_RETRY_JITTER_PERCENT: '0',
        },
        name: 'Acme Platform',
      },
      f,
    );
    await f.t.app.listen({ port, host: '127.0.0.1' });
    receiver = await Receiver.start();
    worker = new Worker(f.t.ctx, quiet);
    browser = await launchChromium();
    steps = consoleBrowser(f.t, browser, base);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    // The second walk moves money: the ledger's invariants hold after it.
    if (f.t) expect(await f.t.ctx.ledger.verify()).toEqual([]);
    await f.close?.();
  });

  it('sign in, a destination that receives a test event, its secret rolled, the API key rotated', async () => {
    const { email, context, page, outside } = await steps.memberPage(f.org.organization_id, 'owner');
    try {
      await steps.signIn(page, email);
      // The session cookie as the issue asks: HttpOnly; Secure; SameSite=Lax (loopback keeps Secure ones).
      const session = (await context.cookies()).find((c) => c.name === 'purser_member');
      expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
      expect(await page.textContent('header')).toContain('Acme Platform');
      await picture(page, join(CONSOLE_IMAGES, 'console-credentials.png'));

      // A destination on the local receiver, subscribed to card.created.
      await page.click('text=Webhooks');
      await page.fill('#f_url', receiver.url);
      await page.check('input[value="card.created"]');
      await page.click('#create-endpoint');
      const firstSecret = (await page.textContent('#secret'))!.trim();
      expect(firstSecret).toMatch(/^whsec_/);
      await picture(page, join(CONSOLE_IMAGES, 'console-webhooks.png'));

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
      await picture(page, join(CONSOLE_IMAGES, 'console-endpoint.png'));

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
      await picture(page, join(CONSOLE_IMAGES, 'console-audit-phone.png'));
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
    const { email, context, page, outside } = await steps.memberPage(f.org.organization_id, 'developer');
    try {
      await steps.signIn(page, email);

      // Events: filtered by type with the picker, then one event's JSON.
      await page.click('header >> text=Events');
      await page.selectOption('select[name="type"]', 'transaction.authorized');
      await Promise.all([page.waitForURL(/type=transaction.authorized/), page.click('text=Filter')]);
      expect(await page.locator('#events tr').count()).toBe(2);
      await steps.shoot(page, 'events');
      await page.click('#events a');
      expect(await page.textContent('#event-json')).toContain('Blue Bottle Coffee');

      // Users: the list, then the user with their wallet, card and transaction.
      await page.click('header >> text=Users');
      expect(await page.textContent('#users')).toContain(`•${card.last4}`);
      await steps.shoot(page, 'users');
      await page.click(`a[href$="/users/${user}"]`);
      expect(await page.textContent('#kyc-status')).toContain('approved');
      expect(await page.textContent('#wallet-balance')).toBe('$85.00');
      expect(await page.textContent('main')).toContain('Blue Bottle Coffee');
      await steps.shoot(page, 'user');

      await page.click('header >> text=Cards');
      expect(await page.textContent('#transactions')).toContain('$12.99');
      await steps.shoot(page, 'cards');

      await page.click('header >> text=Company wallet');
      expect(await page.getAttribute('#flows code', 'title')).toBe(flow.transfer_id);
      await steps.shoot(page, 'wallet');

      // Settings: an embed origin saved by a developer, and audited.
      await page.click('header >> text=Settings');
      await page.fill('#f_origins', 'https://app.acme.example');
      await page.click('text=Save origins');
      expect(await page.textContent('.notice')).toContain('Embed origins saved.');
      expect(
        await f.t.ctx.orgs.embedOrigins({ organizationId: f.org.organization_id, livemode: false }),
      ).toEqual(['https://app.acme.example']);
      await steps.shoot(page, 'settings');
      await page.click('header >> text=Audit log');
      expect(await page.textContent('#audit')).toContain('embed_origins.replaced');
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('the overview draws a week of transactions and deliveries; the request log shows and filters the mode’s requests', async () => {
    // A week of its own organization, from noon tomorrow (the clock only moves forward): per day
    // the transactions authorized and the test deliveries that
    // succeeded or spent their two attempts; one more declined on the last day.
    const week = [
      { txns: 2, ok: 1, failed: 0 },
      { txns: 0, ok: 2, failed: 1 },
      { txns: 3, ok: 3, failed: 0 },
      { txns: 1, ok: 0, failed: 1 },
      { txns: 4, ok: 2, failed: 0 },
      { txns: 0, ok: 0, failed: 0 },
      { txns: 2, ok: 3, failed: 1 },
    ];
    const first = Math.floor(f.t.clock.now() / DAY) + 1;
    f.t.clock.set(first * DAY + 12 * HOUR);
    const org = await f.t.createOrg('Overview Co');
    const scope = { organizationId: org.organization_id, livemode: false };
    let token = await f.t.platformToken(org.sandbox);
    const call = (method: string, url: string, body?: Record<string, unknown>) =>
      f.t.call(method, url, { token, body });
    const user = await approvedUser(f.t, token, { fund: 20_000, prefix: 'grace' });
    const card = (
      await call('POST', '/api/v2/cards', { user_id: user, amount_cents: 10_000, type: 'multi_use' })
    ).json();
    const endpoint = await f.t.ctx.events.createEndpoint(scope, {
      url: receiver.url,
      enabled_events: ['order.updated'],
    });
    const authorize = async (amount: number) =>
      (
        await call('POST', '/api/v2/simulate/authorize', {
          card_id: card.id,
          amount_cents: amount,
          merchant: 'Corner Shop',
        })
      ).json();
    const deliver = async (status: number, attempts: number) => {
      receiver.answer = () => ({ status });
      await f.t.ctx.events.sendTestEvent(scope, endpoint.id, undefined);
      for (let attempt = 0; attempt < attempts; attempt++) {
        await worker.runOnce();
        f.t.clock.advance(SECOND);
      }
    };
    for (const [i, day] of week.entries()) {
      if (i > 0) {
        f.t.clock.set((first + i) * DAY + 12 * HOUR);
        token = await f.t.platformToken(org.sandbox);
      }
      for (let n = 0; n < day.txns; n++) expect((await authorize(500 + 100 * n)).status).toBe('PENDING');
      for (let n = 0; n < day.ok; n++) await deliver(200, 1);
      for (let n = 0; n < day.failed; n++) await deliver(500, 2);
    }
    expect((await authorize(50_000)).status).toBe('DECLINED');
    receiver.answer = () => ({ status: 200, body: 'ok' });
    const missing = await call('GET', '/api/v2/cards/card_missing');
    expect(missing.statusCode).toBe(404);

    const { email, context, page, outside, problems } = await steps.memberPage(org.organization_id, 'viewer');
    try {
      await steps.signIn(page, email);
      await Promise.all([page.waitForURL(/\/overview$/), page.click('header a[href$="/sandbox/overview"]')]);
      // The figures: today first, 30 days, the week as it happened and nothing before it.
      const rows = await page.$$eval('#overview tr', (trs) =>
        trs.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      expect(rows).toHaveLength(30);
      const date = (i: number) => new Date((first + i) * DAY).toISOString().slice(0, 10);
      const expected = week.map((day, i) => {
        const txns = day.txns + (i === 6 ? 1 : 0);
        const rate =
          day.ok + day.failed === 0 ? '—' : `${Math.round((100 * day.ok) / (day.ok + day.failed))} %`;
        return [date(i), String(txns), i === 6 ? '1' : '0', String(day.ok), String(day.failed), rate];
      });
      expect(rows.slice(0, 7)).toEqual(expected.reverse());
      for (const row of rows.slice(7)) expect(row.slice(1)).toEqual(['0', '0', '0', '0', '—']);
      expect(await page.textContent('#transactions-total')).toBe('13');
      expect(await page.textContent('#webhook-rate')).toBe(`${((100 * 11) / 14).toFixed(1)} %`);
      // The charts are SVG drawn by the server: a bar for each day with something to show, titled
      // with its figure, what went through in blue under what did not in red; the busiest day's bar is
      // the tallest.
      const bars = (chart: string) =>
        page.$$eval(`#chart-${chart} g`, (groups) =>
          groups.map((g) => {
            const rects = [...g.querySelectorAll('rect')];
            return {
              title: g.querySelector('title')?.textContent,
              fills: rects.map((r) => r.getAttribute('fill')),
              height: rects.reduce((sum, r) => sum + Number(r.getAttribute('height')), 0),
            };
          }),
        );
      const [BLUE, RED] = ['#1f4fd1', '#d4453a'];
      const transactions = await bars('transactions');
      expect(transactions.map((b) => [b.title, b.fills])).toEqual([
        [`${date(0)}: 2`, [BLUE]],
        [`${date(2)}: 3`, [BLUE]],
        [`${date(3)}: 1`, [BLUE]],
        [`${date(4)}: 4`, [BLUE]],
        [`${date(6)}: 3, 1 declined`, [BLUE, RED]],
      ]);
      const heights = transactions.map((b) => b.height);
      expect(heights.indexOf(Math.max(...heights))).toBe(3);
      expect(heights.filter((h) => h === Math.max(...heights))).toHaveLength(1);
      expect((await bars('webhooks')).map((b) => [b.title, b.fills])).toEqual([
        [`${date(0)}: 100 %`, [BLUE]],
        [`${date(1)}: 67 %`, [BLUE, RED]],
        [`${date(2)}: 100 %`, [BLUE]],
        [`${date(3)}: 0 %`, [RED]],
        [`${date(4)}: 100 %`, [BLUE]],
        [`${date(6)}: 75 %`, [BLUE, RED]],
      ]);
      expect(await page.locator('script').count()).toBe(0);
      await steps.shoot(page, 'overview');

      // The request log: the newest request first, with its credential, status and request id.
      await Promise.all([page.waitForURL(/\/requests$/), page.click('header a[href$="/sandbox/requests"]')]);
      const logged = () =>
        page.$$eval('#requests tr', (trs) =>
          trs.slice(1).map((tr) => {
            const cells = [...tr.querySelectorAll('td')];
            return {
              credential: cells[1]?.querySelector('code')?.title,
              method: cells[2]?.textContent,
              path: cells[3]?.textContent,
              status: cells[4]?.textContent,
              requestId: cells[6]?.querySelector('code')?.title,
            };
          }),
        );
      const all = await logged();
      expect(all[0]).toEqual({
        credential: org.sandbox.client_id,
        method: 'GET',
        path: '/api/v2/cards/card_missing',
        status: '404',
        requestId: missing.headers['x-request-id'],
      });
      expect(new Set(all.map((r) => r.credential))).toEqual(new Set([org.sandbox.client_id]));
      await steps.shoot(page, 'requests');
      // Filtered in the page: by status class, then by path prefix.
      await page.selectOption('select[name="status"]', '4xx');
      await Promise.all([page.waitForURL(/status=4xx/), page.click('text=Filter')]);
      expect((await logged()).map((r) => `${r.status} ${r.path}`)).toEqual([
        '404 /api/v2/cards/card_missing',
      ]);
      await page.selectOption('select[name="status"]', '');
      await page.fill('input[name="path"]', '/api/v2/simulate/authorize');
      await Promise.all([page.waitForURL(/path=/), page.click('text=Filter')]);
      const authorizations = await logged();
      expect(authorizations).toHaveLength(13);
      expect(new Set(authorizations.map((r) => `${r.method} ${r.status}`))).toEqual(new Set(['POST 200']));
      // Never a secret.
      const html = await page.content();
      for (const secret of [token, org.sandbox.client_secret]) expect(html).not.toContain(secret);
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
