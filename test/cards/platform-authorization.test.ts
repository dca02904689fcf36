import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CardsFixture, expectError, startCards } from './helpers.ts';

/*
 * Real-time authorization by the platform (issue 27; docs/cards.md "Real-time authorization"): a
 * charge the engine would approve is POSTed, signed, to the platform's endpoint — here a real local
 * HTTP server — which approves or declines it; no answer in time, or a bad one, decides as
 * `on_timeout` says. Timeouts are tested with a server that never answers and a small timeout.
 */

type Json = Record<string, unknown>;

/** What the platform does with one request: answer (status, body), or never. */
type Verdict = { status?: number; body: unknown } | 'hang';

/** The platform's server: records each request, then answers as `decide` says (which may act first). */
class Platform {
  readonly received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  decide: (request: Json) => Promise<Verdict> | Verdict = () => ({ body: { approved: true } });
  private server!: http.Server;

  static async start(): Promise<Platform> {
    const platform = new Platform();
    platform.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        platform.received.push({ headers: req.headers, body });
        const verdict = await platform.decide(JSON.parse(body));
        if (verdict === 'hang') return;
        const text = typeof verdict.body === 'string' ? verdict.body : JSON.stringify(verdict.body);
        res.writeHead(verdict.status ?? 200, { 'content-type': 'application/json' }).end(text);
      });
    });
    await new Promise<void>((resolve) => platform.server.listen(0, '127.0.0.1', resolve));
    return platform;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/authorize`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const f = {} as CardsFixture;
let platform: Platform;
let secret: string;

beforeAll(async () => {
  platform = await Platform.start();
  await startCards({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' }, f);
});
afterAll(async () => {
  await f.expectSound();
  await f.close();
  await platform.close();
});

const call = (
  method: 'GET' | 'PUT' | 'DELETE' | 'POST' | 'PATCH',
  url: string,
  body?: unknown,
  token = f.sandbox,
) => f.t.call(method, url, { token, ...(body === undefined ? {} : { body }) });

async function setEndpoint(settings: Json = {}) {
  const response = await call('PUT', '/api/v2/authorization_endpoint', { url: platform.url, ...settings });
  expect([200, 201], response.body).toContain(response.statusCode);
  return response;
}

async function charge(cardId: string, amount: number, extra: Json = {}): Promise<Json> {
  const response = await call('POST', '/api/v2/simulate/authorize', {
    card_id: cardId,
    amount_cents: amount,
    merchant: 'Corner Shop',
    mcc: '5411',
    merchant_country: 'US',
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function newCard(amount = 5_000): Promise<Json> {
  return f.createCard(await f.approvedUser(amount), amount);
}

async function balance(cardId: string): Promise<number> {
  return (await call('GET', `/api/v2/cards/${cardId}`)).json().balance_cents;
}

describe('the endpoint', () => {
  it('PUT creates it with its signing secret (201, shown once); GET and a second PUT never show it; DELETE removes it', async () => {
    const created = await call('PUT', '/api/v2/authorization_endpoint', { url: platform.url });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      object: 'authorization_endpoint',
      url: platform.url,
      timeout_ms: 1500,
      on_timeout: 'decline',
      livemode: false,
      secret: expect.stringMatching(/^whsec_/),
    });
    secret = created.json().secret;
    const read = await call('GET', '/api/v2/authorization_endpoint');
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('secret');
    const changed = await call('PUT', '/api/v2/authorization_endpoint', {
      url: platform.url,
      timeout_ms: 100,
      on_timeout: 'approve',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ timeout_ms: 100, on_timeout: 'approve' });
    expect(changed.json()).not.toHaveProperty('secret');
    // Per mode: production has none.
    expectError(
      await call('GET', '/api/v2/authorization_endpoint', undefined, f.production),
      404,
      'not_found',
    );
    const deleted = await call('DELETE', '/api/v2/authorization_endpoint');
    expect(deleted.json()).toEqual({ object: 'authorization_endpoint', deleted: true });
    expectError(await call('GET', '/api/v2/authorization_endpoint'), 404, 'not_found');
    expectError(await call('DELETE', '/api/v2/authorization_endpoint'), 404, 'not_found');
  });

  it('refuses bad settings naming the field, and plain http in production; nothing is set', async () => {
    const cases: [Json, string, string?][] = [
      [{ url: 'ftp://platform.example/x' }, 'url'],
      [{ url: platform.url, timeout_ms: 99 }, 'timeout_ms'],
      [{ url: platform.url, timeout_ms: 2001 }, 'timeout_ms'],
      [{ url: platform.url, on_timeout: 'maybe' }, 'on_timeout'],
      [{ url: 'http://platform.example/x' }, 'url', f.production],
      [{ url: 'https://169.254.169.254/latest' }, 'url', f.production],
    ];
    for (const [body, field, token] of cases) {
      const response = await call('PUT', '/api/v2/authorization_endpoint', body, token ?? f.sandbox);
      expect(
        Object.keys(expectError(response, 400, 'invalid_request').field_errors).join(),
        JSON.stringify(body),
      ).toContain(field);
    }
    expectError(await call('GET', '/api/v2/authorization_endpoint'), 404, 'not_found');
    expectError(
      await call('GET', '/api/v2/authorization_endpoint', undefined, f.production),
      404,
      'not_found',
    );
  });
});

describe('deciding charges', () => {
  beforeAll(async () => {
    const created = await setEndpoint();
    secret = created.json().secret;
  });
  beforeEach(async () => {
    platform.decide = () => ({ body: { approved: true } });
    await setEndpoint({ timeout_ms: 1500, on_timeout: 'decline' });
  });

  it('an approval is asked of the platform, signed like a webhook, and decided by it', async () => {
    const card = await newCard();
    const before = platform.received.length;
    const txn = await charge(card.id as string, 1_200);
    expect(txn).toMatchObject({
      status: 'PENDING',
      authorization_decided_by: 'platform',
      platform_reason: null,
    });
    expect(await balance(card.id as string)).toBe(3_800);
    expect(platform.received.length).toBe(before + 1);
    const { headers, body } = platform.received.at(-1)!;
    expect(JSON.parse(body)).toEqual({
      type: 'authorization.request',
      created: expect.any(Number),
      livemode: false,
      data: {
        authorization_id: txn.id,
        card_id: card.id,
        user_id: card.user_id,
        amount_cents: 1_200,
        currency: 'usd',
        merchant: 'Corner Shop',
        mcc: '5411',
        merchant_country: 'US',
        spending_controls_passed: true,
      },
    });
    const [t, v1] = String(headers['service-signature']).split(',');
    const timestamp = t!.slice('t='.length);
    expect(v1).toBe(`v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  });

  it('a decline is PLATFORM_DECLINED with its reason kept; nothing moves', async () => {
    const card = await newCard();
    platform.decide = () => ({ body: { approved: false, reason: 'outside the trip dates' } });
    const txn = await charge(card.id as string, 1_200);
    expect(txn).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'PLATFORM_DECLINED',
      authorization_decided_by: 'platform',
      platform_reason: 'outside the trip dates',
    });
    expect(await balance(card.id as string)).toBe(5_000);
    const event = (await f.events('transaction.declined')).find((e) => e.id === txn.id);
    expect(event).toMatchObject({
      decline_reason: 'PLATFORM_DECLINED',
      platform_reason: 'outside the trip dates',
    });
    platform.decide = () => ({ body: { approved: false } });
    expect(await charge(card.id as string, 100)).toMatchObject({
      decline_reason: 'PLATFORM_DECLINED',
      platform_reason: null,
    });
  });

  it('what the engine declines (status, controls, balance) is never asked', async () => {
    const card = await newCard(1_000);
    await call('PATCH', `/api/v2/cards/${card.id}`, { spending_controls: { blocked_categories: ['5812'] } });
    const before = platform.received.length;
    expect(await charge(card.id as string, 5_000)).toMatchObject({
      decline_reason: 'INSUFFICIENT_FUNDS',
      authorization_decided_by: 'engine',
    });
    expect(await charge(card.id as string, 100, { mcc: '5812' })).toMatchObject({
      decline_reason: 'CATEGORY_BLOCKED',
      authorization_decided_by: 'engine',
    });
    await call('POST', `/api/v2/cards/${card.id}/pause`);
    expect(await charge(card.id as string, 100)).toMatchObject({ decline_reason: 'CARD_PAUSED' });
    expect(platform.received.length).toBe(before);
  });

  it('no answer within timeout_ms decides as on_timeout, by "timeout"', async () => {
    const card = await newCard();
    platform.decide = () => 'hang';
    await setEndpoint({ timeout_ms: 100, on_timeout: 'decline' });
    expect(await charge(card.id as string, 500)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'PLATFORM_DECLINED',
      authorization_decided_by: 'timeout',
      platform_reason: null,
    });
    await setEndpoint({ timeout_ms: 100, on_timeout: 'approve' });
    expect(await charge(card.id as string, 500)).toMatchObject({
      status: 'PENDING',
      authorization_decided_by: 'timeout',
    });
    expect(await balance(card.id as string)).toBe(4_500);
  });

  it('a late answer is no answer: the charge was decided as on_timeout before it came', async () => {
    const card = await newCard();
    await setEndpoint({ timeout_ms: 100, on_timeout: 'decline' });
    let answered!: () => void;
    const late = new Promise<void>((resolve) => {
      answered = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    platform.decide = async () => {
      await gate;
      answered();
      return { body: { approved: true } };
    };
    expect(await charge(card.id as string, 500)).toMatchObject({
      decline_reason: 'PLATFORM_DECLINED',
      authorization_decided_by: 'timeout',
    });
    release();
    await late;
    expect(await balance(card.id as string)).toBe(5_000);
  });

  it('a bad answer (not 2xx, not JSON, not a boolean) decides as on_timeout', async () => {
    const card = await newCard();
    await setEndpoint({ timeout_ms: 1500, on_timeout: 'decline' });
    const verdicts: Verdict[] = [
      { status: 500, body: { approved: true } },
      { body: 'approved' },
      { body: { approved: 'yes' } },
      { body: [true] },
      { status: 302, body: { approved: true } },
    ];
    for (const verdict of verdicts) {
      platform.decide = () => verdict;
      expect(await charge(card.id as string, 100), JSON.stringify(verdict)).toMatchObject({
        status: 'DECLINED',
        decline_reason: 'PLATFORM_DECLINED',
        authorization_decided_by: 'timeout',
      });
    }
    expect(await balance(card.id as string)).toBe(5_000);
  });

  it('no lock is held while the platform thinks; the approval then re-checks the balance', async () => {
    const card = await newCard(1_000);
    // While it decides the first charge, a second one on the same card goes through and spends most of it.
    platform.decide = async (request) => {
      const data = request.data as Json;
      if (data.amount_cents === 800) {
        platform.decide = () => ({ body: { approved: true } });
        expect(await charge(card.id as string, 700)).toMatchObject({ status: 'PENDING' });
      }
      return { body: { approved: true } };
    };
    expect(await charge(card.id as string, 800)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'INSUFFICIENT_FUNDS',
      authorization_decided_by: 'engine',
    });
    expect(await balance(card.id as string)).toBe(300);
  });

  it('a repeated network id gets the first decision without asking again', async () => {
    const card = await newCard();
    const first = await charge(card.id as string, 400, { transaction_id: undefined });
    const before = platform.received.length;
    const again = await f.t.ctx.cards.network.authorize(
      { organizationId: f.org.organization_id, livemode: false },
      card.id as string,
      { transactionId: first.id as string, amountCents: 400, merchant: 'Corner Shop' },
    );
    expect(again).toMatchObject({ id: first.id, status: 'PENDING' });
    expect(platform.received.length).toBe(before);
  });
});
