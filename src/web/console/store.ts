import { sql } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import { isLive } from '../../domains/connect/index.ts';

/**
 * The console's own read-only queries: what its pages show that no domain service answers (the
 * organization's users with their connection and KYC status, events mentioning an object), and
 * whether an account exists before asking a service that would open it on first use (a GET never
 * changes anything). Nothing here writes.
 */

/** `!` escapes LIKE's wildcards: ids contain `_`. */
const likeEscaped = (text: string) => text.replace(/[!%_]/g, (c) => `!${c}`);

/**
 * Events of the organization and mode whose data mentions one of `ids` as a JSON string value
 * (`"card_…"`), newest first, strictly older than `before`. The events API filters by type and
 * time only; a user's or a card's events are found by their ids in the data.
 */
export function eventsMentioning(
  db: Executor,
  owner: Tenant,
  filter: { type: string | null; ids: string[] },
  before: { created_at: number; id: string } | null,
  limit: number,
) {
  let query = db
    .selectFrom('events')
    .select(['id', 'type', 'created_at'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where((eb) =>
      eb.or(filter.ids.map((id) => sql<boolean>`data like ${`%"${likeEscaped(id)}"%`} escape '!'`)),
    );
  if (filter.type !== null) query = query.where('type', '=', filter.type);
  if (before !== null)
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', before.created_at),
        eb.and([eb('created_at', '=', before.created_at), eb('id', '<', before.id)]),
      ]),
    );
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** An event's position (for paging on from it), when it is this organization's and mode's. */
export function eventPosition(db: Executor, owner: Tenant, id: string) {
  return db
    .selectFrom('events')
    .select(['id', 'created_at'])
    .where('id', '=', id)
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .executeTakeFirst();
}

/** The ids of a user's cards and cardholders (what their events name), newest first. */
export async function idsOfUser(db: Executor, owner: Tenant, userId: string, limit: number) {
  const cards = await db
    .selectFrom('cards')
    .select(['id', 'cardholder_id'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  const cardholders = await db
    .selectFrom('cardholders')
    .select('id')
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', '=', userId)
    .execute();
  return [...new Set([...cards.map((c) => c.id), ...cardholders.map((c) => c.id)])];
}

/** The organization's users in one mode, newest first, or one of them. */
export function users(db: Executor, owner: Tenant, limit: number, id?: string) {
  let query = db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'created_at'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode));
  if (id !== undefined) query = query.where('id', '=', id);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * The users' connections (one per client they connected to), each `live` as `isLive` says.
 */
export function connectionsOf(db: Executor, owner: Tenant, userIds: string[], now: number) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('connections')
    .select((eb) => [
      'connections.id',
      'connections.user_id',
      'connections.client_id',
      'connections.external_user_id',
      'connections.created_at',
      'connections.updated_at',
      isLive(eb, now).as('live'),
    ])
    .where('connections.organization_id', '=', owner.organizationId)
    .where('connections.livemode', '=', livemodeColumn(owner.livemode))
    .where('connections.user_id', 'in', userIds)
    .orderBy('connections.created_at', 'desc')
    .execute();
}

/** Each user's latest identity verification: status, reason and when it last changed. */
export async function kycOf(db: Executor, owner: Tenant, userIds: string[]) {
  if (userIds.length === 0)
    return new Map<string, { status: string; reason: string | null; updated_at: number }>();
  const rows = await db
    .selectFrom('kyc_verifications')
    .select(['user_id', 'status', 'reason', 'updated_at'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', 'in', userIds)
    .orderBy('created_at', 'asc')
    .execute();
  // Oldest first: the latest of each user is the one left in the map.
  return new Map(rows.map((row) => [row.user_id, row]));
}

/** The users' cards, newest first: last4 and status. */
export function cardsOf(db: Executor, owner: Tenant, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('cards')
    .select(['id', 'user_id', 'last4', 'status'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('user_id', 'in', userIds)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Which of these owners (users, or the organization) have a ledger account of the kind already. */
export async function ledgerOwners(
  db: Executor,
  owner: Tenant,
  kind: 'user_wallet' | 'company_pool',
  ownerIds: string[],
): Promise<Set<string>> {
  if (ownerIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('ledger_accounts')
    .select('owner_id')
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .where('kind', '=', kind)
    .where('owner_id', 'in', ownerIds)
    .execute();
  return new Set(rows.map((row) => row.owner_id));
}

/** Whether the organization's company wallet in this mode was ever opened. */
export async function hasCompanyWallet(db: Executor, owner: Tenant): Promise<boolean> {
  const row = await db
    .selectFrom('company_wallets')
    .select('organization_id')
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .executeTakeFirst();
  return (
    row !== undefined && (await ledgerOwners(db, owner, 'company_pool', [owner.organizationId])).size > 0
  );
}

/** The organization's orders in one mode, newest first, or one of them; with whether each has a receipt. */
export function orders(db: Executor, owner: Tenant, limit: number, id?: string) {
  let query = db
    .selectFrom('orders')
    .leftJoin('order_receipts', 'order_receipts.order_id', 'orders.id')
    .select([
      'orders.id',
      'orders.conversation_id',
      'orders.user_id',
      'orders.client_id',
      'orders.merchant',
      'orders.merchant_name',
      'orders.cart_hash',
      'orders.currency',
      'orders.total_cents',
      'orders.final_cents',
      'orders.status',
      'orders.charge_status',
      'orders.fulfillment_status',
      'orders.decline_code',
      'orders.card_id',
      'orders.merchant_order_id',
      'orders.placed_at',
      'orders.created_at',
      'order_receipts.mandate_id',
    ])
    .where('orders.organization_id', '=', owner.organizationId)
    .where('orders.livemode', '=', livemodeColumn(owner.livemode));
  if (id !== undefined) query = query.where('orders.id', '=', id);
  return query.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').limit(limit).execute();
}

/**
 * The grants of the organization's apps in one mode (one connection per user and app), newest
 * first, each `live` as `isLive` says, with the app's name and the user's email or phone.
 */
export function grants(db: Executor, owner: Tenant, now: number, limit: number) {
  return db
    .selectFrom('connections')
    .innerJoin('clients', 'clients.id', 'connections.client_id')
    .innerJoin('users', 'users.id', 'connections.user_id')
    .select((eb) => [
      'connections.id',
      'connections.user_id',
      'connections.client_id',
      'clients.name as client_name',
      'users.email',
      'users.phone',
      'connections.created_at',
      'connections.updated_at',
      isLive(eb, now).as('live'),
    ])
    .where('connections.organization_id', '=', owner.organizationId)
    .where('connections.livemode', '=', livemodeColumn(owner.livemode))
    .orderBy('connections.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** The organization's mandates in one mode (any user), newest first: what the apps page counts. */
export function mandates(db: Executor, owner: Tenant, limit: number) {
  return db
    .selectFrom('mandates')
    .select(['id', 'user_id', 'client_id', 'status', 'expires_at'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
