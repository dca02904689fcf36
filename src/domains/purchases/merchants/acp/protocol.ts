import { minorUnitDigits } from '../../../../core/money.ts';
import type { CartLine, DeliveryAddress, Product, Quote } from '../merchant.ts';

/*
 * The parts of the Agentic Commerce Protocol 2026-04-17 (../shared/acp/, Apache-2.0) that Purser
 * reads and writes, as the JSON Schemas name them. Answers are checked for the fields used here
 * (`asSession`); the tests validate every answer the adapter accepts against the full schemas.
 */

export const ACP_VERSION = '2026-04-17';

/** `Total.type` values (schema `Total`). */
export type TotalType =
  | 'items_base_amount'
  | 'items_discount'
  | 'subtotal'
  | 'discount'
  | 'fulfillment'
  | 'tax'
  | 'fee'
  | 'gift_wrap'
  | 'tip'
  | 'store_credit'
  | 'total'
  | 'amount_refunded';

export interface AcpTotal {
  type: TotalType;
  display_text: string;
  amount: number;
}

export interface AcpLineItem {
  id: string;
  item: { id: string; name?: string; unit_amount?: number };
  quantity: number;
  name?: string;
  unit_amount?: number;
  product_id?: string;
  availability_status?: 'in_stock' | 'low_stock' | 'out_of_stock' | 'backorder' | 'pre_order';
  totals: AcpTotal[];
}

export interface AcpMessage {
  type: 'info' | 'warning' | 'error';
  code?: string;
  param?: string;
  content: string;
}

export interface AcpOrder {
  id: string;
  checkout_session_id: string;
  permalink_url: string;
  status?: string;
}

export type SessionStatus =
  | 'incomplete'
  | 'not_ready_for_payment'
  | 'requires_escalation'
  | 'authentication_required'
  | 'ready_for_payment'
  | 'pending_approval'
  | 'complete_in_progress'
  | 'completed'
  | 'canceled'
  | 'in_progress'
  | 'expired';

export interface AcpSession {
  id: string;
  status: SessionStatus;
  currency: string;
  line_items: AcpLineItem[];
  totals: AcpTotal[];
  messages: AcpMessage[];
  capabilities?: { payment?: { handlers?: { id: string; requires_delegate_payment?: boolean }[] } };
  order?: AcpOrder;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);

/** The checkout session in a merchant's answer, or null when the answer is not one Purser can use. */
export function asSession(body: unknown): AcpSession | null {
  if (!isObject(body)) return null;
  const { id, status, currency, line_items, totals, messages } = body;
  if (typeof id !== 'string' || id === '' || typeof status !== 'string' || typeof currency !== 'string') {
    return null;
  }
  if (!Array.isArray(line_items) || !Array.isArray(totals) || !Array.isArray(messages)) return null;
  for (const total of totals) {
    if (!isObject(total) || typeof total.type !== 'string' || !isInteger(total.amount)) return null;
  }
  for (const line of line_items) {
    if (!isObject(line) || !isObject(line.item) || typeof line.item.id !== 'string') return null;
    if (!isInteger(line.quantity) || line.quantity < 1 || !Array.isArray(line.totals)) return null;
  }
  for (const message of messages) {
    if (!isObject(message) || typeof message.type !== 'string') return null;
  }
  if (body.order !== undefined) {
    const order = body.order;
    if (!isObject(order) || typeof order.id !== 'string' || order.id === '') return null;
  }
  return body as unknown as AcpSession;
}

/** The amount of one kind of total (summed when a merchant lists several), 0 when absent. */
export function totalOf(totals: AcpTotal[], type: TotalType): number {
  return totals.filter((t) => t.type === type).reduce((sum, t) => sum + t.amount, 0);
}

/** The first error message's code, if the merchant answered with one (schema `MessageError`). */
export function errorMessages(session: AcpSession): AcpMessage[] {
  return session.messages.filter((m) => m.type === 'error');
}

/** ACP `Address`: `state` is required there; a region-less address sends an empty one. */
export function acpAddress(address: DeliveryAddress) {
  return {
    name: address.name,
    line_one: address.line1,
    ...(address.line2 ? { line_two: address.line2 } : {}),
    city: address.city,
    state: address.region ?? '',
    country: address.country.toUpperCase(),
    postal_code: address.postal_code,
  };
}

/**
 * The create/update body's lines. This release's `Item` schema lists `id`, `name`, `unit_amount`
 * only, while its own examples and real merchants take `{id, quantity}` (the README's quirk):
 * Purser sends `{id, quantity}`.
 */
export function acpItems(lines: CartLine[]) {
  return lines.map((line) => ({ id: line.product_id, quantity: line.qty }));
}

/** How the quote's not-yet-final ceiling is computed (docs/acp.md, "Quotes and the ceiling"). */
export interface CeilingRule {
  /** Headroom over the priced part, in basis points, for tax and shipping still to come. */
  marginBps: number;
  /** ...and at least this many cents of headroom. */
  minimumMarginCents: number;
}

export const DEFAULT_CEILING_RULE: CeilingRule = { marginBps: 2500, minimumMarginCents: 500 };

/**
 * A checkout session as Purser's quote. Items come from the session's lines (unit prices as the
 * merchant states them); fees are `fee` and `gift_wrap` totals, tips `tip`. The session is final
 * when the merchant is `ready_for_payment` for a delivery address: the total then includes tax and
 * shipping and there is no ceiling. Before that, the total is items + fees + tip and the ceiling
 * adds the tax and shipping shown so far plus headroom (`CeilingRule`).
 */
export function quoteFromSession(
  session: AcpSession,
  requested: CartLine[],
  address: DeliveryAddress | null,
  rule: CeilingRule = DEFAULT_CEILING_RULE,
): Quote {
  const outOfStockParams = new Set(
    errorMessages(session)
      .filter((m) => m.code === 'out_of_stock' && m.param)
      .map((m) => m.param as string),
  );
  const unavailable = new Set<string>();
  const items: Quote['items'] = [];
  session.line_items.forEach((line, index) => {
    const productId = line.item.id;
    const soldOut =
      line.availability_status === 'out_of_stock' ||
      outOfStockParams.has(`$.line_items[${index}]`) ||
      outOfStockParams.has(`$.line_items[${index}].quantity`);
    if (soldOut) {
      unavailable.add(productId);
      return;
    }
    const base = totalOf(line.totals, 'items_base_amount');
    const priceCents = line.unit_amount ?? line.item.unit_amount ?? Math.round(base / line.quantity);
    items.push({
      product_id: productId,
      name: line.name ?? line.item.name ?? productId,
      qty: line.quantity,
      priceCents,
    });
  });
  for (const line of requested) {
    if (!session.line_items.some((l) => l.item.id === line.product_id)) unavailable.add(line.product_id);
  }
  const itemsCents = items.reduce((sum, item) => sum + item.priceCents * item.qty, 0);
  const serviceFeesCents = totalOf(session.totals, 'fee') + totalOf(session.totals, 'gift_wrap');
  const tipCents = totalOf(session.totals, 'tip');
  const taxCents = totalOf(session.totals, 'tax');
  const shippingCents = totalOf(session.totals, 'fulfillment');
  const taxAndShipping = taxCents + shippingCents;
  const priced = itemsCents + serviceFeesCents + tipCents;
  const final = session.status === 'ready_for_payment' && address !== null;
  const headroom = Math.max(Math.ceil((priced * rule.marginBps) / 10_000), rule.minimumMarginCents);
  return {
    items,
    serviceFeesCents,
    tipCents,
    taxCents: final ? taxCents : null,
    shippingCents: final ? shippingCents : null,
    totalCents: final ? priced + taxAndShipping : priced,
    approvedCeilingCents: final ? null : priced + taxAndShipping + headroom,
    currency: session.currency.toLowerCase(),
    unavailable: [...unavailable],
    merchantRef: session.id,
  };
}

/**
 * A product feed entry, in the field names of ACP's product feed specification (`id`, `title`,
 * `price` as "12.99 USD", `availability`). The 2026-04-17 checkout API has no catalog endpoint:
 * Purser reads the feed as JSON `{products: [...]}` from `GET <acp_url>/product_feed`.
 */
export function productFromFeed(entry: unknown): Product | null {
  if (!isObject(entry) || typeof entry.id !== 'string' || typeof entry.title !== 'string') return null;
  if (typeof entry.price !== 'string') return null;
  const match = /^(\d+)(?:\.(\d+))?\s+([A-Za-z]{3})$/.exec(entry.price.trim());
  if (!match) return null;
  const currency = match[3]!.toLowerCase();
  const digits = minorUnitDigits(currency);
  const fraction = (match[2] ?? '').padEnd(digits, '0');
  if (fraction.length > digits) return null;
  const priceCents = Number(match[1]) * 10 ** digits + (digits > 0 ? Number(fraction) : 0);
  if (!Number.isSafeInteger(priceCents)) return null;
  return {
    product_id: entry.id,
    name: entry.title,
    priceCents,
    currency,
    in_stock: entry.availability === undefined || entry.availability === 'in_stock',
  };
}

/** Plain-text relevance: how many of the query's words the name contains (0 = no match). */
export function searchScore(query: string, name: string): number {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);
  const haystack = name.toLowerCase();
  return words.filter((word) => haystack.includes(word)).length;
}
