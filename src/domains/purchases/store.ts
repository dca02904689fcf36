import type { ExpressionBuilder, Selectable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { insertOne, runCompiled } from '../../db/compiled.ts';
import { dialectOf, lockedOnPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import type {
  BuyTokensTable,
  CheckoutAuthorizationsTable,
  ConversationsTable,
  Database,
  OrdersTable,
} from '../../db/schema.ts';
import { type OrderMove, type OrderStep, orderTransition } from './order-states.ts';

export type Conversation = Selectable<ConversationsTable>;
export type Order = Selectable<OrdersTable>;
export type BuyToken = Selectable<BuyTokensTable>;
type Authorization = CheckoutAuthorizationsTable;

/** Who a conversation belongs to: one buyer through one client, in one organization and mode. */
export interface Owner {
  organizationId: string;
  livemode: boolean;
  buyerId: string;
  clientId: string;
}

/** Rows of this buyer, through this client, in this organization and mode (conversations, orders). */
function ownedBy(owner: Owner) {
  return (eb: ExpressionBuilder<Database, 'conversations' | 'orders'>) =>
    eb.and([
      eb('organization_id', '=', owner.organizationId),
      eb('livemode', '=', livemodeColumn(owner.livemode)),
      eb('buyer_id', '=', owner.buyerId),
      eb('client_id', '=', owner.clientId),
    ]);
}

/** The only code that touches the purchases domain's tables. */

export async function insertBuyToken(exec: Executor, token: BuyToken): Promise<void> {
  await exec.insertInto('buy_tokens').values(token).execute();
}

/** A buy token by its digest, with its organization's status. */
export function buyTokenByDigest(exec: Executor, digest: string) {
  return exec.selectFrom('buy_tokens').selectAll().where('token_digest', '=', digest).executeTakeFirst();
}

export async function insertConversation(exec: Executor, conversation: Conversation): Promise<void> {
  await exec.insertInto('conversations').values(conversation).execute();
}

// The queries of every `/buy` turn and confirm are compiled once (db/compiled.ts `runCompiled`).

export async function conversation(
  exec: Executor,
  owner: Owner,
  id: string,
): Promise<Conversation | undefined> {
  const { organizationId, livemode, buyerId, clientId } = owner;
  const parameters = [id, organizationId, livemodeColumn(livemode), buyerId, clientId];
  const [row] = await runCompiled<Conversation>(exec, 'conversation of owner', parameters, () =>
    exec.selectFrom('conversations').selectAll().where('id', '=', id).where(ownedBy(owner)),
  );
  return row;
}

export async function conversationById(exec: Executor, id: string): Promise<Conversation | undefined> {
  const [row] = await runCompiled<Conversation>(exec, 'conversation by id', [id], () =>
    exec.selectFrom('conversations').selectAll().where('id', '=', id),
  );
  return row;
}

/**
 * The turn lock: taken when no turn runs, or when the running one started before `staleBefore`
 * (its process died). The conversation as this call locked it, or undefined when it did not.
 */
export async function takeTurn(
  exec: Executor,
  id: string,
  now: number,
  staleBefore: number,
  confirming: string[] | null,
): Promise<Conversation | undefined> {
  const turnConfirm = confirming ? JSON.stringify(confirming) : null;
  const [row] = await runCompiled<Conversation>(exec, 'take turn', [now, turnConfirm, id, staleBefore], () =>
    exec
      .updateTable('conversations')
      .set({ turn_started_at: now, turn_confirm: turnConfirm })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('turn_started_at', 'is', null), eb('turn_started_at', '<', staleBefore)]))
      .returningAll(),
  );
  return row;
}

/** Writes the turn's outcome and releases the lock. */
export async function endTurn(
  exec: Executor,
  id: string,
  changes: { status: string; state: string; updated_at: number },
) {
  const { status, state, updated_at } = changes;
  await runCompiled(exec, 'end turn', [status, state, updated_at, null, null, id], () =>
    exec
      .updateTable('conversations')
      .set({ status, state, updated_at, turn_started_at: null, turn_confirm: null })
      .where('id', '=', id),
  );
}

export async function insertOrder(exec: Executor, order: Order): Promise<void> {
  await insertOne(exec, 'orders', order);
}

export async function orderById(exec: Executor, id: string): Promise<Order | undefined> {
  const [row] = await runCompiled<Order>(exec, 'order by id', [id], () =>
    exec.selectFrom('orders').selectAll().where('id', '=', id),
  );
  return row;
}

export async function orderByPlacementKey(exec: Executor, key: string): Promise<Order | undefined> {
  const [row] = await runCompiled<Order>(exec, 'order by placement key', [key], () =>
    exec.selectFrom('orders').selectAll().where('placement_key', '=', key),
  );
  return row;
}

/** The newest live or placed order (it holds a placement key) of a cart hash in a conversation. */
export function lastOrderOfHash(exec: Executor, conversationId: string, cartHash: string) {
  return exec
    .selectFrom('orders')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('cart_hash', '=', cartHash)
    .where('placement_key', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The first order of a cart in a conversation made at or after `since` (whatever became of it):
 * an approval's order, should its process have died before recording it.
 */
export function orderOfCartSince(exec: Executor, conversationId: string, cartHash: string, since: number) {
  return exec
    .selectFrom('orders')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('cart_hash', '=', cartHash)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .executeTakeFirst();
}

// ---- checkout authorizations (approvals.ts)

export async function insertAuthorization(exec: Executor, row: Authorization): Promise<void> {
  await exec.insertInto('checkout_authorizations').values(row).execute();
}

export function authorizationByTokenDigest(exec: Executor, tokenDigest: string) {
  return exec
    .selectFrom('checkout_authorizations')
    .selectAll()
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/**
 * Reads an authorization to change it: on PostgreSQL its row locked (SQLite's write transaction
 * already holds the database).
 */
export async function lockAuthorization(exec: Executor, id: string): Promise<Authorization> {
  const query = exec.selectFrom('checkout_authorizations').selectAll().where('id', '=', id);
  return lockedOnPostgres(exec, query).executeTakeFirstOrThrow();
}

/**
 * The pending authorizations of a cart in a conversation; `lock` (to change them) locks their rows
 * on PostgreSQL (SQLite's write transaction already holds the database).
 */
export function pendingAuthorizations(
  exec: Executor,
  conversationId: string,
  cartHash: string,
  lock = false,
) {
  const forUpdate = lock && dialectOf(exec) === 'postgres';
  const key = forUpdate ? 'pending authorizations of cart, locked' : 'pending authorizations of cart';
  return runCompiled<Authorization>(exec, key, [conversationId, cartHash, 'pending'], () => {
    const query = exec
      .selectFrom('checkout_authorizations')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('cart_hash', '=', cartHash)
      .where('status', '=', 'pending');
    return forUpdate ? query.forUpdate() : query;
  });
}

/** The ids of pending authorizations past their time at `now`, the oldest first. */
export function dueAuthorizations(exec: Executor, now: number, limit: number) {
  return exec
    .selectFrom('checkout_authorizations')
    .select('id')
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/** Moves an authorization still `from` to `to` (authorization-states.ts), decided at `now`. */
export async function moveAuthorization(
  exec: Executor,
  id: string,
  from: Authorization['status'],
  to: Authorization['status'],
  now: number,
): Promise<void> {
  await exec
    .updateTable('checkout_authorizations')
    .set({ status: to, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', from)
    .execute();
}

/** Approved authorizations decided at or before `decidedBefore` that have no order yet. */
export function approvedWithoutOrder(exec: Executor, decidedBefore: number, limit: number) {
  return exec
    .selectFrom('checkout_authorizations')
    .selectAll()
    .where('status', '=', 'approved')
    .where('order_id', 'is', null)
    .where('decided_at', '<=', decidedBefore)
    .limit(limit)
    .execute();
}

/** Approved authorizations paid by a vault card whose order exists and whose card charge is not trued up. */
export function cardChargesUnsettled(exec: Executor, limit: number) {
  return exec
    .selectFrom('checkout_authorizations')
    .selectAll()
    .where('status', '=', 'approved')
    .where('vault_card_id', 'is not', null)
    .where('order_id', 'is not', null)
    .where('card_settled_at', 'is', null)
    .limit(limit)
    .execute();
}

/** The order an authorization placed, recorded once. */
export async function recordAuthorizationOrder(exec: Executor, id: string, orderId: string): Promise<void> {
  await exec
    .updateTable('checkout_authorizations')
    .set({ order_id: orderId })
    .where('id', '=', id)
    .where('order_id', 'is', null)
    .execute();
}

/** The vault card's charge of an authorization trued up, once; false when it already was. */
export async function settleCardCharge(exec: Executor, id: string, now: number): Promise<boolean> {
  const settled = await exec
    .updateTable('checkout_authorizations')
    .set({ card_settled_at: now })
    .where('id', '=', id)
    .where('card_settled_at', 'is', null)
    .executeTakeFirst();
  return Number(settled.numUpdatedRows) === 1;
}

/**
 * The approval of an order that the user's own card paid for (`payment_source` `vault` or
 * `added_card`), if one did: its source and the vault card's id.
 */
export async function cardApprovalOf(exec: Executor, orderId: string) {
  const [row] = await runCompiled(exec, 'card approval of order', [orderId], () =>
    exec
      .selectFrom('checkout_authorizations')
      .select(['payment_source as source', 'vault_card_id'])
      .where('order_id', '=', orderId)
      .where('vault_card_id', 'is not', null)
      .$narrowType<{ vault_card_id: string }>(),
  );
  return row;
}

export function orderOf(exec: Executor, owner: Owner, id: string) {
  return exec.selectFrom('orders').selectAll().where('id', '=', id).where(ownedBy(owner)).executeTakeFirst();
}

export function ordersOfConversation(exec: Executor, conversationId: string) {
  return exec
    .selectFrom('orders')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function orderByMerchantRef(exec: Executor, merchant: string, merchantRef: string) {
  return exec
    .selectFrom('orders')
    .selectAll()
    .where('merchant', '=', merchant)
    .where('merchant_ref', '=', merchantRef)
    .executeTakeFirst();
}

/** Orders the worker must resolve: still pending, and due (`next_check_at` passed). */
export function dueOrders(exec: Executor, now: number, limit: number) {
  return exec
    .selectFrom('orders')
    .selectAll()
    .where('status', '=', 'pending')
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
}

/**
 * Moves an order still at step `from` as the order table says (order-states.ts): the order as
 * moved, or undefined when another process moved it first. A move the table has no row for
 * throws: it is a bug, not a race.
 */
export async function moveOrder(
  exec: Executor,
  id: string,
  from: OrderStep,
  move: OrderMove,
  changes: Partial<Omit<Order, 'id' | 'created_at' | 'step' | 'status'>>,
): Promise<Order | undefined> {
  const transition = orderTransition(from, move);
  if (!transition) throw new Error(`An order at step ${from} cannot move by ${move}.`);
  const set = { ...changes, ...transition.to };
  const columns = Object.keys(set).filter((column) => set[column as keyof typeof set] !== undefined);
  const parameters = columns.map((column) => set[column as keyof typeof set]);
  parameters.push(id, transition.from.step, transition.from.status);
  // One statement per move and set of columns.
  const [moved] = await runCompiled<Order>(exec, `move order ${from} ${move} (${columns})`, parameters, () =>
    exec
      .updateTable('orders')
      .set(set)
      .where('id', '=', id)
      .where('step', '=', transition.from.step)
      .where('status', '=', transition.from.status)
      .returningAll(),
  );
  return moved;
}

/** A placed order becomes confirmed, once; false when it already was (or is not placed). */
export async function confirmOrder(
  exec: Executor,
  id: string,
  merchantOrderId: string | null,
  now: number,
): Promise<boolean> {
  const confirmed = await moveOrder(exec, id, 'done', 'merchant_confirmed', {
    merchant_order_id: merchantOrderId,
    confirmed_at: now,
    updated_at: now,
  });
  return confirmed !== undefined;
}

/** A placed order's fulfillment moves to `to` from one of `from`; false when it was elsewhere. */
export async function moveFulfillment(
  exec: Executor,
  id: string,
  from: NonNullable<Order['fulfillment_status']>[],
  to: NonNullable<Order['fulfillment_status']>,
  now: number,
): Promise<boolean> {
  if (from.length === 0) return false;
  const result = await exec
    .updateTable('orders')
    .set({ fulfillment_status: to, updated_at: now })
    .where('id', '=', id)
    .where('fulfillment_status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The organization's orders in one mode, newest first, or one of them (what the console lists). */
export function ordersOf(db: Executor, owner: Tenant, limit: number, id?: string) {
  let query = db
    .selectFrom('orders')
    .select([
      'id',
      'conversation_id',
      'user_id',
      'client_id',
      'merchant',
      'merchant_name',
      'cart_hash',
      'currency',
      'total_cents',
      'final_cents',
      'status',
      'charge_status',
      'fulfillment_status',
      'decline_code',
      'card_id',
      'merchant_order_id',
      'placed_at',
      'created_at',
    ])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode));
  if (id !== undefined) query = query.where('id', '=', id);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
