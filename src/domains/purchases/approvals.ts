import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Clock } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { formatMoney } from '../../core/money.ts';
import { Refusal } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { CheckoutAuthorizationsTable } from '../../db/schema.ts';
import type { CardService, EventEmitter } from '../cards/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { VaultCardView, VaultService } from '../vault/index.ts';
import { type AuthorizationMove, authorizationTransition } from './authorization-states.ts';
import { authorizedCents, type CartObject, cartObject, placementKey, type StoredCart } from './cart.ts';
import type { Buyer, Checkout, Placement } from './checkout.ts';
import { type ConversationState, stamp } from './conversation.ts';
import type { PurchaseRefusalCode } from './index.ts';
import type { DeliveryAddress, Merchant } from './merchants/merchant.ts';
import type { Order } from './store.ts';
import * as store from './store.ts';

export type Authorization = CheckoutAuthorizationsTable;
/**
 * Why a confirm waits for the user: the payment source, the organization's threshold, or a cart
 * outside the terms of the user's mandate for the app when the organization asks for approval then
 * (`mandate_overflow: approval`, docs/mandates.md).
 */
export type ApprovalReason = 'vault' | 'added_card' | 'threshold' | 'mandate';

/** The envelope's `decline_code` of a confirm paused for approval (spec §2). */
export function approvalDeclineCode(reason: ApprovalReason): string {
  return reason === 'added_card' ? 'byoc_approval_required' : 'vault_approval_required';
}

/** An approval link token: `apv_` and 256 bits from the CSPRNG, base62. */
const TOKEN = /^apv_[0-9A-Za-z]{43}$/;

export type ApprovalProblem = 'not_found' | 'expired';

export interface ApprovalView {
  authorization: Authorization;
  cart: CartObject;
  /** The authorization is past its time but the worker has not recorded it yet: shown as expired. */
  status: Authorization['status'];
  card: VaultCardView | null;
  hasPasskey: boolean;
  order: Order | null;
}

/**
 * Checkout authorizations (docs/purchases.md, Approvals): a `/buy` confirm that needs the user's
 * approval (paying from the vault or an added card, or above the organization's threshold) is
 * written here instead of being placed, and answered with `approval_url`: a hosted page where the
 * user approves or declines with their passkey. Approval places exactly the stored cart through the
 * same path as a balance confirm; decline and expiry charge nothing.
 *
 * | from    | by                                   | to       | event                               |
 * |---------|--------------------------------------|----------|-------------------------------------|
 * | pending | the user's passkey, approve          | approved | checkout_authorization.approved     |
 * | pending | the user's passkey, decline          | declined | checkout_authorization.declined     |
 * | pending | the worker, past `expires_at`        | expired  | checkout_authorization.expired      |
 * | pending | a new confirm of the same cart       | expired  | checkout_authorization.expired      |
 */
export class Approvals {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: { baseUrl: string; approvalTtlMs: number; turnTimeoutMs: number },
    private readonly checkout: Checkout,
    private readonly deps: {
      vault: VaultService;
      cards: CardService;
      ledger: LedgerService;
      events: EventEmitter;
      merchant: (slug: string) => Promise<Merchant | null>;
    },
  ) {}

  /** Writes a pending authorization for this cart; its page's URL (the token exists only there). */
  async request(
    buyer: Buyer & { userId: string },
    conversationId: string,
    cart: StoredCart,
    address: DeliveryAddress | null,
    reason: ApprovalReason,
    source: string,
    card: VaultCardView | null,
  ): Promise<string> {
    const token = `apv_${randomToken(32)}`;
    const now = this.clock.now();
    const row: Authorization = {
      id: newId('cha'),
      organization_id: buyer.organizationId,
      livemode: livemodeColumn(buyer.livemode),
      conversation_id: conversationId,
      buyer_id: buyer.buyerId,
      client_id: buyer.clientId,
      user_id: buyer.userId,
      cart_hash: cart.hash,
      cart: JSON.stringify({ cart, address }),
      amount_cents: authorizedCents(cart),
      currency: cart.quote.currency,
      reason,
      payment_source: source,
      vault_card_id: card?.id ?? null,
      token_digest: digest(token),
      status: 'pending',
      order_id: null,
      expires_at: now + this.config.approvalTtlMs,
      decided_at: null,
      card_settled_at: null,
      created_at: now,
    };
    await this.deps.ledger.transaction(async (trx) => {
      // Only the newest link of a cart works: a confirm asked again replaces the one before.
      await this.endPending(trx, conversationId, cart.hash);
      await store.insertAuthorization(trx, row);
    });
    return `${this.config.baseUrl}/approve/${token}`;
  }

  /**
   * A confirm of this cart that needs no approval ends the links still waiting for one: a read, and
   * a write transaction only when there is one (almost never).
   */
  async supersede(conversationId: string, cartHash: string): Promise<void> {
    const pending = await store.pendingAuthorizations(this.db, conversationId, cartHash);
    if (pending.length === 0) return;
    await this.deps.ledger.transaction((trx) => this.endPending(trx, conversationId, cartHash));
  }

  /** Ends (`expired`) the pending authorizations of a cart, each with its event. */
  private async endPending(trx: Executor, conversationId: string, cartHash: string): Promise<void> {
    const pending = await store.pendingAuthorizations(trx, conversationId, cartHash, true);
    for (const previous of pending) await this.end(trx, previous, 'expire');
  }

  /** The authorization behind an approval link. Reads only. */
  async resolve(token: string): Promise<Authorization | ApprovalProblem> {
    if (!TOKEN.test(token)) return 'not_found';
    return (await store.authorizationByTokenDigest(this.db, digest(token))) ?? 'not_found';
  }

  /** What the approval page shows. Reads only (a link preview changes nothing). */
  async view(authorization: Authorization): Promise<ApprovalView> {
    const user = userOf(authorization);
    const { cart } = JSON.parse(authorization.cart) as { cart: StoredCart };
    const [card, passkeys, order] = await Promise.all([
      authorization.vault_card_id ? this.deps.vault.cards.byId(user, authorization.vault_card_id) : null,
      this.deps.vault.passkeys.list(user),
      authorization.order_id ? store.orderById(this.db, authorization.order_id) : undefined,
    ]);
    return {
      authorization,
      cart: cartObject(cart),
      status: this.statusNow(authorization),
      card,
      hasPasskey: passkeys.length > 0,
      order: order ?? null,
    };
  }

  /** WebAuthn options for the user's decision, bound to this authorization. */
  async options(authorization: Authorization) {
    if (this.statusNow(authorization) !== 'pending' && authorization.status !== 'approved')
      throw closed(this.statusNow(authorization));
    const options = await this.deps.vault.passkeys.authenticationOptions(
      userOf(authorization),
      bindingOf(authorization),
      'decide',
    );
    if (!options)
      throw new Refusal<PurchaseRefusalCode>(
        'passkey_required',
        'Register a passkey in your card vault first (ask the app for a vault link).',
      );
    return options;
  }

  /**
   * The user's decision, signed with their passkey. Approve: the authorization is approved with its
   * event (and, paying by vault card, the card's charge lands in the wallet) in one transaction, then
   * the cart is placed through the checkout's one path; approving again places nothing new.
   * Decline: the authorization ends with its event; nothing moves.
   */
  async decide(
    authorization: Authorization,
    decision: 'approve' | 'decline',
    response: AuthenticationResponseJSON,
  ): Promise<{ status: Authorization['status']; placement: Placement | null }> {
    if (this.statusNow(authorization) !== 'pending' && authorization.status !== 'approved')
      throw closed(this.statusNow(authorization));
    await this.deps.vault.passkeys.verifyAuthentication(
      userOf(authorization),
      bindingOf(authorization),
      'decide',
      response,
    );
    const now = this.clock.now();
    const ended = await this.deps.ledger.transaction(async (trx) => {
      const current = await this.lock(trx, authorization.id);
      if (current.status !== 'pending' || current.expires_at <= now) return current;
      return this.end(trx, current, decision);
    });
    if (ended.status !== 'approved') {
      if (ended.status === 'pending') throw closed('expired');
      return { status: ended.status, placement: null };
    }
    if (decision === 'decline') throw closed('approved');
    return { status: 'approved', placement: await this.place(ended) };
  }

  /** Ends pending authorizations past their time with `checkout_authorization.expired` (the worker). */
  async expireDue(limit = 100): Promise<number> {
    const now = this.clock.now();
    const due = await store.dueAuthorizations(this.db, now, limit);
    let expired = 0;
    for (const { id } of due) {
      const moved = await this.deps.ledger.transaction(async (trx) => {
        const current = await this.lock(trx, id);
        if (current.status !== 'pending') return false;
        await this.end(trx, current, 'expire');
        return true;
      });
      if (moved) expired++;
    }
    return expired;
  }

  /** A pending authorization's status as the clock sees it now (expired before the worker says so). */
  private statusNow(authorization: Authorization): Authorization['status'] {
    return authorization.status === 'pending' && authorization.expires_at <= this.clock.now()
      ? 'expired'
      : authorization.status;
  }

  private lock(trx: Executor, id: string): Promise<Authorization> {
    return store.lockAuthorization(trx, id);
  }

  /** Moves a pending authorization to its end (authorization-states.ts), with its event (and a vault card's charge). */
  private async end(
    trx: Executor,
    authorization: Authorization,
    move: AuthorizationMove,
  ): Promise<Authorization> {
    const { from, to: status } = authorizationTransition(move);
    const now = this.clock.now();
    await store.moveAuthorization(trx, authorization.id, from, status, now);
    await this.deps.events.emit(trx, {
      organizationId: authorization.organization_id,
      livemode: isLivemode(authorization.livemode),
      type: `checkout_authorization.${status}`,
      data: {
        authorization_id: authorization.id,
        amount_display: formatMoney(authorization.amount_cents, authorization.currency),
        reason: authorization.reason,
      },
    });
    if (status === 'approved' && authorization.vault_card_id) {
      // The user's card is charged through the sandbox network into the wallet, which then pays as
      // for a balance confirm (docs/vault.md, Paying with a vault card).
      const scope = scopeOf(authorization);
      const [source, wallet] = await Promise.all([
        this.deps.cards.systemAccount(trx, scope, 'funding_source'),
        this.deps.cards.walletAccount(trx, scope, authorization.user_id),
      ]);
      await this.deps.ledger.execute(trx, [
        {
          type: 'posted',
          id: `vcc_${authorization.id.slice('cha_'.length)}`,
          debitAccountId: source,
          creditAccountId: wallet,
          amount: authorization.amount_cents,
          code: 'vault_card_charge',
          metadata: { vault_card_id: authorization.vault_card_id, authorization_id: authorization.id },
        },
      ]);
    }
    return { ...authorization, status, decided_at: now };
  }

  /** Places the approved cart once (the order's placement key is unique per cart). */
  private async place(authorization: Authorization): Promise<Placement> {
    const { cart, address } = JSON.parse(authorization.cart) as {
      cart: StoredCart;
      address: DeliveryAddress | null;
    };
    const known = authorization.order_id
      ? await store.orderById(this.db, authorization.order_id)
      : ((await store.orderByPlacementKey(this.db, placementKey(authorization.conversation_id, cart))) ??
        (await this.orderSince(authorization)));
    if (known) {
      await this.recordOrder(authorization, known.id);
      return this.checkout.placement(known);
    }
    const merchant = await this.deps.merchant(cart.merchant);
    if (!merchant)
      throw new Refusal<PurchaseRefusalCode>(
        'approval_closed',
        `${cart.merchant_name} is no longer available.`,
      );
    const placement = await this.checkout.place(
      {
        organizationId: authorization.organization_id,
        livemode: isLivemode(authorization.livemode),
        clientId: authorization.client_id,
        buyerId: authorization.buyer_id,
        userId: authorization.user_id,
      },
      authorization.conversation_id,
      cart,
      merchant,
      address,
    );
    if (placement.order_id) {
      await this.recordOrder(authorization, placement.order_id);
      await this.refundUnused(authorization, placement.order_id);
      await this.closeCart(authorization, placement);
    }
    return placement;
  }

  /**
   * The conversation learns what the approval did, as a confirm's turn would have written it: the
   * placed cart leaves `carts`, `last_checkout` reports the placement. Under the conversation's turn
   * lock; when a turn is running, the order still shows in the conversation's `orders`.
   */
  private async closeCart(authorization: Authorization, placement: Placement): Promise<void> {
    const id = authorization.conversation_id;
    const now = this.clock.now();
    const conversation = await store.takeTurn(this.db, id, now, now - this.config.turnTimeoutMs, null);
    const state = JSON.parse(conversation?.state ?? 'null') as ConversationState | null;
    if (!conversation || !state) return;
    const status = placement.status === 'placed' ? 'order_placed' : 'declined';
    state.carts = state.carts.filter((cart) => cart.hash !== authorization.cart_hash);
    if (!state.carts.some((cart) => cart.merchant === state.shown)) state.shown = null;
    state.last_checkout = {
      at: stamp(now),
      hashes: [authorization.cart_hash],
      status,
      order_id: placement.order_id,
      decline_code: placement.decline_code,
      charge_status: placement.charge_status,
      placements: null,
    };
    await store.endTurn(this.db, id, { status, state: JSON.stringify(state), updated_at: now });
  }

  /**
   * An order of this cart made since the authorization (by an approval whose process died before
   * it recorded the order, even if that order has failed since): an approval places one order.
   */
  private orderSince(authorization: Authorization) {
    return store.orderOfCartSince(
      this.db,
      authorization.conversation_id,
      authorization.cart_hash,
      authorization.created_at,
    );
  }

  /**
   * Approved authorizations with no order, decided more than `graceMs` ago: their process died
   * between the approval and the placement. The worker places them (once, as above), and trues up
   * the vault card's charge of orders that ended after their confirm returned.
   */
  async placeApprovedDue(graceMs: number, limit = 20): Promise<number> {
    const due = await store.approvedWithoutOrder(this.db, this.clock.now() - graceMs, limit);
    let placed = 0;
    for (const authorization of due) {
      const placement = await this.place(authorization).catch(() => null);
      if (placement?.order_id) placed++;
    }
    // Vault card charges of orders the worker concluded later (the merchant had not answered).
    const unsettled = await store.cardChargesUnsettled(this.db, limit);
    for (const authorization of unsettled)
      await this.refundUnused(authorization, authorization.order_id as string).catch(() => {});
    return placed;
  }

  private async recordOrder(authorization: Authorization, orderId: string): Promise<void> {
    await store.recordAuthorizationOrder(this.db, authorization.id, orderId);
  }

  /**
   * A vault card pays only what the order cost: a failed order's charge, or what a final amount
   * left of the ceiling, goes back to the card from the wallet.
   */
  private async refundUnused(authorization: Authorization, orderId: string): Promise<void> {
    if (!authorization.vault_card_id) return;
    const order = await store.orderById(this.db, orderId);
    if (!order || order.status === 'pending') return;
    const used = order.status === 'failed' ? 0 : Number(order.final_cents ?? order.total_cents);
    const unused = Number(authorization.amount_cents) - used;
    const scope = scopeOf(authorization);
    await this.deps.ledger.transaction(async (trx) => {
      const settled = await store.settleCardCharge(trx, authorization.id, this.clock.now());
      if (!settled || unused <= 0) return;
      const [source, wallet] = await Promise.all([
        this.deps.cards.systemAccount(trx, scope, 'funding_source'),
        this.deps.cards.walletAccount(trx, scope, authorization.user_id),
      ]);
      await this.deps.ledger.execute(trx, [
        {
          type: 'posted',
          id: `vcr_${authorization.id.slice('cha_'.length)}`,
          debitAccountId: wallet,
          creditAccountId: source,
          amount: unused,
          code: 'vault_card_refund',
          metadata: { vault_card_id: authorization.vault_card_id, authorization_id: authorization.id },
        },
      ]);
    });
  }
}

function bindingOf(authorization: Authorization): string {
  return `checkout_authorization:${authorization.id}`;
}

function scopeOf(authorization: Authorization) {
  return tenantOf(authorization);
}

function userOf(authorization: Authorization) {
  return { ...scopeOf(authorization), userId: authorization.user_id };
}

function closed(status: string): Refusal<PurchaseRefusalCode> {
  return new Refusal<PurchaseRefusalCode>(
    'approval_closed',
    status === 'expired'
      ? 'This approval has expired; nothing was charged.'
      : `This payment was already ${status}.`,
  );
}
