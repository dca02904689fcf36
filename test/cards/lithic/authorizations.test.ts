import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { type LithicFixture, startLithic } from './helpers.ts';

let l: LithicFixture;
beforeEach(async () => {
  l = await startLithic();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await l.close();
});

/** A funded live user with a card issued through Lithic, and that card upstream. */
async function liveCard(amount = 1_000, type: 'single_use' | 'multi_use' = 'multi_use') {
  const user = await l.liveUser(amount + 1_000);
  const card = await l.issue(user, amount, type);
  return { user, card, upstream: l.fake.cardByLast4(card.last4 as string) };
}

const transactions = () => l.f.t.ctx.db.selectFrom('card_transactions').selectAll().execute();

async function authorize(pan: string, amount: number) {
  const { token } = await l.driver.transactions.simulateAuthorization({
    amount,
    descriptor: 'Corner Shop',
    pan,
    mcc: '5411',
  });
  return { token: token as string, txn: l.fake.transactions.get(token as string) };
}

describe('Auth Stream Access', () => {
  it('approves through the engine: the Lithic token is the transaction id, the hold is placed', async () => {
    const { card, upstream } = await liveCard();
    const { token, txn } = await authorize(upstream.pan, 300);
    expect(txn).toMatchObject({ status: 'PENDING', result: 'APPROVED' });
    const response = await l.f.t.call('GET', `/api/v2/transactions/${token}`, { token: l.f.production });
    expect(response.json()).toMatchObject({
      status: 'PENDING',
      amount_cents: 300,
      merchant: 'Corner Shop',
      mcc: '5411',
    });
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(700);
    // Lithic's own card_transaction.updated (still PENDING) was acknowledged and changed nothing.
    expect(l.fake.deliveries.every((d) => d.status === 200)).toBe(true);
  });

  it('answers each decline reason in Lithic vocabulary', async () => {
    const { card, upstream } = await liveCard(1_000);
    expect((await authorize(upstream.pan, 1_001)).txn?.result).toBe('INSUFFICIENT_FUNDS');
    await authorize(upstream.pan, 800);
    expect((await authorize(upstream.pan, 300)).txn?.result).toBe('INSUFFICIENT_FUNDS');
    // Paused or closed here while Lithic still asks (its own state lags or was changed there).
    await l.f.t.ctx.cards.pauseCard(
      { organizationId: l.f.org.organization_id, livemode: true },
      card.id as string,
    );
    upstream.state = 'OPEN';
    expect((await l.fake.asa(upstream.token, 100)).result).toBe('CARD_PAUSED');
    await l.f.t.call('POST', `/api/v2/cards/${card.id}/close`, { token: l.f.production });
    expect((await l.fake.asa(upstream.token, 100)).result).toBe('CARD_PAUSED');
    const reasons = (await transactions()).map((t) => t.decline_reason ?? 'approved').sort();
    expect(reasons).toEqual([
      'CARD_CLOSED',
      'CARD_PAUSED',
      'INSUFFICIENT_FUNDS',
      'INSUFFICIENT_FUNDS',
      'approved',
    ]);
    // A card we never issued, and a request that is not a charge, are declined and recorded nowhere.
    expect((await l.fake.asa(randomUUID(), 100)).result).toBe('INSUFFICIENT_FUNDS');
    const credit = await l.fake.deliver('/webhooks/lithic/asa', {
      token: randomUUID(),
      status: 'CREDIT_AUTHORIZATION',
      amount: 100,
      card: { token: upstream.token },
    });
    expect(JSON.parse(credit.body).result).not.toBe('APPROVED');
    expect(await transactions()).toHaveLength(5);
  });

  it('gives a retried request the first decision, with one hold', async () => {
    const { card, upstream } = await liveCard(1_000);
    const token = randomUUID();
    const first = await l.fake.asa(upstream.token, 600, token);
    const again = await l.fake.asa(upstream.token, 600, token);
    expect([first.result, again.result]).toEqual(['APPROVED', 'APPROVED']);
    expect(JSON.parse(again.delivery.body)).toEqual({ token, result: 'APPROVED' });
    expect(await transactions()).toHaveLength(1);
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(400);
  });

  it('declines (fails closed) when the engine fails, and records nothing', async () => {
    const { upstream } = await liveCard();
    vi.spyOn(l.f.t.ctx.cards.network, 'authorize').mockRejectedValueOnce(new Error('database unavailable'));
    const { result, delivery } = await l.fake.asa(upstream.token, 100);
    expect(delivery.status).toBe(200);
    expect(result).toBe('INSUFFICIENT_FUNDS');
    expect(await transactions()).toEqual([]);
  });

  it('declines when no decision comes within the budget, and voids an approval that lands later', async () => {
    const { card, upstream } = await liveCard(1_000);
    const network = l.f.t.ctx.cards.network;
    const real = network.authorize.bind(network);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.spyOn(network, 'authorize').mockImplementationOnce(async (...args) => {
      await gate;
      return real(...args);
    });
    const { result, token } = await l.fake.asa(upstream.token, 300);
    expect(result).toBe('INSUFFICIENT_FUNDS');
    release();
    await vi.waitFor(async () => {
      const txn = await l.f.t.call('GET', `/api/v2/transactions/${token}`, { token: l.f.production });
      expect(txn.json().status).toBe('VOIDED');
    });
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(1_000);
  });

  it('refuses unsigned, tampered, stale, future or foreign-signed requests with 401, changing nothing', async () => {
    const { upstream } = await liveCard();
    const body = JSON.stringify({
      token: randomUUID(),
      status: 'AUTHORIZATION',
      amount: 100,
      card: { token: upstream.token },
    });
    const tampered = body.replace('"amount":100', '"amount":1');
    for (const path of ['/webhooks/lithic/asa', '/webhooks/lithic/events']) {
      const secret = l.fake.secretFor(path);
      // Lithic signs each route with its own secret: the other one's signature is no signature here.
      const otherSecret = path.endsWith('/asa') ? l.fake.eventsSecret : l.fake.asaSecret;
      const signed = l.fake.sign(body, { secret });
      const cases: [string, Record<string, string>, string][] = [
        ['unsigned', { 'content-type': 'application/json' }, body],
        ['tampered body', signed, tampered],
        ['stale (6 minutes)', l.fake.sign(body, { ageSeconds: 360, secret }), body],
        ['from the future', l.fake.sign(body, { ageSeconds: -360, secret }), body],
        ["the other route's secret", l.fake.sign(body, { secret: otherSecret }), body],
        [
          'another secret',
          l.fake.sign(body, { secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` }),
          body,
        ],
        ['no signature header', { ...signed, 'webhook-signature': '' }, body],
        ['another message id', { ...signed, 'webhook-id': 'msg_other' }, body],
        ['garbage signature', { ...signed, 'webhook-signature': 'v1,AAAA v2,xyz' }, body],
      ];
      for (const [what, headers, payload] of cases) {
        const response = await fetch(`${l.fake.purserUrl}${path}`, {
          method: 'POST',
          headers,
          body: payload,
        });
        expect(response.status, `${path} ${what}`).toBe(401);
        expect((await response.json()).error.code).toBe('invalid_signature');
      }
    }
    // Within the tolerance, the same signature is accepted.
    const fresh = await fetch(`${l.fake.purserUrl}/webhooks/lithic/asa`, {
      method: 'POST',
      headers: l.fake.sign(body, { ageSeconds: 240, secret: l.fake.asaSecret }),
      body,
    });
    expect(fresh.status).toBe(200);
    expect(await transactions()).toHaveLength(1);
  });
});

describe('card_transaction.updated events', () => {
  it('clear for less (the rest released) and for more (the difference charged), once each', async () => {
    const { card, user, upstream } = await liveCard(1_000);
    const less = await authorize(upstream.pan, 400);
    await l.driver.transactions.simulateClearing({ token: less.token, amount: 350 });
    const more = await authorize(upstream.pan, 200);
    await l.driver.transactions.simulateClearing({ token: more.token, amount: 250 });
    const get = (id: string) => l.f.t.call('GET', `/api/v2/transactions/${id}`, { token: l.f.production });
    expect((await get(less.token)).json()).toMatchObject({ status: 'SETTLED', amount_cents: 350 });
    expect((await get(more.token)).json()).toMatchObject({ status: 'SETTLED', amount_cents: 250 });
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(400);
    // Lithic redelivers: nothing moves again.
    const repeat = await l.fake.deliver(
      '/webhooks/lithic/events',
      l.fake.transactionEvent(l.fake.transactions.get(less.token)!),
    );
    expect(repeat.status).toBe(200);
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(400);
    expect(await l.f.events('transaction.cleared')).toHaveLength(2);
    expect(await l.liveWallet(user)).toBe(1_000);
  });

  it('void in full and in part release the hold, once', async () => {
    const { card, upstream } = await liveCard(1_000);
    const partial = await authorize(upstream.pan, 500);
    await l.driver.transactions.simulateVoid({ token: partial.token, amount: 200 });
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(700);
    const again = await l.fake.deliver(
      '/webhooks/lithic/events',
      l.fake.transactionEvent(l.fake.transactions.get(partial.token)!),
    );
    expect(again.status).toBe(200);
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(700);
    await l.driver.transactions.simulateVoid({ token: partial.token });
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(1_000);
    const response = await l.f.t.call('GET', `/api/v2/transactions/${partial.token}`, {
      token: l.f.production,
    });
    expect(response.json()).toMatchObject({ status: 'VOIDED', authorized_cents: 500, voided_cents: 500 });
    // Each void says what it released and what stays held; the redelivery fired nothing.
    const voided = await l.f.events('transaction.voided');
    expect(voided.map((e) => [e.status, e.released_cents, e.held_cents])).toEqual([
      ['PENDING', 200, 300],
      ['VOIDED', 300, 0],
    ]);
  });

  it('acknowledges unknown event types and cards we never issued; refuses an unreadable transaction (400)', async () => {
    const { upstream } = await liveCard();
    const settled = (cardToken: string) => ({
      event_type: 'card_transaction.updated',
      token: randomUUID(),
      card_token: cardToken,
      status: 'SETTLED',
      amount: 5,
      settled_amount: 5,
      amounts: { hold: { amount: 0, currency: 'USD' }, settlement: { amount: 5, currency: 'USD' } },
      updated: new Date(l.f.t.clock.now()).toISOString(),
    });
    for (const event of [
      { event_type: 'account_holder.created', token: randomUUID() },
      settled(randomUUID()),
      { event_type: 'card.updated', card_token: upstream.token, state: 'PAUSED' },
    ]) {
      expect((await l.fake.deliver('/webhooks/lithic/events', event)).status).toBe(200);
    }
    // Money Lithic moved that we cannot read is not acknowledged: Lithic delivers it again.
    const { updated: _updated, ...undated } = settled(upstream.token);
    for (const event of [
      undated,
      { ...settled(upstream.token), status: 'REFUNDED' },
      { ...settled(upstream.token), amounts: { settlement: { amount: 'five' } } },
    ]) {
      const delivery = await l.fake.deliver('/webhooks/lithic/events', event);
      expect(delivery.status, delivery.body).toBe(400);
      expect(JSON.parse(delivery.body).error.code).toBe('invalid_request');
    }
    expect(await transactions()).toEqual([]);
  });

  it('releases an incremental authorization approved after the budget, keeping the first hold', async () => {
    const { card, upstream } = await liveCard(1_000);
    const { token } = await authorize(upstream.pan, 300);
    const network = l.f.t.ctx.cards.network;
    const real = network.authorize.bind(network);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let decided: Promise<unknown> | undefined;
    vi.spyOn(network, 'authorize').mockImplementationOnce(async (...args) => {
      await gate;
      decided = real(...args);
      return decided as ReturnType<typeof real>;
    });
    expect((await l.fake.asa(upstream.token, 500, token)).result).toBe('INSUFFICIENT_FUNDS');
    release();
    await vi.waitFor(() => expect(decided).toBeDefined());
    // The increment was held (500 in all), then released again: the first 300 stay held.
    await decided;
    await vi.waitFor(async () => {
      expect((await l.liveCard(card.id as string)).balance_cents).toBe(700);
      const txn = await l.f.t.call('GET', `/api/v2/transactions/${token}`, { token: l.f.production });
      expect(txn.json().status).toBe('PENDING');
    });
    await l.f.expectSound();
  });
});

describe('configuration', () => {
  const secret = (byte: number) => `whsec_${Buffer.alloc(24, byte).toString('base64')}`;
  const base = {
    LITHIC_API_KEY: 'key_secret_123',
    LITHIC_ASA_SECRET: secret(1),
    LITHIC_EVENTS_SECRET: secret(2),
  };
  it('requires the Lithic settings, https (http only for loopback), and never echoes a secret', () => {
    expect(loadConfig({}).cards.issuer).toBe('sandbox');
    expect(() => loadConfig({ CARD_ISSUER: 'stripe' })).toThrow(/CARD_ISSUER/);
    expect(() => loadConfig({ CARD_ISSUER: 'lithic' })).toThrow(/LITHIC_/);
    for (const url of ['http://api.lithic.com', 'ftp://localhost', 'not a url']) {
      expect(() => loadConfig({ CARD_ISSUER: 'lithic', ...base, LITHIC_BASE_URL: url }), url).toThrow(
        /LITHIC_BASE_URL/,
      );
    }
    for (const url of [
      'https://api.lithic.com',
      'http://127.0.0.1:9999',
      'http://localhost:1',
      'http://[::1]:2',
    ]) {
      const lithic = loadConfig({ CARD_ISSUER: 'lithic', ...base, LITHIC_BASE_URL: url }).cards.lithic;
      expect(lithic?.baseUrl).toBeTruthy();
      expect([lithic?.asaSecret, lithic?.eventsSecret]).toEqual([secret(1), secret(2)]);
    }
    for (const name of ['LITHIC_ASA_SECRET', 'LITHIC_EVENTS_SECRET'] as const) {
      const env = { CARD_ISSUER: 'lithic', ...base, LITHIC_BASE_URL: 'https://x' };
      // Either secret missing: the process refuses to start, naming it.
      const { [name]: _missing, ...without } = env;
      expect(() => loadConfig(without), name).toThrow(new RegExp(`${name} is required`));
      try {
        loadConfig({ ...env, [name]: 'whsec_short!' });
        expect.unreachable();
      } catch (error) {
        expect(String(error)).toMatch(new RegExp(name));
        expect(String(error)).not.toContain('short!');
      }
    }
    // The one secret of old cannot stand in for both: an operator upgrading is told what replaced it.
    for (const env of [
      { CARD_ISSUER: 'lithic', ...base, LITHIC_BASE_URL: 'https://x', LITHIC_WEBHOOK_SECRET: secret(3) },
      {
        CARD_ISSUER: 'lithic',
        LITHIC_API_KEY: 'k',
        LITHIC_BASE_URL: 'https://x',
        LITHIC_WEBHOOK_SECRET: secret(3),
      },
    ]) {
      expect(() => loadConfig(env)).toThrow(
        /LITHIC_WEBHOOK_SECRET is replaced by LITHIC_ASA_SECRET and LITHIC_EVENTS_SECRET/,
      );
    }
  });
});
