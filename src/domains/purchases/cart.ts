import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { isoTime } from '../../core/clock.ts';
import { randomToken } from '../../core/ids.ts';
import type { CartLine, DeliveryAddress, MerchantInfo, Quote } from './merchants/merchant.ts';

/** Limits of a conversation's carts (docs/purchases.md). */
export const CART_LIMITS = { openCarts: 10, itemsPerCart: 50, minQty: 1, maxQty: 99 } as const;

/** A cart as the conversation keeps it: what was asked for, and the merchant's last priced answer. */
export interface StoredCart {
  merchant: string;
  merchant_name: string;
  lines: CartLine[];
  quote: Quote;
  hash: string;
  expires_at: number;
  /**
   * Which cart this is: drawn when the merchant's cart opens in the conversation, kept while it is
   * priced again, gone with the cart once it is placed. Carts stored before carts had keys have none.
   */
  key?: string;
}

/**
 * The order's placement key: one cart of one conversation, so a confirm of it retried, or after a
 * crash, finds its order and never charges twice, while a cart rebuilt identical after the first
 * was placed is a new cart that places a new order (docs/purchases.md, Exactly once).
 */
export function placementKey(conversationId: string, cart: Pick<StoredCart, 'key' | 'hash'>): string {
  return `${conversationId}:${cart.key ?? cart.hash}`;
}

/** The spec's cart object (§2 Cart object), plus `currency` and `expires_at`. */
export interface CartObject {
  merchant: string;
  merchant_name: string;
  items: { name: string; qty: number; priceCents: number; product_id: string }[];
  serviceFeesCents: number;
  tipCents: number;
  taxCents: number | null;
  shippingCents: number | null;
  totalCents: number;
  approvedCeilingCents: number | null;
  hash: string;
  currency: string;
  expires_at: string;
}

/**
 * base64url(SHA-256(RFC 8785 JCS of the priced content)): the merchant, every item, every amount
 * (tax and shipping included), the currency, the ceiling and the delivery address. Any change to any of them is a new hash, so a
 * confirm names exactly one cart at exactly one price.
 */
export function cartHash(merchant: string, quote: Quote, address: DeliveryAddress | null): string {
  const content = canonicalize({
    merchant,
    items: quote.items.map((item) => ({
      product_id: item.product_id,
      name: item.name,
      qty: item.qty,
      priceCents: item.priceCents,
    })),
    serviceFeesCents: quote.serviceFeesCents,
    tipCents: quote.tipCents,
    taxCents: quote.taxCents,
    shippingCents: quote.shippingCents,
    totalCents: quote.totalCents,
    approvedCeilingCents: quote.approvedCeilingCents,
    currency: quote.currency,
    delivery_address: address ? normalizedAddress(address) : null,
  }) as string;
  return createHash('sha256').update(content).digest('base64url');
}

function normalizedAddress(address: DeliveryAddress): Required<DeliveryAddress> {
  return {
    name: address.name,
    line1: address.line1,
    line2: address.line2 ?? null,
    city: address.city,
    region: address.region ?? null,
    postal_code: address.postal_code,
    country: address.country,
  };
}

export function storedCart(
  merchant: MerchantInfo,
  lines: CartLine[],
  quote: Quote,
  address: DeliveryAddress | null,
  expiresAt: number,
  /** The cart it prices again (its key stays); none for a cart that opens. */
  previous?: StoredCart,
): StoredCart {
  return {
    merchant: merchant.slug,
    merchant_name: merchant.name,
    lines,
    quote,
    hash: cartHash(merchant.slug, quote, address),
    expires_at: expiresAt,
    key: previous ? previous.key : randomToken(12),
  };
}

export function cartObject(cart: StoredCart): CartObject {
  const { quote } = cart;
  return {
    merchant: cart.merchant,
    merchant_name: cart.merchant_name,
    items: quote.items.map((item) => ({
      name: item.name,
      qty: item.qty,
      priceCents: item.priceCents,
      product_id: item.product_id,
    })),
    serviceFeesCents: quote.serviceFeesCents,
    tipCents: quote.tipCents,
    // Carts priced before tax and shipping were kept apart have neither: not stated.
    taxCents: quote.taxCents ?? null,
    shippingCents: quote.shippingCents ?? null,
    totalCents: quote.totalCents,
    approvedCeilingCents: quote.approvedCeilingCents,
    hash: cart.hash,
    currency: quote.currency,
    expires_at: isoTime(cart.expires_at),
  };
}

/** What a confirm may authorize for this cart: the ceiling, or the total when it is final. */
export function authorizedCents(cart: StoredCart): number {
  return cart.quote.approvedCeilingCents ?? cart.quote.totalCents;
}
