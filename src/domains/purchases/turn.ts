import type { Clock } from '../../core/clock.ts';
import { CART_LIMITS, type StoredCart, storedCart } from './cart.ts';
import type { Buyer } from './checkout.ts';
import type { PurchaseConfig } from './config.ts';
import type { Confirms } from './confirm.ts';
import {
  type ConversationState,
  cartBubble,
  type Envelope,
  envelope,
  type PurchaseStatus,
  stamp,
  type Unmatched,
} from './conversation.ts';
import { type EngineAction, EngineUnavailable, type PurchaseEngine } from './engine/engine.ts';
import type { CartLine, Merchant, MerchantInfo } from './merchants/merchant.ts';
import type { TurnInput } from './service.ts';

/**
 * A turn of a `/buy` conversation (docs/purchases.md): carts expire, a new address prices them
 * again, the engine's proposals are checked against merchant data, and confirms go to confirm.ts.
 */

export interface MerchantDirectory {
  merchant(slug: string): Promise<Merchant | null>;
  merchants(): Promise<MerchantInfo[]>;
  /** Merchants an ask searches when it names none: the ones this mode can place at. */
  searchable(buyer: Buyer): Promise<Merchant[]>;
}

export class Turns {
  constructor(
    private readonly clock: Clock,
    private readonly config: PurchaseConfig,
    private readonly engine: PurchaseEngine,
    private readonly directory: MerchantDirectory,
    private readonly confirms: Confirms,
  ) {}

  /** The turn's work on `state` (the caller's copy, changed here), ending in the confirms if any. */
  async run(
    buyer: Buyer,
    conversationId: string,
    state: ConversationState,
    input: TurnInput,
    hashes: string[],
  ): Promise<{ status: PurchaseStatus; envelope: Envelope; state: ConversationState }> {
    const bubbles: string[] = [];
    const unmatched: Unmatched[] = [];
    const now = this.clock.now();
    const expired = state.carts.filter((cart) => cart.expires_at <= now);
    if (expired.length > 0) {
      state.carts = state.carts.filter((cart) => cart.expires_at > now);
      bubbles.push(
        `Expired: your cart${expired.length > 1 ? 's' : ''} at ${expired.map((c) => c.merchant_name).join(', ')}. Ask again to rebuild it.`,
      );
    }
    // Carts this request priced again under a new address, by the hash they had: confirming that hash
    // in the same request answers `cart_changed` with the cart as it now is.
    const repriced = new Map<string, StoredCart>();
    if (input.delivery_address !== undefined) {
      const shown = new Map(state.carts.map((cart) => [cart.merchant, cart.hash]));
      state.address = input.delivery_address;
      await this.requote(state, new Map(state.carts.map((cart) => [cart.merchant, cart.lines])), unmatched);
      for (const cart of state.carts) {
        const before = shown.get(cart.merchant);
        if (before && before !== cart.hash) repriced.set(before, cart);
      }
    }

    if (input.ask !== undefined) {
      let engineResult: Awaited<ReturnType<PurchaseEngine['turn']>>;
      try {
        engineResult = await this.engine.turn({
          ask: input.ask,
          carts: state.carts.map((cart) => ({
            merchant: cart.merchant,
            merchant_name: cart.merchant_name,
            items: cart.quote.items,
          })),
          // Any merchant may be named; an ask naming none searches this mode's merchants.
          merchants: await this.directory.merchants(),
          search: (merchant, query) => this.search(buyer, state, merchant, query),
        });
      } catch (error) {
        if (!(error instanceof EngineUnavailable)) throw error;
        const reply = 'I could not understand that just now; please try again in a moment.';
        return {
          status: 'needs_input',
          state,
          envelope: envelope(conversationId, state, {
            status: 'needs_input',
            bubbles: [...bubbles, reply],
            error_code: 'engine_unavailable',
          }),
        };
      }
      if (engineResult.reply) bubbles.push(engineResult.reply);
      const touched = await this.apply(state, engineResult.actions, unmatched);
      for (const cart of touched) bubbles.push(cartBubble(cart));
      if (engineResult.actions.some((a) => a.type === 'show_cart' || a.type === 'checkout')) {
        const rest = state.carts.filter((cart) => !touched.includes(cart));
        for (const cart of rest) bubbles.push(cartBubble(cart));
        if (state.carts.length === 0) bubbles.push('Your cart is empty.');
        else if (engineResult.actions.some((a) => a.type === 'checkout'))
          bubbles.push(
            `Confirm ${state.carts.length > 1 ? 'the hashes' : 'the hash'} of what you want to buy.`,
          );
      }
      for (const miss of unmatched) bubbles.push(miss.detail);
    }

    if (hashes.length === 0) {
      if (bubbles.length === 0)
        bubbles.push(state.carts.length ? state.carts.map(cartBubble).join('\n') : 'Your cart is empty.');
      return {
        status: 'needs_input',
        state,
        envelope: envelope(conversationId, state, { status: 'needs_input', bubbles, unmatched }),
      };
    }
    return this.confirms.confirm(buyer, conversationId, state, input, hashes, bubbles, unmatched, repriced);
  }

  /** Applies the engine's proposals that merchant data allows; the carts it changed. */
  private async apply(
    state: ConversationState,
    actions: EngineAction[],
    unmatched: Unmatched[],
  ): Promise<StoredCart[]> {
    const at = stamp(this.clock.now());
    const miss = (merchant: string | null, requested: string, reason: string, detail: string) =>
      unmatched.push({ merchant, requested, reason, detail, at });
    const edits = new Map<string, CartLine[]>();
    const linesOf = (merchant: string) => {
      let lines = edits.get(merchant);
      if (!lines) {
        lines = (state.carts.find((cart) => cart.merchant === merchant)?.lines ?? []).map((l) => ({ ...l }));
        edits.set(merchant, lines);
      }
      return lines;
    };
    for (const action of actions) {
      if (action.type === 'unmatched') {
        miss(action.merchant, action.requested, action.reason, action.detail);
        continue;
      }
      if (action.type === 'show_cart' || action.type === 'checkout') continue;
      const merchant = await this.directory.merchant(action.merchant);
      if (!merchant) {
        miss(
          action.merchant,
          action.merchant,
          'unknown_merchant',
          `No merchant called "${action.merchant}".`,
        );
        continue;
      }
      const [product] = await merchant.products([action.product_id]);
      if (!product) {
        miss(
          merchant.info.slug,
          action.product_id,
          'not_found',
          `${merchant.info.name} has no product ${action.product_id}.`,
        );
        continue;
      }
      const lines = linesOf(merchant.info.slug);
      const line = lines.find((l) => l.product_id === product.product_id);
      if (action.type === 'remove') {
        if (line) lines.splice(lines.indexOf(line), 1);
        continue;
      }
      const qty = action.type === 'add' ? (line?.qty ?? 0) + action.qty : action.qty;
      if (!Number.isInteger(qty) || qty < CART_LIMITS.minQty || qty > CART_LIMITS.maxQty) {
        if (action.type === 'set_quantity' && qty === 0 && line) {
          lines.splice(lines.indexOf(line), 1);
          continue;
        }
        miss(
          merchant.info.slug,
          product.name,
          'quantity_limit',
          `Quantities are 1 to ${CART_LIMITS.maxQty} per item.`,
        );
        continue;
      }
      if (!product.in_stock) {
        miss(merchant.info.slug, product.name, 'out_of_stock', `${product.name} is out of stock.`);
        continue;
      }
      if (line) line.qty = qty;
      else if (lines.length >= CART_LIMITS.itemsPerCart)
        miss(
          merchant.info.slug,
          product.name,
          'cart_limit',
          `A cart holds at most ${CART_LIMITS.itemsPerCart} items.`,
        );
      else if (
        !state.carts.some((c) => c.merchant === merchant.info.slug) &&
        this.openCarts(state, edits) >= CART_LIMITS.openCarts
      )
        miss(
          merchant.info.slug,
          product.name,
          'cart_limit',
          `A conversation holds at most ${CART_LIMITS.openCarts} open carts.`,
        );
      else lines.push({ product_id: product.product_id, qty });
    }
    return this.requote(state, edits, unmatched);
  }

  private openCarts(state: ConversationState, edits: Map<string, CartLine[]>): number {
    const merchants = new Set(state.carts.map((cart) => cart.merchant));
    for (const [merchant, lines] of edits) if (lines.length > 0) merchants.add(merchant);
    return merchants.size;
  }

  /**
   * Prices these merchants' carts again with these lines (dropping what sold out, removing a cart
   * left empty); the carts it priced. A merchant that cannot price keeps its cart as last priced.
   */
  private async requote(
    state: ConversationState,
    edits: Map<string, CartLine[]>,
    unmatched: Unmatched[],
  ): Promise<StoredCart[]> {
    const touched: StoredCart[] = [];
    const at = stamp(this.clock.now());
    for (const [slug, wanted] of edits) {
      const merchant = await this.directory.merchant(slug);
      if (!merchant) continue;
      const current = state.carts.find((cart) => cart.merchant === slug);
      const drop = () => {
        state.carts = state.carts.filter((cart) => cart.merchant !== slug);
      };
      if (wanted.length === 0) {
        if (current?.quote.merchantRef) await merchant.cancel(current.quote.merchantRef).catch(() => {});
        drop();
        continue;
      }
      const quote = await merchant
        .quote(wanted, state.address, current?.quote.merchantRef ?? null)
        .catch((error: Error) => error);
      if (quote instanceof Error) {
        unmatched.push({
          merchant: slug,
          requested: merchant.info.name,
          reason: 'merchant_unavailable',
          detail: `${merchant.info.name} could not price the cart just now; try again shortly.`,
          at,
        });
        continue;
      }
      for (const productId of quote.unavailable) {
        unmatched.push({
          merchant: slug,
          requested: productId,
          reason: 'out_of_stock',
          detail: `${merchant.info.name} can no longer sell ${productId}; it was removed from your cart.`,
          at,
        });
      }
      const lines = wanted.filter((line) => !quote.unavailable.includes(line.product_id));
      if (lines.length === 0) {
        drop();
        continue;
      }
      const cart = storedCart(
        merchant.info,
        lines,
        quote,
        state.address,
        this.clock.now() + this.config.cartTtlMs,
        current,
      );
      const index = state.carts.findIndex((c) => c.merchant === slug);
      if (index >= 0) state.carts[index] = cart;
      else state.carts.push(cart);
      state.shown = slug;
      touched.push(cart);
    }
    return touched;
  }

  private async search(buyer: Buyer, state: ConversationState, slug: string | null, query: string) {
    const merchants = slug
      ? [await this.directory.merchant(slug)].filter((m): m is Merchant => m !== null)
      : await this.directory.searchable(buyer);
    const hits = [];
    for (const merchant of merchants) {
      // A merchant that cannot be searched right now is left out of this search.
      const products = await merchant.search(query, 20).catch(() => []);
      for (const product of products) hits.push({ ...product, merchant: merchant.info.slug });
    }
    if (hits.length > 0) {
      state.catalog = {
        as_of: stamp(this.clock.now()),
        query,
        merchant: slug,
        items: hits.map(({ product_id, name, priceCents, currency, in_stock }) => ({
          product_id,
          name,
          priceCents,
          currency,
          in_stock,
        })),
      };
    }
    return hits;
  }
}
