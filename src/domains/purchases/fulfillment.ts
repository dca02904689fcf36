import type { Order } from './store.ts';

/**
 * Where a placed order's goods are, as its merchant reports them (docs/purchases.md "Fulfillment").
 * Purser's own word, not a copy of the merchant's: ACP's `Order.status` values are mapped once
 * here, and values a later protocol release adds are accepted and change nothing.
 */
export type FulfillmentStatus = NonNullable<Order['fulfillment_status']>;

export const FULFILLMENT_STATUSES = [
  'unfulfilled',
  'processing',
  'shipped',
  'completed',
  'canceled',
] as const satisfies readonly FulfillmentStatus[];

/** Every order starts here once placed. */
export const UNFULFILLED: FulfillmentStatus = 'unfulfilled';

/** ACP `Order.status` (openapi.agentic_checkout.yaml) → fulfillment. */
const FROM_ACP: Readonly<Record<string, FulfillmentStatus>> = {
  created: 'unfulfilled',
  confirmed: 'unfulfilled',
  manual_review: 'processing',
  processing: 'processing',
  shipped: 'shipped',
  completed: 'completed',
  canceled: 'canceled',
};

/**
 * The moves, forward only: merchants send events out of order and repeat them, so a `processing`
 * arriving after `shipped` changes nothing. `canceled` ends whatever was not yet completed.
 */
const NEXT: Readonly<Record<FulfillmentStatus, readonly FulfillmentStatus[]>> = {
  unfulfilled: ['processing', 'shipped', 'completed', 'canceled'],
  processing: ['shipped', 'completed', 'canceled'],
  shipped: ['completed', 'canceled'],
  completed: [],
  canceled: [],
};

/** The fulfillment an ACP order status means, or null for a status this build does not know. */
export function fulfillmentOfAcp(status: string): FulfillmentStatus | null {
  return Object.hasOwn(FROM_ACP, status) ? (FROM_ACP[status] as FulfillmentStatus) : null;
}

/** The states from which an order may move to `to` (the guard of one conditional update). */
export function fulfillmentPredecessors(to: FulfillmentStatus): FulfillmentStatus[] {
  return (Object.keys(NEXT) as FulfillmentStatus[]).filter((from) => NEXT[from].includes(to));
}
