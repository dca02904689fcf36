import type { Clock } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import type { OutboundGuard } from '../../core/http/client.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { missing } from '../../core/refusal.ts';
import { livemodeColumn, tenantOf } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import { writeAlone } from '../../db/write-transaction.ts';
import type { AuthService } from '../auth/index.ts';
import { type CardService, cardTransactionById, type EventEmitter } from '../cards/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { VaultService } from '../vault/index.ts';
import { Approvals } from './approvals.ts';
import { type CartObject, cartObject, placementKey } from './cart.ts';
import { type Buyer, Checkout } from './checkout.ts';
import type { PurchaseConfig } from './config.ts';
import { Confirms, orderBubble, orderIdOf } from './confirm.ts';
import {
  type ConversationState,
  type Envelope,
  emptyState,
  envelope,
  stamp,
  TRANSCRIPT_LIMIT,
} from './conversation.ts';
import { BuiltinEngine } from './engine/builtin.ts';
import { createPurchaseEngine } from './engine/config.ts';
import type { PurchaseMandates } from './mandate-port.ts';
import type { DeliveryAddress, Merchant, MerchantInfo } from './merchants/merchant.ts';
import { type SandboxMerchant, sandboxMerchants } from './merchants/sandbox.ts';
import { transactionIdOf } from './order-states.ts';
import type { Conversation, Order, Owner } from './store.ts';
import * as store from './store.ts';
import { Turns } from './turn.ts';

/** Buy tokens live an hour (issue 11), like connection tokens (spec §8). */
export const BUY_TOKEN_TTL_SECONDS = 3600;

export { PAYMENT_SOURCES } from './confirm.ts';

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
  readonly checkout: Checkout;
  /** Confirms paused for the user's approval on a hosted page (approvals.ts). */
  readonly approvals: Approvals;
  readonly sandbox: SandboxMerchant[];
  private readonly turns: Turns;
  /** Merchants an operator configured (the ACP adapter), looked up by slug. */
  private configured: () => Promise<Merchant[]> = async () => [];
  private readonly handle: { db: Db; dialect: 'sqlite' | 'postgres' };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly config: PurchaseConfig,
    private readonly deps: {
      auth: AuthService;
      orgs: OrgService;
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
    this.handle = { db, dialect: deps.dialect };
    this.sandbox = sandboxMerchants((orderId) => this.chargedFor(orderId));
    this.checkout = new Checkout(db, clock, config, {
      ...deps,
      merchant: (slug) => this.merchant(slug),
    });
    this.approvals = new Approvals(
      db,
      clock,
      { baseUrl: deps.baseUrl, approvalTtlMs: config.approvalTtlMs, turnTimeoutMs: config.turnTimeoutMs },
      this.checkout,
      { ...deps, merchant: (slug) => this.merchant(slug) },
    );
    const confirms = new Confirms(clock, config, this.checkout, this.approvals, {
      ...deps,
      merchant: (slug) => this.merchant(slug),
      orderOfCart: (conversationId, state, hash) => this.orderOfCart(conversationId, state, hash),
    });
    const engine = createPurchaseEngine(config.engine, new BuiltinEngine(), deps.outbound);
    this.turns = new Turns(clock, config, engine, this, confirms);
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
    await store.insertBuyToken(this.db, {
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
      const row = await store.buyTokenByDigest(this.db, digest(token));
      if (!row || row.expires_at <= this.clock.now()) return null;
      // The organization's status is the orgs domain's to say (it owns `organizations`).
      const organization = await this.deps.orgs.getOrganization(row.organization_id);
      if (organization.status !== 'active') return 'suspended';
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
  async searchable(buyer: Buyer): Promise<Merchant[]> {
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
    // The conversation as locked: a turn that ended since the first read changed the state.
    const locked = await writeAlone(this.handle, (exec) =>
      store.takeTurn(
        exec,
        conversation.id,
        now,
        now - this.config.turnTimeoutMs,
        hashes.length > 0 ? hashes : null,
      ),
    );
    if (!locked) return this.busy(conversation, hashes);

    const state = JSON.parse(locked.state) as ConversationState;
    let result: Awaited<ReturnType<Turns['run']>>;
    try {
      result = await this.turns.run(buyer, conversation.id, state, input, hashes);
    } catch (error) {
      await this.endTurn(conversation.id, {
        status: locked.status,
        state: locked.state,
        updated_at: this.clock.now(),
      });
      throw error;
    }
    const at = stamp(this.clock.now());
    const messages = [
      ...result.state.messages,
      ...(input.ask !== undefined ? [{ role: 'user' as const, text: input.ask, at }] : []),
      ...result.envelope.messages.map((text) => ({ role: 'assistant' as const, text, at })),
    ].slice(-TRANSCRIPT_LIMIT);
    await this.endTurn(conversation.id, {
      status: result.status,
      state: JSON.stringify({ ...result.state, messages }),
      updated_at: this.clock.now(),
    });
    return result.envelope;
  }

  private endTurn(id: string, changes: Parameters<typeof store.endTurn>[2]): Promise<void> {
    return writeAlone(this.handle, (exec) => store.endTurn(exec, id, changes));
  }

  /**
   * The live or placed order of the cart this hash names: the open cart's own (its confirm crashed
   * or is running), else, with no such cart open, the newest order of that hash in the conversation
   * (the confirm retried after it placed). Null when the hash is to be placed.
   */
  async orderOfCart(
    conversationId: string,
    state: ConversationState,
    hash: string,
  ): Promise<Order | undefined> {
    const cart = state.carts.find((c) => c.hash === hash);
    if (cart) return store.orderByPlacementKey(this.db, placementKey(conversationId, cart));
    return store.lastOrderOfHash(this.db, conversationId, hash);
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
    const orders = await store.ordersOfConversation(this.db, id);
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
    const order = await store.orderOf(this.db, owner(buyer), id);
    if (!order) throw missing('No such order.');
    return orderObject(order);
  }

  /** The amount an order's card was charged through the engine (the sandbox merchants' books). */
  private async chargedFor(orderId: string): Promise<number | null> {
    const txn = await cardTransactionById(this.db, transactionIdOf(orderId));
    if (!txn || (txn.status !== 'PENDING' && txn.status !== 'SETTLED')) return null;
    return txn.settled_cents ?? txn.amount_cents;
  }

  private async ownConversation(buyer: Buyer, id: string): Promise<Conversation> {
    const conversation = await store.conversation(this.db, owner(buyer), id);
    if (!conversation) throw missing('No such conversation.');
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
    await store.insertConversation(this.db, conversation);
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
