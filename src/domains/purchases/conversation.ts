import { isoTime } from '../../core/clock.ts';
import { formatMoney } from '../../core/money.ts';
import { type CartObject, cartObject, type StoredCart } from './cart.ts';
import type { Placement } from './checkout.ts';
import type { DeliveryAddress } from './merchants/merchant.ts';

/** Statuses of the envelope (spec §3 Purchase status); the only field a client branches on. */
export const PURCHASE_STATUSES = ['needs_input', 'order_placed', 'partially_placed', 'declined'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export interface Unmatched {
  merchant: string | null;
  requested: string;
  reason: string;
  detail: string;
  at: string;
}

export interface Catalog {
  as_of: string;
  query: string;
  merchant: string | null;
  items: { product_id: string; name: string; priceCents: number; currency: string; in_stock: boolean }[];
}

/** What a conversation keeps between turns (the `state` JSON of its row). */
export interface ConversationState {
  /** Open carts, one per merchant. */
  carts: StoredCart[];
  /** The merchant of the most recently shown cart. */
  shown: string | null;
  catalog: Catalog | null;
  address: DeliveryAddress | null;
  /** The transcript: each turn's ask and reply bubbles (the last 200). */
  messages: { role: 'user' | 'assistant'; text: string; at: string }[];
  last_checkout: LastCheckout | null;
}

export interface LastCheckout {
  at: string;
  hashes: string[];
  status: PurchaseStatus;
  order_id: string | null;
  decline_code: string | null;
  charge_status: string | null;
  placements: PlacementObject[] | null;
}

export type PlacementObject = Omit<Placement, 'paid_with'>;

export const TRANSCRIPT_LIMIT = 200;

export function emptyState(): ConversationState {
  return { carts: [], shown: null, catalog: null, address: null, messages: [], last_checkout: null };
}

/** The spec's purchase response envelope (§2), every field present, plus `messages`. */
export interface Envelope {
  conversation_id: string;
  status: PurchaseStatus;
  reply: string;
  messages: string[];
  cart: CartObject | null;
  carts: CartObject[];
  catalog: Catalog | null;
  unmatched: Unmatched[];
  order_id: string | null;
  payment_source: { source: string; brand: string; last4: string } | null;
  decline_code: string | null;
  approval_url: string | null;
  charge_status: ChargeStatus | null;
  placements: PlacementObject[] | null;
  error_code: string | null;
}

/** Where an order's charge stands: none taken, being confirmed, settled, or not known after a failure. */
export const CHARGE_STATUSES = ['none', 'confirming', 'settled', 'unknown'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** Builds an envelope: the turn's bubbles make the reply; the rest is null or empty unless given. */
export function envelope(
  conversationId: string,
  state: ConversationState | null,
  turn: Partial<Omit<Envelope, 'conversation_id' | 'reply' | 'messages' | 'cart' | 'carts' | 'catalog'>> & {
    status: PurchaseStatus;
    bubbles: string[];
  },
): Envelope {
  const shown = state?.carts.find((cart) => cart.merchant === state.shown) ?? null;
  return {
    conversation_id: conversationId,
    status: turn.status,
    reply: turn.bubbles.join('\n\n'),
    messages: turn.bubbles,
    cart: shown ? cartObject(shown) : null,
    carts: state?.carts.map(cartObject) ?? [],
    catalog: state?.catalog ?? null,
    unmatched: turn.unmatched ?? [],
    order_id: turn.order_id ?? null,
    payment_source: turn.payment_source ?? null,
    decline_code: turn.decline_code ?? null,
    approval_url: turn.approval_url ?? null,
    charge_status: turn.charge_status ?? null,
    placements: turn.placements ?? null,
    error_code: turn.error_code ?? null,
  };
}

/** A cart as a chat bubble. */
export function cartBubble(cart: StoredCart): string {
  const { quote } = cart;
  const lines = quote.items.map(
    (item) => `${item.qty} × ${item.name} at ${formatMoney(item.priceCents, quote.currency)}`,
  );
  const amounts: [string, number | null | undefined][] = [
    ['service fee', quote.serviceFeesCents],
    ['tip', quote.tipCents],
    ['tax', quote.taxCents],
    ['shipping', quote.shippingCents],
  ];
  const extras = amounts.flatMap(([label, cents]) =>
    cents ? [`${label} ${formatMoney(cents, quote.currency)}`] : [],
  );
  const ceiling =
    quote.approvedCeilingCents === null
      ? ''
      : ` Tax and shipping are finalized after you confirm; you approve at most ${formatMoney(quote.approvedCeilingCents, quote.currency)}.`;
  return `${cart.merchant_name}: ${lines.join(', ')}${extras.length ? `; ${extras.join(', ')}` : ''}. Total ${formatMoney(quote.totalCents, quote.currency)}.${ceiling} To buy, confirm ${cart.hash}.`;
}

export function stamp(ms: number): string {
  return isoTime(ms);
}
