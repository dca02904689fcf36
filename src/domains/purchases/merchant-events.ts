import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { CardService } from '../cards/index.ts';
import type { AcpOrderEvent } from './acp-webhook-routes.ts';
import { fulfillmentOfAcp, fulfillmentPredecessors, UNFULFILLED } from './fulfillment.ts';
import type { PurchaseRefusalCode } from './index.ts';
import { transactionIdOf } from './order-states.ts';
import type { Order } from './store.ts';
import * as store from './store.ts';

/** What happens to a placed order after its confirm: the merchant's order events (checkout.ts is the door). */
export class MerchantOrderEvents {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly deps: {
      cards: CardService;
      /** The order's event, written in the caller's transaction (checkout.ts `emit`). */
      emit: (trx: Executor, order: Order, type: string, data: Record<string, unknown>) => Promise<unknown>;
    },
  ) {}

  /**
   * A merchant's order webhook (ACP, docs/acp.md), its order found by the checkout session: an order
   * the merchant accepted becomes confirmed (`order.confirmed`, once), and its fulfillment moves
   * forward (`order.updated`, once per move). Merchants repeat and reorder events: each change is a
   * conditional update, so a repeat or a step back changes nothing.
   */
  async handle(merchant: string, event: AcpOrderEvent): Promise<void> {
    await this.orderStatusEvent(merchant, event);
    if (event.refunds.length > 0) await this.merchantRefunds(merchant, event);
  }

  /**
   * The order's completed refunds, each once (its id names the refund transaction), through the
   * cards' one refund: to the wallet, or the company pool for a company-funded card, since the
   * order's single-use card is closed by then; never more than the charge settled.
   */
  private async merchantRefunds(merchant: string, event: AcpOrderEvent): Promise<void> {
    const order = await store.orderByMerchantRef(this.db, merchant, event.checkoutSessionId);
    if (order?.status === 'pending') throw orderNotPlaced();
    if (!order?.card_id || (order.status !== 'placed' && order.status !== 'confirmed')) return;
    const scope = { organizationId: order.organization_id, livemode: order.livemode === 1 };
    const charge = transactionIdOf(order.id);
    for (const refund of event.refunds) {
      const id = `${charge}_refund_${createHash('sha256').update(refund.id).digest('hex').slice(0, 16)}`;
      try {
        await this.deps.cards.network.refund(scope, charge, {
          id,
          amountCents: refund.amountCents,
          atMost: true,
        });
      } catch (error) {
        // Refunded in full already (by the issuer, or refunds adding up to more): nothing is left to give.
        if (!(error instanceof Refusal && error.code === 'transaction_refunded')) throw error;
      }
    }
  }

  private async orderStatusEvent(merchant: string, event: AcpOrderEvent): Promise<void> {
    const confirms = CONFIRMED_STATUSES.has(event.status);
    const fulfillment = fulfillmentOfAcp(event.status);
    const moves = fulfillment !== null && fulfillment !== UNFULFILLED;
    if (!confirms && !moves) return;
    const order = await store.orderByMerchantRef(this.db, merchant, event.checkoutSessionId);
    // Still being placed (the merchant's answer to complete is on its way): not yet, so that the
    // merchant sends the event again rather than it being lost.
    if (order?.status === 'pending') throw orderNotPlaced();
    if (!order || (order.status !== 'placed' && order.status !== 'confirmed')) return;
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const merchantOrderId = event.orderId ?? order.merchant_order_id;
      const data = {
        order_id: order.id,
        conversation_id: order.conversation_id,
        user_id: order.user_id,
        merchant: order.merchant,
        total_cents: order.final_cents ?? order.total_cents,
        currency: order.currency,
        card_id: order.card_id,
        merchant_order_id: merchantOrderId,
      };
      const confirmed = confirms && (await store.confirmOrder(trx, order.id, merchantOrderId, now));
      if (confirmed) await this.deps.emit(trx, order, 'order.confirmed', data);
      if (!moves) return;
      const from = fulfillmentPredecessors(fulfillment);
      if (!(await store.moveFulfillment(trx, order.id, from, fulfillment, now))) return;
      await this.deps.emit(trx, order, 'order.updated', {
        ...data,
        status: confirmed ? 'confirmed' : order.status,
        fulfillment_status: fulfillment,
        permalink_url: event.permalink,
      });
    });
  }
}

/** ACP order statuses that mean the merchant accepted the order (openapi.agentic_checkout_webhook.yaml). */
const CONFIRMED_STATUSES = new Set(['confirmed', 'processing', 'shipped', 'completed']);

/** A merchant event for an order whose confirm has not finished: the merchant should send it again. */
const orderNotPlaced = () =>
  new Refusal<PurchaseRefusalCode>(
    'order_not_placed',
    'The order is still being placed; send the event again shortly.',
  );
