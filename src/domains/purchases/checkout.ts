import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { isRefusal } from '../../core/refusal.ts';
import { livemodeColumn, tenantOf } from '../../core/tenant.ts';
import { type Db, isUniqueViolation } from '../../db/index.ts';
import { type CardService, cardInScope } from '../cards/index.ts';
import type { VaultService } from '../vault/index.ts';
import type { AcpOrderEvent } from './acp-webhook-routes.ts';
import { authorizedCents, cartObject, placementKey, type StoredCart } from './cart.ts';
import type { PurchaseConfig } from './config.ts';
import { MerchantOrderEvents } from './merchant-events.ts';
import type {
  CartLine,
  DelegatedCard,
  DeliveryAddress,
  Merchant,
  PlaceResult,
} from './merchants/merchant.ts';
import { failpoint, OrderEnds, type OrderEndsDeps, orderEvent, SPENDING_CONTROLS } from './order-ends.ts';
import { transactionIdOf } from './order-states.ts';
import type { Order } from './store.ts';
import * as store from './store.ts';

export { transactionIdOf } from './order-states.ts';

/** Where a confirmed cart ended, as the envelope and `placements` report it. */
export interface Placement {
  merchant: string;
  hash: string;
  status: 'placed' | 'declined';
  order_id: string | null;
  decline_code: string | null;
  charge_status: Order['charge_status'];
  /** What paid for a placed order (`payment_source`). */
  paid_with: PaymentSource | null;
}

/** `payment_source` of the `/buy` envelope (spec §5). */
export interface PaymentSource {
  source: string;
  brand: string;
  last4: string;
}

export interface Buyer {
  organizationId: string;
  livemode: boolean;
  clientId: string;
  /** The connected user, or a buy token's cardholder. */
  buyerId: string;
  /** Whose wallet pays: the user (for a buy token, the cardholder's linked user), or null. */
  userId: string | null;
}

/**
 * The confirm of one cart: an order, the state machine that charges for it exactly once.
 *
 * | step        | what happens                                                  | next        |
 * |-------------|---------------------------------------------------------------|-------------|
 * | created     | order row written (placement key unique per cart), and in the | card_issued |
 * | card_issued | same transaction its single-use card for the ceiling, funded  | placed/done |
 * |             | from the wallet (refused before the card: written failed)     |             |
 * | (merchant)  | the merchant charges the card through the authorization engine |            |
 * | done        | cleared at the final amount with `order.placed` (placed), or  |             |
 * |             | the card closed and its money home (failed, `charge_status` none) |         |
 *
 * Every step is its own transaction with its money move and events; the last one, the order's end,
 * is order-ends.ts's. A process that dies between steps leaves the order `pending` with
 * `next_check_at` set: the worker resolves it (`resolveDue`) from what the merchant says, to one
 * placed order and one settled charge, or no order and no charge. Ids derive from the order id (`card_…`, `txn_…`), so every retried step is the same one.
 */
export class Checkout {
  private readonly merchantEvents: MerchantOrderEvents;
  /** How an order past its card ends (order-ends.ts). */
  private readonly ends: OrderEnds;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: PurchaseConfig,
    private readonly deps: OrderEndsDeps & {
      /** The user's own cards (an order placed on approval names the one that paid). */
      vault: VaultService;
      merchant: (slug: string) => Promise<Merchant | null>;
    },
  ) {
    this.merchantEvents = new MerchantOrderEvents(db, clock, {
      cards: deps.cards,
      emit: (trx, order, type, data) => orderEvent(deps.events, trx, order, type, data),
    });
    this.ends = new OrderEnds(db, clock, config, deps);
  }

  /**
   * A merchant's order webhook (ACP, docs/acp.md): confirms and moves the placed order, and refunds
   * it, each once (merchant-events.ts).
   */
  merchantOrderEvent(merchant: string, event: AcpOrderEvent): Promise<void> {
    return this.merchantEvents.handle(merchant, event);
  }

  /**
   * Places the cart; a cart already placed or being placed answers with that order. `mandateId`: the
   * spending mandate it is bought under (its card is held to the mandate: the engine takes the charge
   * from the budget with the hold, and the order gets a receipt).
   */
  async place(
    buyer: Buyer & { userId: string },
    conversationId: string,
    cart: StoredCart,
    merchant: Merchant,
    address: DeliveryAddress | null,
    mandateId: string | null = null,
  ): Promise<Placement> {
    return (await this.placeOrder(buyer, conversationId, cart, merchant, address, mandateId)).placement;
  }

  /** `place`, with the order as it ended (or the one already placed or being placed). */
  async placeOrder(
    buyer: Buyer & { userId: string },
    conversationId: string,
    cart: StoredCart,
    merchant: Merchant,
    address: DeliveryAddress | null,
    mandateId: string | null,
  ): Promise<{ placement: Placement; order: Order }> {
    const now = this.clock.now();
    const id = newId('ord');
    const order: Order = {
      id,
      organization_id: buyer.organizationId,
      livemode: livemodeColumn(buyer.livemode),
      conversation_id: conversationId,
      buyer_id: buyer.buyerId,
      user_id: buyer.userId,
      client_id: buyer.clientId,
      merchant: cart.merchant,
      merchant_name: cart.merchant_name,
      cart: JSON.stringify({ ...cartObject(cart), lines: cart.lines, address }),
      cart_hash: cart.hash,
      placement_key: placementKey(conversationId, cart),
      currency: cart.quote.currency,
      total_cents: cart.quote.totalCents,
      authorized_cents: authorizedCents(cart),
      final_cents: null,
      status: 'pending',
      charge_status: 'confirming',
      fulfillment_status: null,
      step: 'created',
      decline_code: null,
      card_id: null,
      merchant_order_id: null,
      merchant_ref: cart.quote.merchantRef,
      // Should this process die, the worker takes the order over once the grace has passed.
      next_check_at: now + this.config.confirmGraceMs,
      placed_at: null,
      confirmed_at: null,
      created_at: now,
      updated_at: now,
    };

    // The user's spending controls decide before any money moves (the engine decides again at the charge).
    if (await this.refusedByControls(buyer, order, merchant)) return this.refused(order, SPENDING_CONTROLS);

    const cardId = `card_${id.slice('ord_'.length)}`;
    let issued: Awaited<ReturnType<CardService['createPurchaseCard']>>;
    try {
      issued = await this.deps.cards.createPurchaseCard(
        buyer.clientId,
        buyer,
        {
          user_id: buyer.userId,
          amount_cents: order.authorized_cents,
          memo: `${cart.merchant_name} order ${id}`,
        },
        {
          id: cardId,
          mandateId,
          // The order's row is written in the card's transaction, which funds it: both or neither.
          onCommit: async (trx) => {
            await store.insertOrder(trx, order);
            failpoint(this.config, 'order');
            // Moves the row just written, in this transaction: nothing else can have moved it.
            await store.moveOrder(trx, id, 'created', 'card_issued', {
              card_id: cardId,
              updated_at: now,
            });
            failpoint(this.config, 'card');
          },
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) return this.placedAlready(order, error);
      // The card domain's refusals: a card it would not issue.
      if (!isRefusal(error)) throw error;
      const code =
        error.code === 'insufficient_funds' || error.code === 'kyc_required'
          ? error.code
          : 'card_unavailable';
      return this.refused(order, code);
    }

    const result = await this.atMerchant(
      order,
      { cardId, ...issued.delegated },
      cart.lines,
      merchant,
      address,
    );
    const ended = await this.ends.conclude(
      { ...order, step: 'card_issued', card_id: cardId },
      result,
      mandateId,
    );
    return this.ended(ended, issued.card.last4);
  }

  /**
   * An order refused before its card was issued: written as failed (nothing was charged), so that
   * the conversation's orders show it, as a confirm that got further would be.
   */
  private async refused(order: Order, code: string): Promise<{ placement: Placement; order: Order }> {
    let failed: Order | undefined;
    try {
      failed = await this.deps.ledger.transaction(async (trx) => {
        await store.insertOrder(trx, order);
        return store.moveOrder(trx, order.id, 'created', 'failed', {
          charge_status: 'none',
          decline_code: code,
          placement_key: null,
          next_check_at: null,
          updated_at: this.clock.now(),
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return this.placedAlready(order, error);
      throw error;
    }
    return this.ended(failed as Order);
  }

  /** A cart already placed or being placed (its placement key is taken): that order answers. */
  private async placedAlready(
    order: Order,
    violation: unknown,
  ): Promise<{ placement: Placement; order: Order }> {
    const existing = await store.orderByPlacementKey(this.db, order.placement_key as string);
    if (!existing) throw violation;
    return this.ended(existing);
  }

  /** The placement of an order as it ended; `last4`: its card's, when known (else read). */
  private async ended(order: Order, last4?: string): Promise<{ placement: Placement; order: Order }> {
    return { placement: await this.placement(order, last4), order };
  }

  /**
   * The worker's sweep: orders pending past their `next_check_at` (their confirm died, or the
   * merchant did not answer) are resolved from what the merchant says. Returns how many it ended.
   */
  async resolveDue(limit = 50): Promise<number> {
    let ended = 0;
    for (const order of await store.dueOrders(this.db, this.clock.now(), limit)) {
      const after = await this.resolve(order).catch(() => null);
      if (after && after.status !== 'pending') ended++;
    }
    return ended;
  }

  private async resolve(order: Order): Promise<Order> {
    if (order.step === 'created') return this.ends.fail(order.id, 'created', 'interrupted');
    const merchant = await this.deps.merchant(order.merchant);
    const found = merchant
      ? await merchant.lookup(order.id, order.merchant_ref).catch((error: Error) => ({
          outcome: 'unknown' as const,
          detail: error.message,
        }))
      : ({ outcome: 'absent' } as const);
    if (found.outcome === 'absent') {
      if (merchant && order.merchant_ref) await merchant.cancel(order.merchant_ref).catch(() => {});
      return this.ends.conclude(order, {
        outcome: 'declined',
        code: 'merchant_error',
        detail: 'never placed',
      });
    }
    if (found.outcome === 'unknown' && this.clock.now() - order.created_at >= this.config.resolveWithinMs) {
      // Past the bound: the order is given up and its money returned (docs/purchases.md).
      if (merchant && order.merchant_ref) await merchant.cancel(order.merchant_ref).catch(() => {});
      return this.ends.conclude(order, { outcome: 'declined', code: 'merchant_error', detail: found.detail });
    }
    return this.ends.conclude(order, found);
  }

  /** The merchant's part: charge the delegated card, place the order. */
  private async atMerchant(
    order: Order,
    card: Omit<DelegatedCard, 'allowance'>,
    lines: CartLine[],
    merchant: Merchant,
    address: DeliveryAddress | null,
  ): Promise<PlaceResult> {
    const scope = tenantOf(order);
    const { cardId } = card;
    try {
      return await merchant.place({
        orderId: order.id,
        lines,
        expectedTotalCents: order.total_cents,
        ceilingCents: order.authorized_cents,
        currency: order.currency,
        address,
        merchantRef: order.merchant_ref,
        card: {
          ...card,
          allowance: {
            maxAmountCents: order.authorized_cents,
            currency: order.currency,
            expiresAt: new Date(this.clock.now() + this.config.resolveWithinMs).toISOString(),
          },
        },
        charge: async (amountCents) => {
          if (amountCents > order.authorized_cents)
            return { approved: false, declineReason: 'SPEND_LIMIT_EXCEEDED' };
          const txn = await this.deps.cards.network.authorize(scope, cardId, {
            transactionId: transactionIdOf(order.id),
            amountCents,
            merchant: order.merchant_name,
            merchantSlug: order.merchant,
            mcc: merchant.info.mcc,
            merchantCountry: merchant.info.country,
          });
          failpoint(this.config, 'charge');
          return txn.status === 'PENDING' || txn.status === 'SETTLED'
            ? { approved: true, transactionId: txn.id }
            : { approved: false, declineReason: txn.decline_reason ?? 'DECLINED' };
        },
      });
    } catch (error) {
      return { outcome: 'unknown', detail: (error as Error).message };
    }
  }

  /** Whether the user's spending controls refuse the cart's ceiling at this merchant. */
  private async refusedByControls(buyer: Buyer & { userId: string }, order: Order, merchant: Merchant) {
    const owner = { organization_id: order.organization_id, livemode: order.livemode, user_id: buyer.userId };
    const charge = {
      amountCents: order.authorized_cents,
      mcc: merchant.info.mcc,
      merchantCountry: merchant.info.country,
    };
    return (await this.deps.cards.controls.refusalAhead(owner, charge)) !== null;
  }

  /** Where an order stands, as a confirm answers it; `last4`: its card's, when the caller knows it. */
  async placement(order: Order, last4?: string): Promise<Placement> {
    const placed = order.status === 'placed' || order.status === 'confirmed';
    const [cardLast4, ownCard] = placed
      ? await Promise.all([this.last4Of(order, last4), this.approvedCardOf(order)])
      : [null, null];
    // The wallet paid, through the order's card, unless the user's own card funded it on approval.
    const paidWith = ownCard ?? (cardLast4 ? { source: 'balance', brand: 'visa', last4: cardLast4 } : null);
    return {
      merchant: order.merchant,
      hash: order.cart_hash,
      status: placed ? 'placed' : 'declined',
      order_id: order.id,
      decline_code: placed
        ? null
        : order.status === 'failed'
          ? order.decline_code
          : order.charge_status === 'unknown'
            ? 'merchant_unavailable'
            : 'in_progress',
      charge_status: order.charge_status,
      paid_with: placed ? paidWith : null,
    };
  }

  private async last4Of(order: Order, known: string | undefined): Promise<string | null> {
    if (!order.card_id) return null;
    if (known !== undefined) return known;
    const card = await cardInScope(this.db, order.organization_id, order.livemode, order.card_id);
    return card?.last4 ?? null;
  }

  /**
   * The user's own card that paid for an order placed on their approval (`payment_source` `vault`
   * or `added_card`), if one did.
   */
  private async approvedCardOf(order: Order): Promise<PaymentSource | null> {
    const approval = await store.cardApprovalOf(this.db, order.id);
    const card = approval ? await this.deps.vault.card(approval.vault_card_id) : null;
    return approval && card ? { source: approval.source, brand: card.brand, last4: card.last4 } : null;
  }
}
