import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AcpSession,
  asSession,
  productFromFeed,
  quoteFromSession,
} from '../../src/domains/purchases/merchants/acp/protocol.ts';
import { verifyMerchantSignature } from '../../src/domains/purchases/merchants/acp/signature.ts';
import { acpSchemas } from '../helpers/fake-acp-merchant.ts';

/* The pure pieces of the ACP adapter: the session → quote mapping, the feed prices, the webhook signature. */

const session = (overrides: Partial<AcpSession> = {}): AcpSession => ({
  id: 'cs_1',
  status: 'ready_for_payment',
  currency: 'USD',
  line_items: [
    {
      id: 'li_1',
      item: { id: 'sku_a' },
      quantity: 3,
      name: 'Apple',
      unit_amount: 200,
      totals: [{ type: 'items_base_amount', display_text: 'Base', amount: 600 }],
    },
  ],
  totals: [
    { type: 'subtotal', display_text: 'Subtotal', amount: 600 },
    { type: 'fee', display_text: 'Fee', amount: 50 },
    { type: 'tip', display_text: 'Tip', amount: 100 },
    { type: 'tax', display_text: 'Tax', amount: 48 },
    { type: 'fulfillment', display_text: 'Shipping', amount: 300 },
    { type: 'total', display_text: 'Total', amount: 1098 },
  ],
  messages: [],
  ...overrides,
});
const address = { name: 'A', line1: '1 St', city: 'C', postal_code: '1', country: 'US' };
const lines = [{ product_id: 'sku_a', qty: 3 }];

describe('quoteFromSession', () => {
  it('a ready session with an address is final: tax and shipping in the total, no ceiling', () => {
    const quote = quoteFromSession(session(), lines, address);
    expect(quote).toMatchObject({
      serviceFeesCents: 50,
      tipCents: 100,
      totalCents: 1098,
      approvedCeilingCents: null,
    });
    expect(quote.currency).toBe('usd');
  });

  it('before that, the total is items + fees + tip and the ceiling adds what is shown plus headroom', () => {
    const quote = quoteFromSession(session({ status: 'not_ready_for_payment' }), lines, address);
    expect(quote.totalCents).toBe(750);
    // 750 + 348 shown + max(25% of 750 = 188, 500)
    expect(quote.approvedCeilingCents).toBe(750 + 348 + 500);
    const big = quoteFromSession(session(), lines, null, { marginBps: 2500, minimumMarginCents: 0 });
    expect(big.approvedCeilingCents).toBe(750 + 348 + 188);
  });

  it('prices a line from its base total when the merchant gives no unit amount', () => {
    const [line] = session().line_items;
    const quote = quoteFromSession(
      session({ line_items: [{ ...line!, unit_amount: undefined as unknown as number }] }),
      lines,
      address,
    );
    expect(quote.items).toEqual([{ product_id: 'sku_a', name: 'Apple', qty: 3, priceCents: 200 }]);
  });

  it('a line named by an out_of_stock message is unavailable', () => {
    const quote = quoteFromSession(
      session({
        status: 'not_ready_for_payment',
        messages: [{ type: 'error', code: 'out_of_stock', param: '$.line_items[0]', content: 'Gone.' }],
      }),
      lines,
      address,
    );
    expect(quote.items).toEqual([]);
    expect(quote.unavailable).toEqual(['sku_a']);
  });
});

describe('asSession', () => {
  it('accepts the protocol example and refuses what is not a session', () => {
    const example = {
      id: 'cs_abc123',
      status: 'ready_for_payment',
      currency: 'usd',
      line_items: [],
      totals: [{ type: 'total', display_text: 'Total', amount: 6764 }],
      fulfillment_options: [],
      messages: [],
      links: [],
      capabilities: {},
    };
    expect(acpSchemas.problems('CheckoutSession', example)).toEqual([]);
    expect(asSession(example)).not.toBeNull();
    expect(asSession({ ...example, totals: [{ type: 'total', amount: '67.64' }] })).toBeNull();
    expect(asSession({ ...example, id: '' })).toBeNull();
    expect(asSession({ ...example, order: { id: 5 } })).toBeNull();
    expect(asSession('cs_abc123')).toBeNull();
  });
});

describe('productFromFeed', () => {
  it('reads "12.99 USD" prices in the currency’s minor units', () => {
    expect(productFromFeed({ id: 'a', title: 'A', price: '12.99 USD', availability: 'in_stock' })).toEqual({
      product_id: 'a',
      name: 'A',
      priceCents: 1299,
      currency: 'usd',
      in_stock: true,
    });
    expect(
      productFromFeed({ id: 'b', title: 'B', price: '1500 JPY', availability: 'out_of_stock' }),
    ).toMatchObject({
      priceCents: 1500,
      currency: 'jpy',
      in_stock: false,
    });
    expect(productFromFeed({ id: 'c', title: 'C', price: '5 USD' })?.priceCents).toBe(500);
    expect(productFromFeed({ id: 'd', title: 'D', price: '1.999 USD' })).toBeNull();
    expect(productFromFeed({ id: 'e', title: 'E', price: 12.99 })).toBeNull();
    expect(productFromFeed({ id: 'f', title: 'F', price: '-1.00 USD' })).toBeNull();
  });
});

describe('verifyMerchantSignature', () => {
  const secret = 'whsec_test_secret_value';
  const body = '{"type":"order_update"}';
  const now = 1_800_000_000_000;
  const t = now / 1000;
  const sign = (ts: number, payload = body) =>
    `t=${ts},v1=${createHmac('sha256', secret).update(`${ts}.${payload}`).digest('hex')}`;

  it('accepts HMAC-SHA256 over "<t>.<body>" within 300 seconds', () => {
    expect(verifyMerchantSignature(secret, sign(t), body, now)).toBe('ok');
    expect(verifyMerchantSignature(secret, sign(t - 300), body, now)).toBe('ok');
    expect(verifyMerchantSignature(secret, sign(t + 300), body, now)).toBe('ok');
  });

  it('refuses stale, future, altered, malformed and missing signatures', () => {
    expect(verifyMerchantSignature(secret, sign(t - 301), body, now)).toBe('stale');
    expect(verifyMerchantSignature(secret, sign(t + 301), body, now)).toBe('stale');
    expect(verifyMerchantSignature(secret, sign(t), `${body} `, now)).toBe('mismatch');
    expect(verifyMerchantSignature('another_secret', sign(t), body, now)).toBe('mismatch');
    expect(verifyMerchantSignature(secret, sign(t).replace('v1=', 'v0='), body, now)).toBe('malformed');
    expect(verifyMerchantSignature(secret, `${sign(t)},v1=${'0'.repeat(64)}`, body, now)).toBe('malformed');
    expect(verifyMerchantSignature(secret, [sign(t), sign(t)], body, now)).toBe('malformed');
    expect(verifyMerchantSignature(secret, undefined, body, now)).toBe('missing');
  });
});
