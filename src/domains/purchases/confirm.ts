import type { Clock } from '../../core/clock.ts';
import { formatMoney } from '../../core/money.ts';
import type { CardService } from '../cards/index.ts';
import type { VaultService } from '../vault/index.ts';
import { type ApprovalReason, type Approvals, approvalDeclineCode } from './approvals.ts';
import { authorizedCents, cartObject, type StoredCart, storedCart } from './cart.ts';
import type { Buyer, Checkout, Placement } from './checkout.ts';
import type { PurchaseConfig } from './config.ts';
import { cardSource, confirmRefusal } from './confirm-checks.ts';
import {
  type ConversationState,
  cartBubble,
  type Envelope,
  envelope,
  type PlacementObject,
  type PurchaseStatus,
  stamp,
  type Unmatched,
} from './conversation.ts';
import type { PurchaseMandates } from './mandate-port.ts';
import type { Merchant } from './merchants/merchant.ts';
import { MANDATE_EXCEEDED } from './order-ends.ts';
import type { Order } from './store.ts';

export { confirmRefusal, PAYMENT_SOURCES } from './confirm-checks.ts';

/**
 * Confirms (spec §4 Purchases, docs/purchases.md): each hash checked against a pure table of
 * refusals, then small effectful steps (price again, find the payer, mandate or approval, place),
 * each returning the placement and a new conversation state. No step changes the state it is given.
 */

export type ConfirmedPlacement = Placement & { bubble: string; cart?: StoredCart; approval_url?: string };
/** A confirm's answer for one hash, and the conversation state after it. */
export interface Confirmed {
  placement: ConfirmedPlacement;
  state: ConversationState;
}

/** The state with this cart (by merchant) replaced, or removed when `cart` is null. */
function withCart(state: ConversationState, merchant: string, cart: StoredCart | null): ConversationState {
  const carts = cart
    ? state.carts.map((c) => (c.merchant === merchant ? cart : c))
    : state.carts.filter((c) => c.merchant !== merchant);
  return { ...state, carts };
}

type MandateVerdict =
  | { ok: true; id: string }
  | { ok: false; term: string; reply: string; overflow: 'decline' | 'approval' }
  | null;

export interface ConfirmDeps {
  cards: CardService;
  vault: VaultService;
  mandates: PurchaseMandates;
  merchant(slug: string): Promise<Merchant | null>;
  /** The live or placed order of the cart this hash names (PurchaseService.orderOfCart). */
  orderOfCart(conversationId: string, state: ConversationState, hash: string): Promise<Order | undefined>;
}

export class Confirms {
  constructor(
    private readonly clock: Clock,
    private readonly config: PurchaseConfig,
    private readonly checkout: Checkout,
    private readonly approvals: Approvals,
    private readonly deps: ConfirmDeps,
  ) {}

  /** Confirms these hashes in order; the turn's status, its envelope and the new state. */
  async confirm(
    buyer: Buyer,
    conversationId: string,
    initial: ConversationState,
    input: { confirm?: string | string[] | undefined; payment_source?: string | undefined },
    hashes: string[],
    bubbles: string[],
    unmatched: Unmatched[],
    repriced: Map<string, StoredCart>,
  ): Promise<{ status: PurchaseStatus; envelope: Envelope; state: ConversationState }> {
    const source = input.payment_source ?? 'balance';
    const multi = Array.isArray(input.confirm);
    const placements: ConfirmedPlacement[] = [];
    let state = initial;
    for (const hash of hashes) {
      const fresh = repriced.get(hash);
      if (fresh) placements.push(cartChanged(hash, fresh));
      else {
        const confirmed = await this.confirmOne(buyer, conversationId, state, hash, source, multi);
        placements.push(confirmed.placement);
        state = confirmed.state;
      }
    }
    const replies = [...bubbles, ...placements.map((placement) => placement.bubble)];

    const placed = placements.filter((p) => p.status === 'placed');
    const status: PurchaseStatus =
      placed.length === placements.length
        ? 'order_placed'
        : placed.length > 0
          ? 'partially_placed'
          : 'declined';
    const first = placed[0] ?? null;
    const lead = first ?? placements[0];
    const objects: PlacementObject[] = placements.map(
      ({ merchant, hash, status, order_id, decline_code, charge_status }) => ({
        merchant,
        hash,
        status,
        order_id,
        decline_code,
        charge_status,
      }),
    );
    const changed = placements.find((p) => p.cart)?.cart;
    state = {
      ...state,
      shown: changed ? changed.merchant : state.shown,
      last_checkout: {
        at: stamp(this.clock.now()),
        hashes,
        status,
        order_id: first?.order_id ?? orderIdOf(lead),
        decline_code: status === 'declined' ? (lead?.decline_code ?? null) : null,
        charge_status: lead?.charge_status ?? null,
        placements: multi ? objects : null,
      },
    };
    return {
      status,
      state,
      envelope: envelope(conversationId, state, {
        status,
        bubbles: replies,
        unmatched,
        order_id: first?.order_id ?? orderIdOf(lead),
        payment_source: first?.paid_with ?? null,
        decline_code: status === 'declined' ? (lead?.decline_code ?? null) : null,
        approval_url: status === 'declined' ? (lead?.approval_url ?? null) : null,
        charge_status: lead?.charge_status ?? null,
        placements: multi ? objects : null,
      }),
    };
  }

  /** One hash: the check table, then the steps; `state` is read, never changed. */
  private async confirmOne(
    buyer: Buyer,
    conversationId: string,
    state: ConversationState,
    hash: string,
    source: string,
    multi: boolean,
  ): Promise<Confirmed> {
    const cart = state.carts.find((c) => c.hash === hash);
    if (!cart) return { placement: await this.closedCart(conversationId, state, hash), state };
    const merchant = await this.deps.merchant(cart.merchant);
    const refusal = confirmRefusal({ livemode: buyer.livemode, source, cart, merchant });
    if (refusal || !merchant)
      return {
        placement: declined(hash, cart.merchant, refusal?.code ?? 'no_cart', refusal?.bubble ?? ''),
        state,
      };

    const priced = await this.priceAgain(state, cart, merchant);
    if ('placement' in priced) return priced;
    const fresh = priced.fresh;
    if (!buyer.userId)
      return {
        placement: declined(
          hash,
          cart.merchant,
          'wallet_required',
          'This cardholder is not linked to a user with a wallet.',
        ),
        state,
      };
    const user = { ...buyer, userId: buyer.userId };
    const payer = await this.payer(user, source, fresh);
    if ('decline' in payer)
      return { placement: declined(hash, cart.merchant, payer.decline, payer.bubble), state };

    // Under a mandate of this app for this user: within its terms no approval is asked, whatever the
    // threshold; outside them, declined or asked as the organization chose (docs/mandates.md).
    const mandate = payer.card ? null : await this.mandateFor(user, fresh, merchant);
    if (mandate && !mandate.ok && mandate.overflow === 'decline')
      return { placement: declined(hash, cart.merchant, MANDATE_EXCEEDED, mandate.reply), state };
    const reason =
      mandate && !mandate.ok
        ? 'mandate'
        : mandate?.ok
          ? null
          : await this.approvalReason(buyer.organizationId, source, authorizedCents(fresh));
    if (reason) {
      const placement = await this.askApproval(
        user,
        conversationId,
        state,
        fresh,
        reason,
        source,
        payer.card,
        multi,
      );
      return { placement, state };
    }
    return this.place(user, conversationId, state, fresh, merchant, mandate?.ok ? mandate.id : null);
  }

  /** A hash with no open cart: its order's placement if one was made, else `no_cart`. */
  private async closedCart(
    conversationId: string,
    state: ConversationState,
    hash: string,
  ): Promise<ConfirmedPlacement> {
    const order = await this.deps.orderOfCart(conversationId, state, hash);
    if (order) {
      const placement = await this.checkout.placement(order);
      return { ...placement, bubble: orderBubble(order, placement) };
    }
    return declined(
      hash,
      null,
      'no_cart',
      'That cart is not open in this conversation (it may have expired or changed); ask to see your cart for the current one.',
    );
  }

  /**
   * The price and stock must still be the ones the user saw: the cart priced again, or the decline
   * (`merchant_unavailable`, `items_unavailable`, `cart_changed`) with the cart as it now is.
   */
  private async priceAgain(
    state: ConversationState,
    cart: StoredCart,
    merchant: Merchant,
  ): Promise<Confirmed | { fresh: StoredCart }> {
    const hash = cart.hash;
    const quote = await merchant.quote(cart.lines, state.address, cart.quote.merchantRef).catch(() => null);
    if (!quote)
      return {
        placement: declined(
          hash,
          cart.merchant,
          'merchant_unavailable',
          `${cart.merchant_name} could not be reached; nothing was charged.`,
        ),
        state,
      };
    const expiresAt = this.clock.now() + this.config.cartTtlMs;
    if (quote.unavailable.length > 0) {
      const lines = cart.lines.filter((line) => !quote.unavailable.includes(line.product_id));
      // The rest priced again; a merchant that fails now leaves the cart as it was, to confirm again.
      const requoted = lines.length
        ? await merchant.quote(lines, state.address, quote.merchantRef).catch(() => undefined)
        : null;
      const result = declined(
        hash,
        cart.merchant,
        'items_unavailable',
        `Some items at ${cart.merchant_name} sold out; nothing was charged.`,
      );
      if (requoted === undefined) return { placement: result, state };
      if (requoted === null) return { placement: result, state: withCart(state, cart.merchant, null) };
      const fresh = storedCart(merchant.info, lines, requoted, state.address, expiresAt, cart);
      return { placement: { ...result, cart: fresh }, state: withCart(state, cart.merchant, fresh) };
    }
    const fresh = storedCart(merchant.info, cart.lines, quote, state.address, expiresAt, cart);
    if (fresh.hash !== cart.hash)
      return { placement: cartChanged(hash, fresh), state: withCart(state, cart.merchant, fresh) };
    return { fresh };
  }

  /** Who pays: the vault card, or the wallet when it covers the cart; else the decline. */
  private async payer(
    user: Buyer & { userId: string },
    source: string,
    cart: StoredCart,
  ): Promise<
    { card: Awaited<ReturnType<VaultService['payingCard']>> } | { decline: string; bubble: string }
  > {
    if (cardSource(source)) {
      const card = await this.deps.vault.payingCard(user);
      if (!card)
        return {
          decline: 'vault_card_required',
          bubble:
            'There is no card in your vault to pay with; add one on the vault page (the app sends you its link).',
        };
      return { card };
    }
    const wallet = await this.deps.cards.wallet(user, user.userId).catch(() => null);
    if (!wallet || wallet.balance_cents < authorizedCents(cart))
      return {
        decline: 'insufficient_funds',
        bubble: `The wallet does not cover ${formatMoney(cartObject(cart).totalCents, cart.quote.currency)}; nothing was charged.`,
      };
    return { card: null };
  }

  /** A confirm that needs the user's approval: the approval link (a single confirm) or the ask to confirm alone. */
  private async askApproval(
    user: Buyer & { userId: string },
    conversationId: string,
    state: ConversationState,
    cart: StoredCart,
    reason: ApprovalReason,
    source: string,
    card: Awaited<ReturnType<VaultService['payingCard']>>,
    multi: boolean,
  ): Promise<ConfirmedPlacement> {
    const code = approvalDeclineCode(reason);
    if (multi)
      return declined(
        cart.hash,
        cart.merchant,
        code,
        `The cart at ${cart.merchant_name} needs your approval: confirm it on its own to get its approval link.`,
      );
    const url = await this.approvals.request(user, conversationId, cart, state.address, reason, source, card);
    return {
      ...declined(
        cart.hash,
        cart.merchant,
        code,
        `Approve ${formatMoney(authorizedCents(cart), cart.quote.currency)} at ${cart.merchant_name} on the approval page; nothing is charged until you do.`,
      ),
      approval_url: url,
    };
  }

  /** Paid from the wallet now; the cart closes once placed or in the worker's hands. */
  private async place(
    user: Buyer & { userId: string },
    conversationId: string,
    state: ConversationState,
    cart: StoredCart,
    merchant: Merchant,
    mandateId: string | null,
  ): Promise<Confirmed> {
    // A link still waiting for the user's approval of this cart ends.
    await this.approvals.supersede(conversationId, cart.hash);
    const { placement, order } = await this.checkout.placeOrder(
      user,
      conversationId,
      cart,
      merchant,
      state.address,
      mandateId,
    );
    if (placement.decline_code === MANDATE_EXCEEDED && mandateId !== null) {
      // The engine refused the charge under the mandate (its budget went to a concurrent purchase).
      const now = await this.deps.mandates.check(this.mandateCharge(mandateId, cart, merchant));
      const reply = now.ok ? 'This purchase is outside the mandate.' : now.reply;
      return { placement: { ...placement, bubble: `${reply} Nothing was charged.` }, state };
    }
    const closed =
      placement.status === 'placed' || order.status === 'pending'
        ? {
            ...state,
            carts: state.carts.filter((c) => c.hash !== cart.hash),
            shown: state.shown === cart.merchant ? null : state.shown,
          }
        : state;
    return { placement: { ...placement, bubble: orderBubble(order, placement) }, state: closed };
  }

  /**
   * The mandate a wallet confirm is bought under: the first of the user's active mandates for the
   * token's app whose terms take the cart's authorized amount at this merchant; none when the user
   * has no such mandate (the confirm goes as any other); else the newest one's refusal and the
   * organization's choice for it. A look before money moves: the engine decides at the charge.
   */
  private async mandateFor(
    buyer: Buyer & { userId: string },
    cart: StoredCart,
    merchant: Merchant,
  ): Promise<MandateVerdict> {
    if (buyer.clientId === 'buy_token') return null;
    const active = await this.deps.mandates.activeFor(buyer);
    let refusal: { term: string; reply: string } | null = null;
    for (const { id } of active) {
      const verdict = await this.deps.mandates.check(this.mandateCharge(id, cart, merchant));
      if (verdict.ok) return { ok: true, id };
      refusal ??= verdict;
    }
    if (!refusal) return null;
    return { ok: false, ...refusal, overflow: await this.deps.mandates.overflow(buyer.organizationId) };
  }

  private mandateCharge(mandateId: string, cart: StoredCart, merchant: Merchant) {
    return {
      mandateId,
      amountCents: authorizedCents(cart),
      currency: cart.quote.currency,
      category: merchant.info.mcc,
      merchant: merchant.info.slug,
      at: this.clock.now(),
    };
  }

  /** Why this confirm needs the user's approval, if it does (docs/purchases.md, Approvals). */
  private async approvalReason(
    organizationId: string,
    source: string,
    amountCents: number,
  ): Promise<ApprovalReason | null> {
    if (source === 'vault' || source === 'added_card') return source;
    const threshold = await this.deps.vault.approvalThreshold(organizationId);
    return threshold !== null && amountCents > threshold ? 'threshold' : null;
  }
}
/**
 * The envelope's `order_id` for a placement (spec §2: set when the call placed an order): a placed
 * order's, and one whose charge is still settling or unknown (the id to follow it by); none for a
 * decline that charged nothing, though an order row records it.
 */
export function orderIdOf(placement: Placement | undefined): string | null {
  if (!placement) return null;
  return placement.status === 'placed' || placement.charge_status !== 'none' ? placement.order_id : null;
}

function declined(
  hash: string,
  merchant: string | null,
  code: string,
  bubble: string,
): Placement & { bubble: string } {
  return {
    merchant: merchant ?? '',
    hash,
    status: 'declined',
    order_id: null,
    decline_code: code,
    charge_status: 'none',
    paid_with: null,
    bubble,
  };
}

/** A confirm of a cart whose price or stock moved since it was shown: the cart as it now is. */
function cartChanged(hash: string, fresh: StoredCart): Placement & { bubble: string; cart: StoredCart } {
  const detail = `The cart at ${fresh.merchant_name} changed since you saw it; nothing was charged.`;
  return {
    ...declined(hash, fresh.merchant, 'cart_changed', detail),
    bubble: `${detail} ${cartBubble(fresh)}`,
    cart: fresh,
  };
}

export function orderBubble(order: Order, placement: Placement): string {
  if (placement.status === 'placed')
    return `Order ${order.id} placed at ${order.merchant_name} for ${formatMoney(order.final_cents ?? order.total_cents, order.currency)}.`;
  if (placement.decline_code === 'in_progress')
    return `Order ${order.id} at ${order.merchant_name} is being placed.`;
  if (placement.charge_status === 'unknown')
    return `${order.merchant_name} did not answer; order ${order.id} is being checked, and is either placed or refunded shortly.`;
  return `The order at ${order.merchant_name} was not placed (${placement.decline_code}); nothing was charged.`;
}
