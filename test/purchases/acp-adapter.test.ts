import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import {
  AcpMerchant,
  type AcpOptions,
  MerchantUnavailableError,
} from '../../src/domains/purchases/merchants/acp.ts';
import type {
  CartLine,
  DeliveryAddress,
  PlaceRequest,
  Quote,
} from '../../src/domains/purchases/merchants/merchant.ts';
import { acpSchemas, FakeAcpMerchant } from '../helpers/fake-acp-merchant.ts';

/*
 * The ACP adapter against a local merchant speaking the protocol (test/helpers/fake-acp-merchant.ts),
 * which validates every request it receives and every answer it gives against the protocol's
 * schemas: each test ends with no validation failure.
 */

const API_KEY = 'sk_acp_fake_0123456789';
const address: DeliveryAddress = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Row',
  line2: null,
  city: 'Portland',
  region: 'OR',
  postal_code: '97201',
  country: 'US',
};
const lines: CartLine[] = [
  { product_id: 'sku_mug', qty: 2 },
  { product_id: 'sku_tea', qty: 1 },
];
// 2 × 12.50 + 8.99 = 33.99; fee 0.99; with the address, 8% tax (2.72) and 5.00 shipping.
const FINAL_TOTAL = 3399 + 99 + 272 + 500;

let fake: FakeAcpMerchant;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  fake = await new FakeAcpMerchant(API_KEY).start();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.complete = 'ok';
  fake.taxBps = 800;
});
afterEach(() => {
  expect(fake.validationErrors).toEqual([]);
});

function merchant(options: Partial<AcpOptions> = {}): AcpMerchant {
  return new AcpMerchant(
    {
      slug: 'teashop',
      name: 'Tea Shop',
      acpUrl: fake.url,
      apiKey: API_KEY,
      countries: ['US'],
      currency: 'usd',
    },
    {
      clock,
      policy: { livemode: true, allowPrivate: true, allowedPrivateHosts: [] },
      timeoutMs: 5_000,
      ...options,
    },
  );
}

let orderCount = 0;
/** A place request for a quote, with a `charge` that records what it is asked to charge. */
function placeRequest(quote: Quote, charged: number[]): PlaceRequest {
  const ceiling = quote.approvedCeilingCents ?? quote.totalCents;
  orderCount += 1;
  return {
    orderId: `ord_test_${orderCount}_${Date.now()}`,
    lines,
    expectedTotalCents: quote.totalCents,
    ceilingCents: ceiling,
    currency: quote.currency,
    address,
    merchantRef: quote.merchantRef,
    card: {
      cardId: 'card_single_use_1',
      number: '4111111111111111',
      cvc: '123',
      expiry: '12/30',
      last4: '1111',
      allowance: {
        maxAmountCents: ceiling,
        currency: 'usd',
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    },
    charge: async (amountCents) => {
      charged.push(amountCents);
      return { approved: true, transactionId: `tx_${charged.length}` };
    },
  };
}

describe('quote', () => {
  it('creates a checkout session, then updates the same session with the address', async () => {
    const shop = merchant();
    const first = await shop.quote(lines, null, null);
    expect(first).toEqual({
      items: [
        { product_id: 'sku_mug', name: 'Blue ceramic mug', qty: 2, priceCents: 1250 },
        { product_id: 'sku_tea', name: 'Green tea, 100 bags', qty: 1, priceCents: 899 },
      ],
      serviceFeesCents: 99,
      tipCents: 0,
      // Not final without an address: items and fee now, tax and shipping under the ceiling.
      taxCents: null,
      shippingCents: null,
      totalCents: 3498,
      approvedCeilingCents: 3498 + Math.ceil(3498 * 0.25),
      currency: 'usd',
      unavailable: [],
      merchantRef: expect.stringMatching(/^cs_/),
    });
    const final = await shop.quote(lines, address, first.merchantRef);
    expect(final.merchantRef).toBe(first.merchantRef);
    expect(final).toMatchObject({ taxCents: 272, shippingCents: 500, totalCents: FINAL_TOTAL });
    expect(final.approvedCeilingCents).toBeNull();
    expect(fake.requestsTo('POST', /^\/checkout_sessions$/)).toHaveLength(1);
    const update = fake.requestsTo('POST', new RegExp(`^/checkout_sessions/${first.merchantRef}$`)).at(-1)!;
    expect(update.body).toEqual({
      line_items: [
        { id: 'sku_mug', quantity: 2 },
        { id: 'sku_tea', quantity: 1 },
      ],
      fulfillment_details: {
        name: 'Ada Lovelace',
        address: {
          name: 'Ada Lovelace',
          line_one: '12 Analytical Row',
          city: 'Portland',
          state: 'OR',
          country: 'US',
          postal_code: '97201',
        },
      },
    });
  });

  it('lists unknown and sold-out products as unavailable and leaves them out of the items', async () => {
    const quote = await merchant().quote(
      [
        { product_id: 'sku_mug', qty: 1 },
        { product_id: 'sku_kettle', qty: 1 },
        { product_id: 'sku_nope', qty: 1 },
      ],
      address,
      null,
    );
    expect(quote.items.map((i) => i.product_id)).toEqual(['sku_mug']);
    expect(quote.unavailable.sort()).toEqual(['sku_kettle', 'sku_nope']);
  });

  it('opens a new session when the quoted one is gone', async () => {
    const shop = merchant();
    const first = await shop.quote(lines, address, null);
    await shop.cancel(first.merchantRef!);
    const again = await shop.quote(lines, address, first.merchantRef);
    expect(again.merchantRef).not.toBe(first.merchantRef);
    expect(again.totalCents).toBe(FINAL_TOTAL);
  });
});

describe('place', () => {
  it('delegates the card for at most the ceiling, completes once and charges the final amount once', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    const charged: number[] = [];
    const request = placeRequest(quote, charged);
    const result = await shop.place(request);
    expect(result).toEqual({
      outcome: 'placed',
      merchantOrderId: expect.stringMatching(/^ord_/),
      finalCents: FINAL_TOTAL,
      confirmed: true,
    });
    expect(charged).toEqual([FINAL_TOTAL]);
    expect(fake.charges.filter((c) => c.sessionId === quote.merchantRef)).toEqual([
      { sessionId: quote.merchantRef, vaultToken: expect.stringMatching(/^vt_/), amount: FINAL_TOTAL },
    ]);

    const [delegation] = fake.requestsTo('POST', /^\/agentic_commerce\/delegate_payment$/).slice(-1);
    expect(delegation!.headers['idempotency-key']).toBe(`purser:${request.orderId}:delegate`);
    expect((delegation!.body as { allowance: unknown }).allowance).toEqual({
      reason: 'one_time',
      max_amount: FINAL_TOTAL,
      currency: 'usd',
      checkout_session_id: quote.merchantRef,
      merchant_id: 'teashop',
      expires_at: request.card.allowance.expiresAt,
    });
    expect((delegation!.body as { payment_method: unknown }).payment_method).toMatchObject({
      type: 'card',
      number: '4111111111111111',
      exp_month: '12',
      exp_year: '2030',
      cvc: '123',
      display_last4: '1111',
    });
    const completes = fake.requestsTo(
      'POST',
      new RegExp(`^/checkout_sessions/${quote.merchantRef}/complete$`),
    );
    expect(completes).toHaveLength(1);
    expect(completes[0]!.headers['idempotency-key']).toBe(`purser:${request.orderId}:complete`);
  });

  it('sends the protocol headers on every request: bearer key, API-Version, Request-Id, Timestamp, Idempotency-Key', async () => {
    const before = fake.requests.length;
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    await shop.place(placeRequest(quote, []));
    const sent = fake.requests.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(5);
    for (const request of sent) {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.headers['api-version']).toBe('2026-04-17');
      expect(request.headers['request-id']).toMatch(/^req_/);
      expect(Number.isNaN(Date.parse(String(request.headers.timestamp)))).toBe(false);
      if (request.method === 'POST') {
        expect(request.headers['content-type']).toBe('application/json');
        expect(String(request.headers['idempotency-key']).length).toBeGreaterThan(0);
      }
    }
    const requestIds = sent.map((r) => r.headers['request-id']);
    expect(new Set(requestIds).size).toBe(requestIds.length);
  });

  it('a payment_declined answer declines with nothing charged', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    fake.complete = 'payment_declined';
    const charged: number[] = [];
    const result = await shop.place(placeRequest(quote, charged));
    expect(result).toEqual({
      outcome: 'declined',
      code: 'payment_declined',
      detail: 'The card was declined.',
    });
    expect(charged).toEqual([]);
    expect(fake.charges.filter((c) => c.sessionId === quote.merchantRef)).toEqual([]);
  });

  it('a 4xx answer declines as merchant_error with nothing charged', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    fake.complete = 'error_400';
    const charged: number[] = [];
    const result = await shop.place(placeRequest(quote, charged));
    expect(result).toMatchObject({ outcome: 'declined', code: 'merchant_error' });
    expect((result as { detail: string }).detail).toContain('Payment data refused');
    expect(charged).toEqual([]);
  });

  it('a 5xx is unknown; lookup then cancels the open session: absent, never charged', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    fake.complete = 'error_500';
    const charged: number[] = [];
    const request = placeRequest(quote, charged);
    expect(await shop.place(request)).toEqual({ outcome: 'unknown', detail: 'the merchant answered 500' });
    expect(charged).toEqual([]);
    fake.complete = 'ok';
    expect(await shop.lookup(request.orderId, quote.merchantRef)).toEqual({ outcome: 'absent' });
    expect(fake.sessions.get(quote.merchantRef!)!.status).toBe('canceled');
    // A completion arriving late can no longer land.
    expect(await shop.place(request)).toMatchObject({ outcome: 'declined', code: 'cart_changed' });
    expect(charged).toEqual([]);
    expect(fake.charges.filter((c) => c.sessionId === quote.merchantRef)).toEqual([]);
  });

  it('a timeout is unknown within the configured time, with nothing charged', async () => {
    const shop = merchant({ timeoutMs: 400 });
    const quote = await shop.quote(lines, address, null);
    fake.complete = 'hang';
    const charged: number[] = [];
    const request = placeRequest(quote, charged);
    const started = performance.now();
    const result = await shop.place(request);
    const elapsed = performance.now() - started;
    expect(result).toEqual({ outcome: 'unknown', detail: 'timeout: no answer within 400 ms' });
    expect(elapsed).toBeLessThan(3_000);
    expect(charged).toEqual([]);
    fake.complete = 'ok';
    expect(await shop.lookup(request.orderId, quote.merchantRef)).toEqual({ outcome: 'absent' });
    expect(fake.charges.filter((c) => c.sessionId === quote.merchantRef)).toEqual([]);
  });

  it('an order completed whose answer was lost: lookup finds it, a repeated place settles it without paying twice', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    fake.complete = 'complete_then_500';
    const charged: number[] = [];
    const request = placeRequest(quote, charged);
    expect(await shop.place(request)).toMatchObject({ outcome: 'unknown' });
    expect(charged).toEqual([]);
    fake.complete = 'ok';
    const found = await shop.lookup(request.orderId, quote.merchantRef);
    expect(found).toEqual({
      outcome: 'placed',
      merchantOrderId: fake.sessions.get(quote.merchantRef!)!.order!.id,
      finalCents: FINAL_TOTAL,
      confirmed: true,
    });
    // place again (a worker retrying): the session is completed, so it settles that order.
    const again = await shop.place(request);
    expect(again).toEqual(found);
    expect(charged).toEqual([FINAL_TOTAL]);
    expect(fake.charges.filter((c) => c.sessionId === quote.merchantRef)).toHaveLength(1);
    expect(
      fake.requestsTo('POST', new RegExp(`^/checkout_sessions/${quote.merchantRef}/complete$`)),
    ).toHaveLength(1);
  });

  it('the same complete retried with its key is replayed by the merchant, not done twice', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    const request = placeRequest(quote, []);
    await shop.place(request);
    const complete = fake.requestsTo(
      'POST',
      new RegExp(`^/checkout_sessions/${quote.merchantRef}/complete$`),
    )[0]!;
    const replay = await fetch(`${fake.url}/checkout_sessions/${quote.merchantRef}/complete`, {
      method: 'POST',
      headers: { ...(complete.headers as Record<string, string>), 'request-id': 'req_replay' },
      body: JSON.stringify(complete.body),
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(fake.charges.filter((c) => c.sessionId === quote.merchantRef)).toHaveLength(1);
  });

  it('a merchant total above the confirmed ceiling is cart_changed, before any card is delegated', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    fake.taxBps = 2500;
    const before = fake.requestsTo('POST', /delegate_payment/).length;
    const charged: number[] = [];
    const result = await shop.place(placeRequest(quote, charged));
    expect(result).toMatchObject({ outcome: 'declined', code: 'cart_changed' });
    expect(fake.requestsTo('POST', /delegate_payment/)).toHaveLength(before);
    expect(charged).toEqual([]);
  });

  it('a charge the authorization engine declines is payment_declined', async () => {
    const shop = merchant();
    const quote = await shop.quote(lines, address, null);
    const request = {
      ...placeRequest(quote, []),
      charge: async () => ({ approved: false as const, declineReason: 'insufficient_funds' }),
    };
    expect(await shop.place(request)).toEqual({
      outcome: 'declined',
      code: 'payment_declined',
      detail: 'insufficient_funds',
    });
  });

  it('a merchant refusing the key declines as merchant_error, nothing delegated', async () => {
    const quote = await merchant().quote(lines, address, null);
    const before = fake.requestsTo('POST', /delegate_payment/).length;
    const wrongKey = new AcpMerchant(
      {
        slug: 'teashop',
        name: 'Tea Shop',
        acpUrl: fake.url,
        apiKey: 'sk_wrong_key_123',
        countries: ['US'],
        currency: 'usd',
      },
      { clock, policy: { livemode: true, allowPrivate: true, allowedPrivateHosts: [] } },
    );
    const result = await wrongKey.place(placeRequest(quote, []));
    expect(result).toMatchObject({ outcome: 'declined', code: 'merchant_error' });
    expect((result as { detail: string }).detail).toContain('HTTP 401');
    expect(fake.requestsTo('POST', /delegate_payment/)).toHaveLength(before);
    // The fake recorded the bad key as a failure of the request: that one is expected here.
    expect(fake.validationErrors.splice(0)).toEqual([expect.stringContaining('Authorization')]);
  });

  it('without a quoted session there is nothing to place', async () => {
    const quote = await merchant().quote(lines, address, null);
    const charged: number[] = [];
    const result = await merchant().place({ ...placeRequest(quote, charged), merchantRef: null });
    expect(result).toMatchObject({ outcome: 'declined', code: 'cart_changed' });
  });
});

describe('lookup and cancel', () => {
  it('lookup of an unknown session is absent; cancel closes an open one', async () => {
    const shop = merchant();
    expect(await shop.lookup('ord_x', 'cs_does_not_exist')).toEqual({ outcome: 'absent' });
    expect(await shop.lookup('ord_x', null)).toEqual({ outcome: 'absent' });
    const quote = await shop.quote(lines, address, null);
    await shop.cancel(quote.merchantRef!);
    expect(fake.sessions.get(quote.merchantRef!)!.status).toBe('canceled');
    const [cancel] = fake.requestsTo('POST', new RegExp(`^/checkout_sessions/${quote.merchantRef}/cancel$`));
    expect(cancel!.headers['idempotency-key']).toBe(`purser:cancel:${quote.merchantRef}`);
  });
});

describe('catalog', () => {
  it('searches and reads products from the product feed', async () => {
    const shop = merchant();
    expect(await shop.search('blue mug', 5)).toEqual([
      { product_id: 'sku_mug', name: 'Blue ceramic mug', priceCents: 1250, currency: 'usd', in_stock: true },
    ]);
    expect(await shop.products(['sku_kettle', 'sku_unknown'])).toEqual([
      { product_id: 'sku_kettle', name: 'Steel kettle', priceCents: 4500, currency: 'usd', in_stock: false },
    ]);
    expect(shop.info).toEqual({
      slug: 'teashop',
      name: 'Tea Shop',
      market: { countries: ['US'], currency: 'usd' },
      mcc: null,
      country: 'US',
      protocol: 'acp',
      sandbox: false,
    });
  });
});

describe('catalog when the feed is down', () => {
  it('an ask does not fail: the last feed or none, and the feed is asked again only after 30 s', async () => {
    const shop = merchant();
    fake.feedDown = true;
    try {
      expect(await shop.search('mug', 5)).toEqual([]);
      expect(await shop.products(['sku_mug'])).toEqual([]);
      expect(fake.requestsTo('GET', /^\/product_feed$/).length).toBeGreaterThan(0);
      const asked = fake.requestsTo('GET', /^\/product_feed$/).length;
      expect(await shop.search('mug', 5)).toEqual([]);
      expect(fake.requestsTo('GET', /^\/product_feed$/)).toHaveLength(asked);
      fake.feedDown = false;
      clock.advance(31_000);
      expect((await shop.search('mug', 5)).map((p) => p.product_id)).toEqual(['sku_mug']);
      expect(fake.requestsTo('GET', /^\/product_feed$/)).toHaveLength(asked + 1);
    } finally {
      fake.feedDown = false;
    }
  });
});

describe('destinations', () => {
  it('a loopback merchant is refused unless the operator allows private destinations', async () => {
    const before = fake.requests.length;
    const shop = merchant({ policy: { livemode: true, allowPrivate: false, allowedPrivateHosts: [] } });
    await expect(shop.quote(lines, address, null)).rejects.toThrow(MerchantUnavailableError);
    await expect(shop.quote(lines, address, null)).rejects.toThrow(/loopback/);
    expect(fake.requests.length).toBe(before);
  });

  it('a name is checked after resolution and the connection goes to the address checked', async () => {
    const port = new URL(fake.url).port;
    const named = (allowPrivate: boolean, allowedPrivateHosts: string[] = []) =>
      new AcpMerchant(
        {
          slug: 'teashop',
          name: 'Tea Shop',
          acpUrl: `http://shop.example:${port}/acp`,
          apiKey: API_KEY,
          countries: ['US'],
          currency: 'usd',
        },
        {
          clock,
          policy: { livemode: true, allowPrivate, allowedPrivateHosts },
          // A name that resolves to loopback (as a rebinding name would).
          resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
        },
      );
    const before = fake.requests.length;
    await expect(named(false).quote(lines, null, null)).rejects.toThrow(
      /shop\.example resolves to a loopback/,
    );
    expect(fake.requests.length).toBe(before);
    // Allowed, it reaches the fake at the resolved address (no second lookup of shop.example).
    expect((await named(true).quote(lines, null, null)).merchantRef).toMatch(/^cs_/);
    expect(fake.requests.at(-1)!.headers.host).toBe(`shop.example:${port}`);
    // OUTBOUND_ALLOWED_PRIVATE_HOSTS: a merchant inside the operator's network, named; no other name.
    await expect(named(false, ['other.example']).quote(lines, null, null)).rejects.toThrow(
      /shop\.example resolves to a loopback/,
    );
    expect((await named(false, ['shop.example']).quote(lines, null, null)).merchantRef).toMatch(/^cs_/);
  });

  it('plain http to a public address is never used', async () => {
    const shop = new AcpMerchant(
      {
        slug: 's',
        name: 'S',
        acpUrl: 'http://shop.example/acp',
        apiKey: API_KEY,
        countries: ['US'],
        currency: 'usd',
      },
      {
        clock,
        policy: { livemode: true, allowPrivate: true, allowedPrivateHosts: [] },
        resolveHost: async () => [{ address: '93.184.215.14', family: 4 }],
      },
    );
    await expect(shop.quote(lines, null, null)).rejects.toThrow(/https/);
  });
});

describe('the schemas themselves', () => {
  it('refuse what the protocol refuses (the validator is not vacuous)', () => {
    expect(
      acpSchemas.problems('CheckoutSessionCreateRequest', { line_items: [{ id: 'x', quantity: 1 }] }),
    ).not.toEqual([]);
    expect(
      acpSchemas.problems(
        'DelegatePaymentRequest',
        { payment_method: {}, allowance: { reason: 'one_time' }, risk_signals: [], metadata: {} },
        'delegate',
      ),
    ).not.toEqual([]);
    expect(
      acpSchemas.problems('CheckoutSessionCreateRequest', {
        line_items: [{ id: 'x', quantity: 1 }],
        currency: 'usd',
        capabilities: {},
      }),
    ).toEqual([]);
  });
});
