import type { Clock } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { notFound } from '../../core/errors.ts';
import type { OutboundGuard } from '../../core/http/client.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { livemodeColumn, tenantOf } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { CardService, EventEmitter } from '../cards/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { VaultService } from '../vault/index.ts';
import { type ApprovalReason, Approvals, amountDisplay, approvalDeclineCode } from './approvals.ts';
import {
  authorizedCents,
  CART_LIMITS,
  type CartObject,
  cartObject,
  placementKey,
  type StoredCart,
  storedCart,
} from './cart.ts';
import {
  type Buyer,
  Checkout,
  MANDATE_EXCEEDED,
  type Placement,
  type PurchaseMandates,
  transactionIdOf,
} from './checkout.ts';
import type { PurchaseConfig } from './config.ts';
import {
  type ConversationState,
  cartBubble,
  type Envelope,
  emptyState,
  envelope,
  type PlacementObject,
  type PurchaseStatus,
  stamp,
  TRANSCRIPT_LIMIT,
  type Unmatched,
} from './conversation.ts';
import { BuiltinEngine } from './engine/builtin.ts';
import { createPurchaseEngine } from './engine/config.ts';
import { type EngineAction, EngineUnavailable, type PurchaseEngine } from './engine/engine.ts';
import type { CartLine, DeliveryAddress, Merchant, MerchantInfo } from './merchants/merchant.ts';
import { type SandboxMerchant, sandboxMerchants } from './merchants/sandbox.ts';
import { type Conversation, type Order, type Owner, PurchaseStore } from './store.ts';

/** Buy tokens live an hour (issue 11), like connection tokens (spec §8). */
export const BUY_TOKEN_TTL_SECONDS = 3600;

/** Payment sources of the spec (§2 Purchase response envelope). */
export const PAYMENT_SOURCES = ['balance', 'added_card', 'vault', 'company_balance', 'stored_payment_method'];
/** The ones Purser pays with: the wallet, and the user's own card kept in the vault (docs/vault.md). */
const PAYABLE_SOURCES = new Set(['balance', 'vault', 'added_card']);

export interface TurnInput {
  ask?: string | undefined;
  conversation_id?: string | undefined;
  confirm?: string | string[] | undefined;
  payment_source?: string | undefined;
  delivery_address?: DeliveryAddress | undefined;
}

/**
 * `/buy` (spec §1.5, §2 Purchase response envelope, §4 Purchases; docs/purchases.md): turns of a
 * conversation that build carts at merchants, and confirms that place exactly the cart a hash
 * names. The engine proposes cart edits; this service checks them against merchant data and prices
 * every cart itself. Money moves only in a confirm (checkout.ts).
 */
export class PurchaseService {
  readonly store = new PurchaseStore();
  readonly checkout: Checkout;
  /** Confirms paused for the user's approval on a hosted page (approvals.ts). */
  readonly approvals: Approvals;
  readonly sandbox: SandboxMerchant[];
  private engine: PurchaseEngine;
  /** Merchants an operator configured (the ACP adapter), looked up by slug. */
  private configured: () => Promise<Merchant[]> = async () => [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly config: PurchaseConfig,
    private readonly deps: {
      auth: AuthService;
      cards: CardService;
      ledger: LedgerService;
      events: EventEmitter;
      vault: VaultService;
      /** Spending mandates and receipts (docs/mandates.md "Purchases"). */
      mandates: PurchaseMandates;
      dialect: 'sqlite' | 'postgres';
      baseUrl: string;
      /** How the language model (an operator-configured service) is reached (core/http/policy.ts). */
      outbound: OutboundGuard;
    },
  ) {
    this.engine = createPurchaseEngine(config.engine, new BuiltinEngine(), deps.outbound);
    this.sandbox = sandboxMerchants((orderId) => this.chargedFor(orderId));
    this.checkout = new Checkout(db, clock, config, this.store, {
      ...deps,
      merchant: (slug) => this.merchant(slug),
    });
    this.approvals = new Approvals(
      db,
      clock,
      { baseUrl: deps.baseUrl, approvalTtlMs: config.approvalTtlMs, turnTimeoutMs: config.turnTimeoutMs },
      this.store,
      this.checkout,
      { ...deps, merchant: (slug) => this.merchant(slug) },
    );
  }

  /** Adds the operator's configured merchants to the directory. */
  useMerchants(list: () => Promise<Merchant[]>): void {
    this.configured = list;
  }

  // ---- buyers

  /** `POST /api/v1/cardholders/{id}/buy_token`: a user token acting for this cardholder. */
  async mintBuyToken(scope: { organizationId: string; livemode: boolean }, cardholderId: string) {
    await this.deps.cards.cardholders.get(scope, cardholderId);
    const token = `bt_${randomToken()}`;
    const now = this.clock.now();
    const expiresAt = now + BUY_TOKEN_TTL_SECONDS * 1000;
    await this.store.insertBuyToken(this.db, {
      id: newId('btk'),
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      cardholder_id: cardholderId,
      token_digest: digest(token),
      expires_at: expiresAt,
      created_at: now,
    });
    return { object: 'buy_token' as const, token, expires_at: stamp(expiresAt) };
  }

  /**
   * The buyer behind a user token: a connection token (connect verify or OAuth), or a buy token.
   * `platform` when the token is a live platform token (refused with `user_token_required`);
   * `suspended` when the token is live but its organization is suspended (spec §7: `access_denied`).
   */
  async authenticate(token: string): Promise<Buyer | 'platform' | 'suspended' | null> {
    if (token.startsWith('bt_')) {
      const row = await this.store.buyTokenByDigest(this.db, digest(token));
      if (!row || row.expires_at <= this.clock.now()) return null;
      if (row.organization_status !== 'active') return 'suspended';
      const scope = tenantOf(row);
      const cardholder = await this.deps.cards.cardholders.get(scope, row.cardholder_id).catch(() => null);
      if (!cardholder) return null;
      return { ...scope, clientId: 'buy_token', buyerId: cardholder.id, userId: cardholder.user_id };
    }
    const principal = await this.deps.auth.authenticate(token);
    if (!principal) return null;
    if (principal.kind === 'platform') return 'platform';
    if (!principal.organizationActive) return 'suspended';
    return {
      organizationId: principal.organizationId,
      livemode: principal.livemode,
      clientId: principal.clientId,
      buyerId: principal.userId as string,
      userId: principal.userId,
    };
  }

  // ---- merchants

  async merchants(): Promise<MerchantInfo[]> {
    return [...this.sandbox, ...(await this.configured())].map((merchant) => merchant.info);
  }

  async merchant(slug: string): Promise<Merchant | null> {
    return (
      this.sandbox.find((m) => m.info.slug === slug) ??
      (await this.configured()).find((m) => m.info.slug === slug) ??
      null
    );
  }

  /** Merchants an ask searches when it names none: the ones this mode can place at. */
  private async searchable(buyer: Buyer): Promise<Merchant[]> {
    const all = [...this.sandbox, ...(await this.configured())];
    return all.filter((merchant) => merchant.info.sandbox === !buyer.livemode);
  }

  // ---- turns

  async turn(buyer: Buyer, input: TurnInput): Promise<Envelope> {
    const hashes =
      input.confirm === undefined ? [] : typeof input.confirm === 'string' ? [input.confirm] : input.confirm;
    const conversation = input.conversation_id
      ? await this.ownConversation(buyer, input.conversation_id)
      : await this.newConversation(buyer);

    // A cart already placed, or being placed, answers with its order without taking a turn (a
    // confirm of one hash as a string; an array's answer lists its placements, as the first did).
    if (typeof input.confirm === 'string' && input.ask === undefined) {
      const state = JSON.parse(conversation.state) as ConversationState;
      const existing = await this.orderOfCart(conversation.id, state, input.confirm);
      if (existing) return this.answerExisting(conversation, existing);
    }

    const now = this.clock.now();
    const taken = await this.store.takeTurn(
      this.db,
      conversation.id,
      now,
      now - this.config.turnTimeoutMs,
      hashes.length > 0 ? hashes : null,
    );
    if (!taken) return this.busy(conversation, hashes);
    // Read again under the lock: a turn that ended since the first read changed the state.
    const locked = (await this.store.conversationById(this.db, conversation.id)) ?? conversation;

    const state = JSON.parse(locked.state) as ConversationState;
    let result: { status: PurchaseStatus; envelope: Envelope };
    try {
      result = await this.runTurn(buyer, conversation.id, state, input, hashes);
    } catch (error) {
      await this.store.endTurn(this.db, conversation.id, {
        status: locked.status,
        state: locked.state,
        updated_at: this.clock.now(),
      });
      throw error;
    }
    const at = stamp(this.clock.now());
    if (input.ask !== undefined) state.messages.push({ role: 'user', text: input.ask, at });
    for (const text of result.envelope.messages) state.messages.push({ role: 'assistant', text, at });
    state.messages = state.messages.slice(-TRANSCRIPT_LIMIT);
    await this.store.endTurn(this.db, conversation.id, {
      status: result.status,
      state: JSON.stringify(state),
      updated_at: this.clock.now(),
    });
    return result.envelope;
  }

  private async runTurn(
    buyer: Buyer,
    conversationId: string,
    state: ConversationState,
    input: TurnInput,
    hashes: string[],
  ): Promise<{ status: PurchaseStatus; envelope: Envelope }> {
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
          merchants: await this.merchants(),
          search: (merchant, query) => this.search(buyer, state, merchant, query),
        });
      } catch (error) {
        if (!(error instanceof EngineUnavailable)) throw error;
        const reply = 'I could not understand that just now; please try again in a moment.';
        return {
          status: 'needs_input',
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
        envelope: envelope(conversationId, state, { status: 'needs_input', bubbles, unmatched }),
      };
    }
    return this.confirm(buyer, conversationId, state, input, hashes, bubbles, unmatched, repriced);
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
      const merchant = await this.merchant(action.merchant);
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
      const merchant = await this.merchant(slug);
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
      ? [await this.merchant(slug)].filter((m): m is Merchant => m !== null)
      : await this.searchable(buyer);
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

  // ---- confirms

  private async confirm(
    buyer: Buyer,
    conversationId: string,
    state: ConversationState,
    input: TurnInput,
    hashes: string[],
    bubbles: string[],
    unmatched: Unmatched[],
    repriced: Map<string, StoredCart>,
  ): Promise<{ status: PurchaseStatus; envelope: Envelope }> {
    const source = input.payment_source ?? 'balance';
    const multi = Array.isArray(input.confirm);
    const placements: (Placement & { bubble: string; cart?: StoredCart; approval_url?: string })[] = [];
    for (const hash of hashes) {
      const fresh = repriced.get(hash);
      placements.push(
        fresh
          ? cartChanged(hash, fresh)
          : await this.confirmOne(buyer, conversationId, state, hash, source, multi),
      );
    }
    for (const placement of placements) bubbles.push(placement.bubble);

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
    state.last_checkout = {
      at: stamp(this.clock.now()),
      hashes,
      status,
      order_id: first?.order_id ?? orderIdOf(lead),
      decline_code: status === 'declined' ? (lead?.decline_code ?? null) : null,
      charge_status: lead?.charge_status ?? null,
      placements: multi ? objects : null,
    };
    const changed = placements.find((p) => p.cart)?.cart;
    if (changed) state.shown = changed.merchant;
    return {
      status,
      envelope: envelope(conversationId, state, {
        status,
        bubbles,
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

  private async confirmOne(
    buyer: Buyer,
    conversationId: string,
    state: ConversationState,
    hash: string,
    source: string,
    multi: boolean,
  ): Promise<Placement & { bubble: string; cart?: StoredCart; approval_url?: string }> {
    const cart = state.carts.find((c) => c.hash === hash);
    if (!cart) {
      const order = await this.orderOfCart(conversationId, state, hash);
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
    // A vault card is charged through the sandbox network only: production has no card acquirer
    // to take the user's own card (docs/vault.md), so no production money is made from it.
    const cardInProduction = buyer.livemode && (source === 'vault' || source === 'added_card');
    if (!PAYABLE_SOURCES.has(source) || cardInProduction) {
      return declined(
        hash,
        cart.merchant,
        'unsupported_payment_source',
        cardInProduction
          ? `Paying with ${source} is available in test mode only; pay from the wallet balance.`
          : `Paying with ${source} is not available; pay from the wallet balance, the vault or an added card.`,
      );
    }
    const merchant = await this.merchant(cart.merchant);
    if (!merchant)
      return declined(hash, cart.merchant, 'no_cart', `${cart.merchant_name} is no longer available.`);
    if (merchant.info.sandbox === buyer.livemode) {
      return declined(
        hash,
        cart.merchant,
        'sandbox_mode',
        buyer.livemode
          ? `${cart.merchant_name} is a sandbox merchant: production money cannot be spent there.`
          : `Sandbox purchases complete only at the sandbox merchants; ${cart.merchant_name} takes real money.`,
      );
    }
    if (cart.quote.currency !== 'usd')
      return declined(
        hash,
        cart.merchant,
        'unsupported_currency',
        `${cart.merchant_name} sells in ${cart.quote.currency.toUpperCase()}; the wallet holds USD.`,
      );

    // The price and stock must still be the ones the user saw.
    const quote = await merchant.quote(cart.lines, state.address, cart.quote.merchantRef).catch(() => null);
    if (!quote)
      return declined(
        hash,
        cart.merchant,
        'merchant_unavailable',
        `${cart.merchant_name} could not be reached; nothing was charged.`,
      );
    const index = state.carts.indexOf(cart);
    if (quote.unavailable.length > 0) {
      const lines = cart.lines.filter((line) => !quote.unavailable.includes(line.product_id));
      // The rest priced again; a merchant that fails now leaves the cart as it was, to confirm again.
      const fresh = lines.length
        ? await merchant.quote(lines, state.address, quote.merchantRef).catch(() => undefined)
        : null;
      if (fresh)
        state.carts[index] = storedCart(
          merchant.info,
          lines,
          fresh,
          state.address,
          this.clock.now() + this.config.cartTtlMs,
          cart,
        );
      else if (fresh === null) state.carts.splice(index, 1);
      const result = declined(
        hash,
        cart.merchant,
        'items_unavailable',
        `Some items at ${cart.merchant_name} sold out; nothing was charged.`,
      );
      return fresh ? { ...result, cart: state.carts[index] as StoredCart } : result;
    }
    const fresh = storedCart(
      merchant.info,
      cart.lines,
      quote,
      state.address,
      this.clock.now() + this.config.cartTtlMs,
      cart,
    );
    if (fresh.hash !== cart.hash) {
      state.carts[index] = fresh;
      return cartChanged(hash, fresh);
    }
    if (!buyer.userId) {
      return declined(
        hash,
        cart.merchant,
        'wallet_required',
        'This cardholder is not linked to a user with a wallet.',
      );
    }
    const user = { organizationId: buyer.organizationId, livemode: buyer.livemode, userId: buyer.userId };
    const byCard = source === 'vault' || source === 'added_card';
    const card = byCard ? await this.deps.vault.payingCard(user) : null;
    if (byCard && !card)
      return declined(
        hash,
        cart.merchant,
        'vault_card_required',
        'There is no card in your vault to pay with; add one on the vault page (the app sends you its link).',
      );
    if (!byCard) {
      const wallet = await this.deps.cards.wallet(buyer, buyer.userId).catch(() => null);
      if (!wallet || wallet.balance_cents < authorizedCents(fresh))
        return declined(
          hash,
          cart.merchant,
          'insufficient_funds',
          `The wallet does not cover ${cartObject(fresh).totalCents / 100} ${fresh.quote.currency.toUpperCase()}; nothing was charged.`,
        );
    }
    // Under a mandate of this app for this user: within its terms no approval is asked, whatever the
    // threshold; outside them, declined or asked as the organization chose (docs/mandates.md).
    const mandate = byCard
      ? null
      : await this.mandateFor({ ...buyer, userId: buyer.userId }, fresh, merchant);
    if (mandate && !mandate.ok && mandate.overflow === 'decline')
      return declined(hash, cart.merchant, MANDATE_EXCEEDED, mandate.reply);
    const reason =
      mandate && !mandate.ok
        ? 'mandate'
        : mandate?.ok
          ? null
          : await this.approvalReason(buyer.organizationId, source, authorizedCents(fresh));
    if (reason) {
      const code = approvalDeclineCode(reason);
      if (multi)
        return declined(
          hash,
          cart.merchant,
          code,
          `The cart at ${cart.merchant_name} needs your approval: confirm it on its own to get its approval link.`,
        );
      const url = await this.approvals.request(
        { ...buyer, userId: buyer.userId },
        conversationId,
        fresh,
        state.address,
        reason,
        source,
        card,
      );
      return {
        ...declined(
          hash,
          cart.merchant,
          code,
          `Approve ${amountDisplay(authorizedCents(fresh), fresh.quote.currency)} at ${cart.merchant_name} on the approval page; nothing is charged until you do.`,
        ),
        approval_url: url,
      };
    }

    // Paid from the wallet now: a link still waiting for the user's approval of this cart ends.
    await this.approvals.supersede(conversationId, hash);
    const placement = await this.checkout.place(
      { ...buyer, userId: buyer.userId },
      conversationId,
      fresh,
      merchant,
      state.address,
      mandate?.ok ? mandate.id : null,
    );
    const order = (await this.store.orderById(this.db, placement.order_id as string)) as Order;
    if (placement.decline_code === MANDATE_EXCEEDED && mandate?.ok) {
      // The engine refused the charge under the mandate (its budget went to a concurrent purchase).
      const now = await this.deps.mandates.check(this.mandateCharge(mandate.id, fresh, merchant));
      const reply = now.ok ? 'This purchase is outside the mandate.' : now.reply;
      return { ...placement, bubble: `${reply} Nothing was charged.` };
    }
    if (placement.status === 'placed' || order.status === 'pending') {
      // Placed or in the worker's hands: the cart is no longer open.
      state.carts = state.carts.filter((c) => c.hash !== hash);
      if (state.shown === cart.merchant) state.shown = null;
    }
    return { ...placement, bubble: orderBubble(order, placement) };
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
  ): Promise<
    | { ok: true; id: string }
    | { ok: false; term: string; reply: string; overflow: 'decline' | 'approval' }
    | null
  > {
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

  /**
   * The live or placed order of the cart this hash names: the open cart's own (its confirm crashed
   * or is running), else, with no such cart open, the newest order of that hash in the conversation
   * (the confirm retried after it placed). Null when the hash is to be placed.
   */
  private async orderOfCart(
    conversationId: string,
    state: ConversationState,
    hash: string,
  ): Promise<Order | undefined> {
    const cart = state.carts.find((c) => c.hash === hash);
    if (cart) return this.store.orderByPlacementKey(this.db, placementKey(conversationId, cart));
    return this.store.lastOrderOfHash(this.db, conversationId, hash);
  }

  private async answerExisting(conversation: Conversation, order: Order): Promise<Envelope> {
    const placement = await this.checkout.placement(order);
    const state = JSON.parse(conversation.state) as ConversationState;
    const placed = placement.status === 'placed';
    return envelope(conversation.id, state, {
      status: placed ? 'order_placed' : 'declined',
      bubbles: [orderBubble(order, placement)],
      order_id: orderIdOf({ ...placement, order_id: order.id }),
      payment_source: placement.paid_with,
      decline_code: placement.decline_code,
      charge_status: placement.charge_status,
    });
  }

  /** Another turn of this conversation is running. */
  private busy(conversation: Conversation, hashes: string[]): Envelope {
    const state = JSON.parse(conversation.state) as ConversationState;
    const running = conversation.turn_confirm ? (JSON.parse(conversation.turn_confirm) as string[]) : [];
    if (hashes.some((hash) => running.includes(hash))) {
      return envelope(conversation.id, state, {
        status: 'declined',
        bubbles: ['That cart is being placed right now; its outcome follows shortly.'],
        decline_code: 'in_progress',
        charge_status: 'confirming',
      });
    }
    return envelope(conversation.id, state, {
      status: 'needs_input',
      bubbles: [
        'The previous message of this conversation is still being worked on; send this again once it is answered.',
      ],
      error_code: 'turn_in_progress',
    });
  }

  // ---- reads

  async conversation(buyer: Buyer, id: string) {
    const conversation = await this.ownConversation(buyer, id);
    const state = JSON.parse(conversation.state) as ConversationState;
    const orders = await this.store.ordersOfConversation(this.db, id);
    const running =
      conversation.turn_started_at !== null &&
      conversation.turn_started_at > this.clock.now() - this.config.turnTimeoutMs;
    return {
      object: 'conversation' as const,
      id,
      status: conversation.status,
      turn_in_progress: running,
      carts: state.carts.filter((cart) => cart.expires_at > this.clock.now()).map(cartObject),
      orders: orders.map((order) => ({
        order_id: order.id,
        status: order.status,
        merchant: order.merchant,
        merchant_name: order.merchant_name,
        total_cents: order.final_cents ?? order.total_cents,
        charge_status: order.charge_status,
        fulfillment_status: order.fulfillment_status,
        placed_at: order.placed_at === null ? null : stamp(order.placed_at),
      })),
      last_checkout: state.last_checkout,
      messages: state.messages,
    };
  }

  async order(buyer: Buyer, id: string) {
    const order = await this.store.orderOf(this.db, owner(buyer), id);
    if (!order) throw notFound('No such order.');
    return orderObject(order);
  }

  /** The amount an order's card was charged through the engine (the sandbox merchants' books). */
  private async chargedFor(orderId: string): Promise<number | null> {
    const txn = await this.deps.cards.store.transactionById(this.db, transactionIdOf(orderId));
    if (!txn || (txn.status !== 'PENDING' && txn.status !== 'SETTLED')) return null;
    return txn.settled_cents ?? txn.amount_cents;
  }

  private async ownConversation(buyer: Buyer, id: string): Promise<Conversation> {
    const conversation = await this.store.conversation(this.db, owner(buyer), id);
    if (!conversation) throw notFound('No such conversation.');
    return conversation;
  }

  private async newConversation(buyer: Buyer): Promise<Conversation> {
    const now = this.clock.now();
    const conversation: Conversation = {
      id: newId('conv'),
      organization_id: buyer.organizationId,
      livemode: livemodeColumn(buyer.livemode),
      buyer_id: buyer.buyerId,
      client_id: buyer.clientId,
      status: 'needs_input',
      state: JSON.stringify(emptyState()),
      turn_started_at: null,
      turn_confirm: null,
      created_at: now,
      updated_at: now,
    };
    await this.store.insertConversation(this.db, conversation);
    return conversation;
  }
}

export function owner(buyer: Buyer): Owner {
  return {
    organizationId: buyer.organizationId,
    livemode: buyer.livemode,
    buyerId: buyer.buyerId,
    clientId: buyer.clientId,
  };
}

export function orderObject(order: Order) {
  const cart = JSON.parse(order.cart) as CartObject;
  return {
    object: 'order' as const,
    id: order.id,
    conversation_id: order.conversation_id,
    status: order.status,
    merchant: order.merchant,
    merchant_name: order.merchant_name,
    items: cart.items,
    total_cents: order.final_cents ?? order.total_cents,
    approved_cents: order.authorized_cents,
    currency: order.currency,
    charge_status: order.charge_status,
    fulfillment_status: order.fulfillment_status,
    decline_code: order.decline_code,
    card_id: order.card_id,
    merchant_order_id: order.merchant_order_id,
    placed_at: order.placed_at === null ? null : stamp(order.placed_at),
    confirmed_at: order.confirmed_at === null ? null : stamp(order.confirmed_at),
    created_at: stamp(order.created_at),
  };
}

/**
 * The envelope's `order_id` for a placement (spec §2: set when the call placed an order): a placed
 * order's, and one whose charge is still settling or unknown (the id to follow it by); none for a
 * decline that charged nothing, though an order row records it.
 */
function orderIdOf(placement: Placement | undefined): string | null {
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

function orderBubble(order: Order, placement: Placement): string {
  if (placement.status === 'placed')
    return `Order ${order.id} placed at ${order.merchant_name} for ${((order.final_cents ?? order.total_cents) / 100).toFixed(2)} ${order.currency.toUpperCase()}.`;
  if (placement.decline_code === 'in_progress')
    return `Order ${order.id} at ${order.merchant_name} is being placed.`;
  if (placement.charge_status === 'unknown')
    return `${order.merchant_name} did not answer; order ${order.id} is being checked, and is either placed or refunded shortly.`;
  return `The order at ${order.merchant_name} was not placed (${placement.decline_code}); nothing was charged.`;
}
