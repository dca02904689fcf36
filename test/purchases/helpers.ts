import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SandboxMerchant } from '../../src/domains/purchases/merchants/sandbox.ts';
import { type CardsFixture, startCards } from '../cards/helpers.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';

export { expectError } from '../helpers/fixtures.ts';

/** The envelope's fields (spec §2 Purchase response envelope, plus `messages`), in order. */
export const ENVELOPE_KEYS = [
  'conversation_id',
  'status',
  'reply',
  'messages',
  'cart',
  'carts',
  'catalog',
  'unmatched',
  'order_id',
  'payment_source',
  'decline_code',
  'approval_url',
  'charge_status',
  'placements',
  'error_code',
];

/** The cart's fields (spec §2 Cart object, plus `currency` and `expires_at`). */
export const CART_KEYS = [
  'merchant',
  'merchant_name',
  'items',
  'serviceFeesCents',
  'tipCents',
  'taxCents',
  'shippingCents',
  'totalCents',
  'approvedCeilingCents',
  'hash',
  'currency',
  'expires_at',
];

export type Envelope = Record<string, unknown> & {
  conversation_id: string;
  status: string;
  reply: string;
  messages: string[];
  cart: Cart | null;
  carts: Cart[];
  order_id: string | null;
  decline_code: string | null;
  charge_status: string | null;
  error_code: string | null;
  placements: Record<string, unknown>[] | null;
  unmatched: { merchant: string | null; requested: string; reason: string; detail: string; at: string }[];
};
export type Cart = {
  merchant: string;
  hash: string;
  taxCents: number | null;
  shippingCents: number | null;
  totalCents: number;
  approvedCeilingCents: number | null;
  currency: string;
  items: { name: string; qty: number; priceCents: number; product_id: string }[];
  serviceFeesCents: number;
  tipCents: number;
};

export interface Shopper {
  userId: string;
  token: string;
}

export interface PurchasesFixture extends CardsFixture {
  /** A connected sandbox user (not verified) with `fund` cents, and their connection token. */
  shopper(fund?: number): Promise<Shopper>;
  buy(
    token: string,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** A turn that must answer 200; its envelope. */
  turn(token: string, body: Record<string, unknown>): Promise<Envelope>;
  /** A sandbox merchant, to move its prices and stock as a real merchant's move. */
  merchant(slug: string): SandboxMerchant;
}

/** The cards fixture with `/buy` steps; the ledger's invariants are checked after the file. */
export function usePurchases(env: Record<string, string> = {}): PurchasesFixture {
  const f = {} as PurchasesFixture;
  beforeAll(async () => {
    await startCards(env, f);
    const { t } = f;
    Object.assign(f, {
      async shopper(fund = 0) {
        const connected = await connectUser(t, f.sandbox, { email: uniqueEmail('buyer') });
        if (fund > 0) expect((await f.fund(connected.userId, fund)).statusCode).toBe(200);
        return { userId: connected.userId, token: connected.accessToken };
      },
      buy: (token: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
        t.clock.advance(1) ?? t.call('POST', '/buy', { token, body, ...(headers ? { headers } : {}) }),
      async turn(token: string, body: Record<string, unknown>) {
        const response = await f.buy(token, body);
        expect(response.statusCode, response.body).toBe(200);
        const json = response.json() as Envelope;
        expect(Object.keys(json)).toEqual(ENVELOPE_KEYS);
        return json;
      },
      merchant: (slug: string) =>
        t.ctx.purchases.sandbox.find((m) => m.info.slug === slug) as SandboxMerchant,
    });
  });
  afterAll(async () => {
    await f.expectSound();
    await f.close();
  });
  return f;
}
