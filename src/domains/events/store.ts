import { type Insertable, type Selectable, type SelectQueryBuilder, sql, type Updateable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { insertOne, runCompiled } from '../../db/compiled.ts';
import type { Dialect, Executor } from '../../db/index.ts';
import type {
  EventsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from '../../db/schema.ts';

export type EventRow = EventsTable;
export type EndpointRow = WebhookEndpointsTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** Keyset position of a row in a newest-first list. */
export interface Position {
  created_at: number;
  id: string;
}

/** Rows strictly after `position` in (created_at, id) order, newest first unless `oldest`. */
function after<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  position: Position | null,
  table: string,
  order: 'newest' | 'oldest' = 'newest',
): SelectQueryBuilder<DB, TB, O> {
  if (!position) return query;
  const createdAt = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  const beyond = sql.raw(order === 'newest' ? '<' : '>');
  const bound = sql.raw(order === 'newest' ? '<=' : '>=');
  // The bound on created_at alone is what lets the planner seek the listing index to the position
  // instead of walking it from the newest row (a page deep in a million events: 115 ms, bench/scale).
  return query
    .where(sql<boolean>`${createdAt} ${bound} ${position.created_at}`)
    .where(sql<boolean>`(${createdAt} ${beyond} ${position.created_at} or ${id} ${beyond} ${position.id})`);
}

// ---- events ----

export async function insertEvent(db: Executor, row: Insertable<EventsTable>): Promise<void> {
  await insertOne(db, 'events', row);
}

/** An event row with every column, in this order (a compiled insert's parameters follow it). */
export interface NewEvent {
  id: string;
  organization_id: string;
  livemode: number;
  type: string;
  data: string;
  created_at: number;
}

/** The rows' values in the insert's order (a loop: every authorization inserts two events). */
function eventValues(rows: NewEvent[]): unknown[] {
  const values: unknown[] = [];
  for (const row of rows)
    values.push(row.id, row.organization_id, row.livemode, row.type, row.data, row.created_at);
  return values;
}

/** Inserts events in one statement. */
export async function insertEvents(db: Executor, rows: NewEvent[]): Promise<void> {
  await runCompiled(db, `insert ${rows.length} events`, eventValues(rows), () =>
    db.insertInto('events').values(rows),
  );
}

/**
 * Inserts events of one owner and reads the owner's active endpoints in the same statement (one
 * round trip on PostgreSQL, where an event's write and the endpoints it is owed to are one request's
 * hot path); the rows inserted are not among what it reads.
 */
export function insertEventsReadingEndpoints(
  db: Executor,
  rows: NewEvent[],
  organizationId: string,
  livemode: number,
): Promise<Pick<EndpointRow, 'id' | 'enabled_events'>[]> {
  return runCompiled(
    db,
    `insert ${rows.length} events, active endpoints`,
    [...eventValues(rows), organizationId, livemode, 'active'],
    () =>
      db
        .with('inserted', (qc) => qc.insertInto('events').values(rows))
        .selectFrom('webhook_endpoints')
        .select(['id', 'enabled_events'])
        .where('organization_id', '=', organizationId)
        .where('livemode', '=', livemode)
        .where('status', '=', 'active'),
  );
}

export async function findEvent(db: Executor, owner: Tenant, id: string): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .executeTakeFirst();
}

export interface EventFilter {
  /** Exact types and prefixes (`card.` for `card.*`); empty means every type. */
  exactTypes: string[];
  typePrefixes: string[];
  /** Inclusive lower and exclusive upper bound on created_at, in ms. */
  createdFrom: number | null;
  createdBefore: number | null;
}

/** `!` escapes LIKE's wildcards: type names contain `_`. */
const likePrefix = (prefix: string) => `${prefix.replace(/[!%_]/g, (c) => `!${c}`)}%`;

export async function listEvents(
  db: Executor,
  owner: Tenant,
  filter: EventFilter,
  position: Position | null,
  limit: number,
  order: 'newest' | 'oldest' = 'newest',
): Promise<EventRow[]> {
  let query = db
    .selectFrom('events')
    .selectAll()
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode));
  if (filter.exactTypes.length > 0 || filter.typePrefixes.length > 0) {
    query = query.where((eb) =>
      eb.or([
        ...(filter.exactTypes.length > 0 ? [eb('type', 'in', filter.exactTypes)] : []),
        ...filter.typePrefixes.map((prefix) => sql<boolean>`type like ${likePrefix(prefix)} escape '!'`),
      ]),
    );
  }
  if (filter.createdFrom !== null) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdBefore !== null) query = query.where('created_at', '<', filter.createdBefore);
  const direction = order === 'newest' ? 'desc' : 'asc';
  return after(query, position, 'events', order)
    .orderBy('created_at', direction)
    .orderBy('id', direction)
    .limit(limit)
    .execute();
}

// ---- endpoints ----

/**
 * Counts this process's writes that can change which endpoints are active. The outbox reads an
 * owner's active endpoints once per transaction; on SQLite a group-commit batch runs several
 * transactions on one connection, so a member that changes an endpoint makes the later ones read
 * again (see `Outbox.insertEvents`).
 */
export const endpointWrites = { count: 0 };

export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointsTable>): Promise<void> {
  endpointWrites.count++;
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function findEndpoint(
  db: Executor,
  owner: Tenant,
  id: string,
): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .executeTakeFirst();
}

export async function findEndpointById(db: Executor, id: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listEndpoints(
  db: Executor,
  owner: Tenant,
  position: Position | null,
  limit: number,
): Promise<EndpointRow[]> {
  const query = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode));
  return after(query, position, 'webhook_endpoints')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The endpoints an emitted event may go to. */
export async function activeEndpoints(
  db: Executor,
  organizationId: string,
  livemode: number,
): Promise<Pick<EndpointRow, 'id' | 'enabled_events'>[]> {
  return runCompiled(db, 'active endpoints', [organizationId, livemode, 'active'], () =>
    db
      .selectFrom('webhook_endpoints')
      .select(['id', 'enabled_events'])
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .where('status', '=', 'active'),
  );
}

export async function updateEndpoint(
  db: Executor,
  id: string,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<void> {
  endpointWrites.count++;
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

/** Deletes the endpoint with its deliveries and their attempts. */
export async function deleteEndpoint(db: Executor, id: string): Promise<void> {
  endpointWrites.count++;
  await db
    .deleteFrom('webhook_attempts')
    .where('delivery_id', 'in', (eb) =>
      eb.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', id),
    )
    .execute();
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

// ---- deliveries ----

/** A delivery row with every column an owed delivery is written with, in this order (`newDelivery`). */
export interface NewDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  organization_id: string;
  livemode: number;
  status: 'pending';
  attempts: number;
  next_attempt_at: number;
  lease_token: null;
  created_at: number;
  updated_at: number;
}

const deliveryValues = (row: NewDelivery) => [
  row.id,
  row.event_id,
  row.endpoint_id,
  row.organization_id,
  row.livemode,
  row.status,
  row.attempts,
  row.next_attempt_at,
  row.lease_token,
  row.created_at,
  row.updated_at,
];

export async function insertDeliveries(db: Executor, rows: NewDelivery[]): Promise<void> {
  // An event is owed to few endpoints (usually one): a compiled single-row insert each is cheaper
  // than compiling a multi-row insert for every emit.
  for (const row of rows)
    await runCompiled(db, 'insert delivery', deliveryValues(row), () =>
      db.insertInto('webhook_deliveries').values(row),
    );
}

/**
 * What is owed now: pending deliveries due and waiting for a worker, held by one (an attempt in
 * flight), or scheduled for a later retry; and when the longest-waiting due one became due.
 */
export async function backlog(
  db: Executor,
  now: number,
): Promise<{ due: number; inFlight: number; scheduled: number; oldestDueAt: number | null }> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select([
      sql<number>`coalesce(sum(case when next_attempt_at <= ${now} then 1 else 0 end), 0)`.as('due'),
      sql<number>`coalesce(sum(case when next_attempt_at > ${now} and lease_token is not null then 1 else 0 end), 0)`.as(
        'in_flight',
      ),
      sql<number>`coalesce(sum(case when next_attempt_at > ${now} and lease_token is null then 1 else 0 end), 0)`.as(
        'scheduled',
      ),
      sql<number | null>`min(case when next_attempt_at <= ${now} then next_attempt_at end)`.as(
        'oldest_due_at',
      ),
    ])
    .where('status', '=', sql.lit('pending')) // the partial index's own term (delivery-store.ts `claimDue`)
    .executeTakeFirstOrThrow();
  const count = (value: unknown) => Number(value ?? 0);
  return {
    due: count(row.due),
    inFlight: count(row.in_flight),
    scheduled: count(row.scheduled),
    oldestDueAt: row.oldest_due_at === null ? null : Number(row.oldest_due_at),
  };
}

/** Stops what is still owed to an endpoint (it was disabled or deleted). */
export async function cancelPending(db: Executor, endpointId: string, now: number, reason: string) {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', last_error: reason, lease_token: null, updated_at: now, completed_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** Holds the endpoint's row until the transaction ends (PostgreSQL; SQLite's write lock already does). */
export async function lockEndpoint(db: Executor, dialect: Dialect, endpointId: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('webhook_endpoints').select('id').where('id', '=', endpointId).forUpdate().execute();
}

/**
 * The events whose delivery to the endpoint failed or was cancelled at or after `since` (ms), each
 * once, oldest event first; not those the endpoint is still owed (pending) or has received since.
 */
export async function failedEventsSince(db: Executor, endpointId: string, since: number): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select(['d.event_id', 'e.created_at'])
    .distinct()
    .where('d.endpoint_id', '=', endpointId)
    .where('d.status', 'in', ['failed', 'cancelled'])
    .where('d.completed_at', '>=', since)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as owed')
            .select('owed.id')
            .whereRef('owed.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('owed.event_id', '=', 'd.event_id')
            .where('owed.status', 'in', ['pending', 'succeeded']),
        ),
      ),
    )
    .orderBy('e.created_at')
    .orderBy('d.event_id')
    .execute();
  return rows.map((row) => row.event_id);
}

export async function findDelivery(db: Executor, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listDeliveries(
  db: Executor,
  owner: Tenant,
  filter: { endpointId?: string; eventId?: string },
  position: Position | null,
  limit: number,
): Promise<DeliveryRow[]> {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode));
  if (filter.endpointId) query = query.where('endpoint_id', '=', filter.endpointId);
  if (filter.eventId) query = query.where('event_id', '=', filter.eventId);
  return after(query, position, 'webhook_deliveries')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function attemptsOf(db: Executor, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
}

export async function eventTypesOf(db: Executor, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.selectFrom('events').select(['id', 'type']).where('id', 'in', eventIds).execute();
  return new Map(rows.map((r) => [r.id, r.type]));
}

export type EndpointChanges = Updateable<WebhookEndpointsTable>;

/** `!` escapes LIKE's wildcards: ids contain `_`. */
const likeEscaped = (text: string) => text.replace(/[!%_]/g, (c) => `!${c}`);

/**
 * Events of the organization and mode whose data mentions one of `ids` as a JSON string value
 * (`"card_…"`), newest first, strictly older than `before`. The events API filters by type and
 * time only; the console finds a user's or a card's events by their ids in the data.
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
