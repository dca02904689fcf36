import type { Order } from './store.ts';

/**
 * The order state machine (docs/purchases.md, "Exactly once"), as one table. An order moves by its
 * `step` (the charge's progress, compared-and-set by the store) and shows a `status`; every change
 * of either goes through `orderTransition`, and a move with no row here is refused.
 */

export type OrderStep = Order['step'];
export type OrderStatus = Order['status'];

export type OrderMove =
  /** The card for the cart was issued (in the ledger transaction that funds it). */
  | 'card_issued'
  /** The merchant did not answer: the worker asks again later; nothing moves yet. */
  | 'merchant_unknown'
  /** The merchant placed the order; `placed_confirmed` when it also confirmed it at once. */
  | 'placed'
  | 'placed_confirmed'
  /** Declined, refused or given up: nothing stays charged. */
  | 'failed'
  /** The merchant confirmed a placed order later (its webhook or a poll). */
  | 'merchant_confirmed';

export interface OrderTransition {
  from: { step: OrderStep; status: OrderStatus };
  move: OrderMove;
  to: { step: OrderStep; status: OrderStatus };
}

export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  {
    from: { step: 'created', status: 'pending' },
    move: 'card_issued',
    to: { step: 'card_issued', status: 'pending' },
  },
  { from: { step: 'created', status: 'pending' }, move: 'failed', to: { step: 'done', status: 'failed' } },
  {
    from: { step: 'card_issued', status: 'pending' },
    move: 'merchant_unknown',
    to: { step: 'card_issued', status: 'pending' },
  },
  {
    from: { step: 'card_issued', status: 'pending' },
    move: 'placed',
    to: { step: 'done', status: 'placed' },
  },
  {
    from: { step: 'card_issued', status: 'pending' },
    move: 'placed_confirmed',
    to: { step: 'done', status: 'confirmed' },
  },
  {
    from: { step: 'card_issued', status: 'pending' },
    move: 'failed',
    to: { step: 'done', status: 'failed' },
  },
  {
    from: { step: 'done', status: 'placed' },
    move: 'merchant_confirmed',
    to: { step: 'done', status: 'confirmed' },
  },
];

/** Where this move takes an order at this step, or null when the table has no such row. */
export function orderTransition(
  from: OrderStep,
  move: OrderMove,
): { from: { step: OrderStep; status: OrderStatus }; to: { step: OrderStep; status: OrderStatus } } | null {
  const row = ORDER_TRANSITIONS.find((t) => t.from.step === from && t.move === move);
  return row ? { from: row.from, to: row.to } : null;
}

/** The network transaction of an order's one charge (ids derive from the order id, so a retried step is the same one). */
export function transactionIdOf(orderId: string): string {
  return `txn_${orderId.slice('ord_'.length)}`;
}
