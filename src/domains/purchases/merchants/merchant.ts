/**
 * The one interface `/buy` places orders through (issue 11). Two implementations: the built-in
 * sandbox merchants (sandbox.ts, a checked-in catalog) and the Agentic Commerce Protocol adapter
 * (acp.ts) for any merchant an operator configures by URL and key. The service never trusts a
 * merchant's arithmetic blindly: it recomputes totals from the quoted lines and keeps the ceiling.
 */

/** How Purser reaches a merchant: the built-in sandbox, or the Agentic Commerce Protocol. */
export const MERCHANT_PROTOCOLS = ['sandbox', 'acp'] as const;

export interface MerchantInfo {
  /** The rail id carts carry as `merchant` (for example `retail`). */
  slug: string;
  name: string;
  market: { countries: string[]; currency: string };
  /** Its merchant category code (ISO 18245), what spending controls judge; null when unknown. */
  mcc: string | null;
  /** Where it is (ISO 3166-1 alpha-2): the first of its market's countries. */
  country: string;
  protocol: (typeof MERCHANT_PROTOCOLS)[number];
  /** Sandbox merchants take sandbox money only; the others production money only. */
  sandbox: boolean;
}

export interface Product {
  product_id: string;
  name: string;
  priceCents: number;
  currency: string;
  in_stock: boolean;
}

export interface CartLine {
  product_id: string;
  qty: number;
}

export interface DeliveryAddress {
  name: string;
  line1: string;
  line2?: string | null | undefined;
  city: string;
  region?: string | null | undefined;
  postal_code: string;
  country: string;
}

/** A merchant's priced answer for a set of lines, as the cart shows it. */
export interface Quote {
  items: { product_id: string; name: string; qty: number; priceCents: number }[];
  serviceFeesCents: number;
  tipCents: number;
  /**
   * Tax and shipping as the merchant states them, inside `totalCents`; null while they finalize
   * after the confirm (then `approvedCeilingCents` covers them).
   */
  taxCents: number | null;
  shippingCents: number | null;
  /** Items + fees + tip + tax + shipping (the last two only once final). */
  totalCents: number;
  /** The most a confirm may authorize when tax or shipping finalize after confirm; null = total. */
  approvedCeilingCents: number | null;
  currency: string;
  /** Requested product ids the merchant cannot sell now (out of stock or unknown). */
  unavailable: string[];
  /** The merchant's own handle on this quote (an ACP checkout session id), if it keeps one. */
  merchantRef: string | null;
}

/** The single-use card a confirm issued for this order, delegated to the merchant. */
export interface DelegatedCard {
  cardId: string;
  number: string;
  cvc: string;
  /** MM/YY as the card object shows it. */
  expiry: string;
  last4: string;
  /** ACP delegate_payment `allowance`: the merchant may charge at most this, once. */
  allowance: { maxAmountCents: number; currency: string; expiresAt: string };
}

/**
 * How a merchant charges the delegated card: through Purser's one authorization engine
 * (cards/network.ts), idempotent by the order (a repeat returns the first decision).
 */
export type ChargeCard = (
  amountCents: number,
) => Promise<{ approved: true; transactionId: string } | { approved: false; declineReason: string }>;

export interface PlaceRequest {
  /** Purser's order id: the idempotency key of everything sent for this order. */
  orderId: string;
  lines: CartLine[];
  /** What the user confirmed: the merchant must not charge more than `ceilingCents`. */
  expectedTotalCents: number;
  ceilingCents: number;
  currency: string;
  address: DeliveryAddress | null;
  merchantRef: string | null;
  card: DelegatedCard;
  charge: ChargeCard;
}

export type PlaceResult =
  /** The merchant accepted and charged the card `finalCents` (≤ ceiling). */
  | { outcome: 'placed'; merchantOrderId: string; finalCents: number; confirmed: boolean }
  /** The merchant refused: nothing was charged. */
  | {
      outcome: 'declined';
      code: 'payment_declined' | 'items_unavailable' | 'cart_changed' | 'merchant_error';
      detail: string;
    }
  /** No answer (timeout, connection lost, 5xx after sending): the worker asks again later. */
  | { outcome: 'unknown'; detail: string };

export interface Merchant {
  readonly info: MerchantInfo;
  /** Plain-text product search over the merchant's catalog, best first. */
  search(query: string, limit: number): Promise<Product[]>;
  /** Products by id (unknown ids are left out). */
  products(ids: string[]): Promise<Product[]>;
  /** Prices these lines for this address (creates or updates the merchant's session). */
  quote(lines: CartLine[], address: DeliveryAddress | null, merchantRef: string | null): Promise<Quote>;
  /** Places the order exactly once per `orderId`; a repeat returns the first result. */
  place(request: PlaceRequest): Promise<PlaceResult>;
  /** What became of an order whose `place` answered `unknown` (`absent`: never placed). */
  lookup(orderId: string, merchantRef: string | null): Promise<PlaceResult | { outcome: 'absent' }>;
  /** Abandons an unplaced quote (ACP cancel); best effort. */
  cancel(merchantRef: string): Promise<void>;
}
