import { type Clock, isoTime } from '../../core/clock.ts';
import { Refusal } from '../../core/refusal.ts';
import { isLivemode, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import { type CardService, cardInScope, cardTransactionById, type EventEmitter } from '../cards/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { PurchaseConfig } from './config.ts';
import { UNFULFILLED } from './fulfillment.ts';
import type { PurchaseRefusalCode } from './index.ts';
import type { PurchaseMandates } from './mandate-port.ts';
import type { PlaceResult } from './merchants/merchant.ts';
import { transactionIdOf } from './order-states.ts';
import type { Order } from './store.ts';
import * as store from './store.ts';

/** What ending an order moves and tells: the card, the books, the events and the mandate's receipt. */
export interface OrderEndsDeps {
  cards: CardService;
  ledger: LedgerService;
  events: EventEmitter;
  mandates: PurchaseMandates;
}

/**
 * How an order past its card ends (the last steps of checkout.ts's state machine), from the
 * merchant's answer at the confirm or from the worker's lookup later: placed, its charge cleared at
 * the final amount with `order.placed`; failed, nothing charged, its authorization voided and its
 * card closed; or, the answer unknown, left for the worker's next look. Each end is one transaction
 * with its money and its events, and only the first process to move the order ends it.
 */
export class OrderEnds {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: PurchaseConfig,
    private readonly deps: OrderEndsDeps,
  ) {}

  /**
   * Ends a `card_issued` order as the merchant's answer says. `mandateId`: the mandate its card is
   * held to, when the caller knows it (else read from the card).
   */
  async conclude(order: Order, result: PlaceResult, mandateId?: string | null): Promise<Order> {
    if (result.outcome === 'unknown') {
      const now = this.clock.now();
      await store.moveOrder(this.db, order.id, 'card_issued', 'merchant_unknown', {
        charge_status: 'unknown',
        next_check_at: now + this.config.resolveRetryMs,
        updated_at: now,
      });
      return (await store.orderById(this.db, order.id)) as Order;
    }
    if (result.outcome === 'declined')
      return this.fail(order.id, 'card_issued', await this.declineCodeOf(order, result.code));
    return this.settle(order, result, mandateId);
  }

  /** A merchant's decline, named after the engine's reason when the spending controls declined the charge. */
  private async declineCodeOf(
    order: Order,
    code: Extract<PlaceResult, { outcome: 'declined' }>['code'],
  ): Promise<string> {
    if (code === 'payment_declined') {
      const txn = await cardTransactionById(this.db, transactionIdOf(order.id));
      if (txn?.decline_reason === 'MANDATE_EXCEEDED') return MANDATE_EXCEEDED;
      if (txn?.spending_control) return SPENDING_CONTROLS;
    }
    return declineCode(code);
  }

  /** Clears the charge at the final amount (the rest of the hold goes home) with `order.placed`. */
  private async settle(
    order: Order,
    placed: Extract<PlaceResult, { outcome: 'placed' }>,
    knownMandateId?: string | null,
  ): Promise<Order> {
    const scope = tenantOf(order);
    const txnId = transactionIdOf(order.id);
    const mandateId = knownMandateId === undefined ? await this.mandateOf(order) : knownMandateId;
    const termsHash = mandateId ? await this.deps.mandates.termsHash(mandateId) : null;
    // The order as this settle moved it (none when another process concluded it first).
    let settled: Order | undefined;
    const record = async (trx: Executor) => {
      const now = this.clock.now();
      const moved = await store.moveOrder(
        trx,
        order.id,
        'card_issued',
        placed.confirmed ? 'placed_confirmed' : 'placed',
        {
          charge_status: 'settled',
          fulfillment_status: UNFULFILLED,
          final_cents: placed.finalCents,
          merchant_order_id: placed.merchantOrderId,
          next_check_at: null,
          placed_at: now,
          confirmed_at: placed.confirmed ? now : null,
          updated_at: now,
        },
      );
      if (!moved) throw orderMoved();
      const data = {
        order_id: order.id,
        conversation_id: order.conversation_id,
        user_id: order.user_id,
        merchant: order.merchant,
        total_cents: placed.finalCents,
        currency: order.currency,
        card_id: order.card_id,
      };
      // Under a mandate: the signed receipt of what was bought, kept and carried by `order.placed`.
      const receipt =
        mandateId && termsHash
          ? await this.deps.mandates.receipt(trx, scope, {
              mandate_id: mandateId,
              terms_hash: termsHash,
              cart_hash: order.cart_hash,
              order_id: order.id,
              amount_cents: placed.finalCents,
              currency: order.currency,
              merchant: order.merchant,
              placed_at: isoTime(now),
            })
          : null;
      await orderEvent(this.deps.events, trx, order, 'order.placed', {
        ...data,
        mandate_id: mandateId,
        receipt,
      });
      if (placed.confirmed)
        await orderEvent(this.deps.events, trx, order, 'order.confirmed', {
          ...data,
          merchant_order_id: placed.merchantOrderId,
        });
      failpoint(this.config, 'settle');
      settled = moved;
    };
    let txn = await cardTransactionById(this.db, txnId);
    if (!txn && order.card_id) {
      // The merchant charged, but the process died before the charge was recorded: record it now.
      await this.deps.cards.network.authorize(scope, order.card_id, {
        transactionId: txnId,
        amountCents: placed.finalCents,
        merchant: order.merchant_name,
        merchantSlug: order.merchant,
      });
      txn = await cardTransactionById(this.db, txnId);
    }
    try {
      if (txn?.status === 'PENDING') {
        await this.deps.cards.network.clear(scope, txnId, placed.finalCents, record);
      } else {
        await this.deps.ledger.transaction(record);
      }
    } catch (error) {
      if (!(error instanceof Refusal && error.code === 'order_moved')) throw error;
      settled = undefined;
    }
    return settled ?? ((await store.orderById(this.db, order.id)) as Order);
  }

  /**
   * Ends an order with nothing charged: an open authorization is voided and the card closed, its
   * money back in the wallet, in one transaction with the order's end.
   */
  async fail(id: string, from: Order['step'], code: string): Promise<Order> {
    const order = (await store.orderById(this.db, id)) as Order;
    const scope = tenantOf(order);
    const txnId = transactionIdOf(id);
    const txn = await cardTransactionById(this.db, txnId);
    if (txn?.status === 'PENDING') await this.deps.cards.network.void(scope, txnId).catch(() => {});
    await this.deps.ledger
      .transaction(async (trx) => {
        // The card's row before the order's: the order a clearing that settles the order takes them in.
        const card = order.card_id ? await this.deps.cards.lockCard(trx, scope, order.card_id) : null;
        const now = this.clock.now();
        const moved = await store.moveOrder(trx, id, from, 'failed', {
          charge_status: 'none',
          decline_code: code,
          placement_key: null,
          next_check_at: null,
          updated_at: now,
        });
        if (!moved) throw orderMoved();
        if (card && card.status !== 'CLOSED') {
          await this.deps.cards.lockBooks(trx, card, { owner: true });
          await this.deps.cards.closeLocked(trx, card, 'manual');
        }
      })
      .catch((error) => {
        if (!(error instanceof Refusal && error.code === 'order_moved')) throw error;
      });
    return (await store.orderById(this.db, id)) as Order;
  }

  /** The mandate an order was placed under: its card's (an order's card never changes mandate). */
  private async mandateOf(order: Order): Promise<string | null> {
    if (!order.card_id) return null;
    const card = await cardInScope(this.db, order.organization_id, order.livemode, order.card_id);
    return card?.mandate_id ?? null;
  }
}

/** An order's event, in the caller's transaction. */
export function orderEvent(
  events: EventEmitter,
  trx: Executor,
  order: Order,
  type: string,
  data: Record<string, unknown>,
) {
  return events.emit(trx, {
    organizationId: order.organization_id,
    livemode: isLivemode(order.livemode),
    type,
    data,
  });
}

/** Crash tests: die at this step, before its transaction commits (config.failpoint). */
export function failpoint(config: PurchaseConfig, step: 'order' | 'card' | 'charge' | 'settle'): void {
  if (config.failpoint === `purchases.${step}`) process.kill(process.pid, 'SIGKILL');
}

/** Another process (the worker, or a second confirm) concluded the order first: this one stops. */
const orderMoved = () =>
  new Refusal<PurchaseRefusalCode>('order_moved', 'The order was concluded by another process.');

/** `decline_code` of a cart the spending controls refused: nothing was charged. */
export const SPENDING_CONTROLS = 'spending_controls';

/** `decline_code` of a cart outside the terms of the mandate it was bought under: nothing was charged. */
export const MANDATE_EXCEEDED = 'mandate_exceeded';

function declineCode(code: Extract<PlaceResult, { outcome: 'declined' }>['code']): string {
  return code === 'merchant_error' ? 'merchant_unavailable' : code;
}
