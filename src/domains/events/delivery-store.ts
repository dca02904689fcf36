import { type InferResult, type Insertable, sql, type Updateable } from 'kysely';
import { runCompiled } from '../../db/compiled.ts';
import type { Dialect, Executor } from '../../db/index.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.ts';
import { endpointWrites } from './store.ts';

/*
 * The worker's side of the deliveries' tables (delivery.ts): claims under a lease, what an attempt
 * needs, its outcome, and the endpoint's failure run. The API's side is in store.ts.
 *
 * Every attempt runs the claim, the load, the settle and the attempt's insert: they are compiled once
 * (`runCompiled`) and, in a write transaction on SQLite, run straight on the held connection. Building
 * and compiling them with Kysely for each batch cost several times what SQLite spends running them.
 */

/** The longest list of ids one statement takes; longer lists go in several. */
const IDS_PER_STATEMENT = 64;

/**
 * `ids` in lists of at most `IDS_PER_STATEMENT`, each padded to a power of two by repeating its last
 * id (`id in (a, b, b, b)` matches what `id in (a, b)` does), so that seven statement shapes serve a
 * list of any length.
 */
function idLists(ids: string[]): string[][] {
  const lists: string[][] = [];
  for (let at = 0; at < ids.length; at += IDS_PER_STATEMENT) {
    const list = ids.slice(at, at + IDS_PER_STATEMENT);
    const size = 2 ** Math.ceil(Math.log2(list.length));
    while (list.length < size) list.push(list[list.length - 1] as string);
    lists.push(list);
  }
  return lists;
}

/**
 * Claims up to `limit` due deliveries for one lease: a pending delivery whose `next_attempt_at`
 * has passed is due, and claiming moves `next_attempt_at` to the end of the lease. A worker that
 * dies therefore loses its deliveries when the lease ends, and they are claimed again.
 * PostgreSQL: `FOR UPDATE SKIP LOCKED` lets concurrent workers claim disjoint rows without
 * waiting. SQLite has one writer at a time, so the single UPDATE is already atomic.
 *
 * The claim counts the attempt it is for (`attempts` + 1), so the attempt number is taken with the
 * lease. A delivery whose lease is still set was never settled: the worker holding it stopped
 * mid-attempt. `interrupted_at` then says when that attempt began (the right-hand side of an
 * UPDATE reads the row as it was), for the caller to record it (`interruptedAttempt`).
 */
export async function claimDue(
  db: Executor,
  dialect: Dialect,
  input: { now: number; leaseUntil: number; leaseToken: string; limit: number },
): Promise<{ id: string; attempts: number; interrupted_at: number | null }[]> {
  const { now, leaseUntil, leaseToken, limit } = input;
  return runCompiled(db, 'claim due deliveries', [leaseUntil, leaseToken, now, 1, now, limit], () =>
    db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        next_attempt_at: leaseUntil,
        lease_token: leaseToken,
        leased_at: now,
        attempts: eb('attempts', '+', 1),
        // A lease taken before leased_at existed began a lease's length before it ended; close enough.
        interrupted_at: eb
          .case()
          .when('lease_token', 'is not', null)
          .then(eb.fn.coalesce('leased_at', 'next_attempt_at'))
          .else(null)
          .end(),
      }))
      .where('id', 'in', (eb) => {
        const due = eb
          .selectFrom('webhook_deliveries')
          .select('id')
          // A literal, not a parameter: SQLite uses a partial index only for its own WHERE term.
          .where('status', '=', sql.lit('pending'))
          .where('next_attempt_at', '<=', now)
          .orderBy('next_attempt_at')
          .limit(limit);
        return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
      })
      .returning(['id', 'attempts', 'interrupted_at']),
  );
}

/** The record of an attempt whose worker stopped before it recorded an answer (see `claimDue`). */
export function interruptedAttempt(
  claimed: { id: string; attempts: number; interrupted_at: number | null },
  id: string,
): AttemptRecord {
  const error = 'interrupted: the worker stopped before it recorded an answer; the receiver may have it';
  return [id, claimed.id, claimed.attempts - 1, claimed.interrupted_at!, null, 0, error, null, 0, 1];
}

/** What a worker needs to make an attempt: the delivery, its event and its endpoint. */
export async function loadForDelivery(db: Executor, ids: string[]): Promise<DeliveryToMake[]> {
  const loaded: DeliveryToMake[] = [];
  for (const list of idLists(ids))
    loaded.push(
      ...(await runCompiled(db, `load ${list.length} deliveries`, list, () => deliveriesToMake(db, list))),
    );
  return loaded;
}

function deliveriesToMake(db: Executor, ids: string[]) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .leftJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.lease_token',
      'd.attempts',
      'd.organization_id',
      'd.livemode',
      'e.id as event_id',
      'e.type as event_type',
      'e.created_at as event_created_at',
      'e.data as event_data',
      'w.id as endpoint_id',
      'w.url',
      'w.status as endpoint_status',
      'w.secret_ciphertext',
      'w.signature_scheme',
    ])
    .where('d.id', 'in', ids);
}

export type DeliveryToMake = InferResult<ReturnType<typeof deliveriesToMake>>[number];

/** Writes one attempt's outcome, only while `leaseToken` still holds the delivery. */
export async function settleDelivery(
  db: Executor,
  id: string,
  leaseToken: string,
  changes: Updateable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...changes, lease_token: null })
    .where('id', '=', id)
    // The lease token alone fences the write: it is set only by a claim and cleared by every
    // settle and cancel. (A status condition here would also tempt SQLite's planner into scanning
    // the status index instead of using the primary key.)
    .where('lease_token', '=', leaseToken)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records many successful attempts that share a lease, an attempt number and a status code in one
 * statement; answers the ids it settled (those whose lease still held).
 */
export async function settleSucceeded(
  db: Executor,
  ids: string[],
  leaseToken: string,
  input: { attempts: number; statusCode: number; now: number },
): Promise<Set<string>> {
  const { attempts, statusCode, now } = input;
  const settled = new Set<string>();
  for (const list of idLists(ids)) {
    const parameters = ['succeeded', attempts, now, statusCode, null, null, now, now, ...list, leaseToken];
    const rows = await runCompiled(db, `settle ${list.length} succeeded`, parameters, () =>
      db
        .updateTable('webhook_deliveries')
        .set({
          status: 'succeeded',
          attempts,
          next_attempt_at: now,
          last_status_code: statusCode,
          last_error: null,
          lease_token: null,
          updated_at: now,
          completed_at: now,
        })
        .where('id', 'in', list)
        .where('lease_token', '=', leaseToken)
        .returning('id'),
    );
    for (const row of rows) settled.add(row.id);
  }
  return settled;
}

/** An attempt's columns, in the order of `AttemptRecord` and of the compiled inserts' parameters. */
const ATTEMPT_COLUMNS = [
  'id',
  'delivery_id',
  'attempt',
  'attempted_at',
  'status_code',
  'duration_ms',
  'error',
  'response_excerpt',
  'succeeded',
  'interrupted',
] as const;

/**
 * An attempt for the delivery log, its values in `ATTEMPT_COLUMNS` order: the compiled inserts take
 * them as they are, with no row object built for each.
 */
export type AttemptRecord = [
  id: string,
  deliveryId: string,
  attempt: number,
  attemptedAt: number,
  statusCode: number | null,
  durationMs: number,
  error: string | null,
  responseExcerpt: string | null,
  succeeded: 0 | 1,
  interrupted: 0 | 1,
];

/** The most attempts one insert writes (10 columns each: far below either database's limit on parameters). */
const ATTEMPTS_PER_INSERT = 64;

export async function insertAttempts(db: Executor, attempts: AttemptRecord[]): Promise<void> {
  // Inserts of a power of two rows each (13 rows: 8, 4 and 1), so that seven statements serve any count.
  for (let at = 0; at < attempts.length; ) {
    const count = 2 ** Math.floor(Math.log2(Math.min(attempts.length - at, ATTEMPTS_PER_INSERT)));
    const chunk = attempts.slice(at, at + count);
    const values: unknown[] = [];
    for (const attempt of chunk) values.push(...attempt);
    await runCompiled(db, `insert ${count} webhook attempts`, values, () =>
      db.insertInto('webhook_attempts').values(chunk.map(attemptRow)),
    );
    at += count;
  }
}

/** A row object of an attempt, only for compiling an insert the first time. */
function attemptRow(attempt: AttemptRecord): Insertable<WebhookAttemptsTable> {
  return Object.fromEntries(ATTEMPT_COLUMNS.map((column, i) => [column, attempt[i]])) as never;
}

/** A success resets the endpoint's failure run (written only when there is one, to spare the row). */
export async function markEndpointHealthy(db: Executor, endpointId: string, now: number): Promise<void> {
  await runCompiled(db, 'endpoint healthy', [0, null, now, endpointId, 0], () =>
    db
      .updateTable('webhook_endpoints')
      .set({ consecutive_failures: 0, failing_since: null, updated_at: now })
      .where('id', '=', endpointId)
      .where((eb) => eb.or([eb('failing_since', 'is not', null), eb('consecutive_failures', '!=', 0)])),
  );
}

/** Counts failures; answers when the current failure run began. */
export async function markEndpointFailing(
  db: Executor,
  endpointId: string,
  now: number,
  failures = 1,
): Promise<{ failing_since: number | null; status: string } | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      consecutive_failures: eb('consecutive_failures', '+', failures),
      failing_since: eb.fn.coalesce('failing_since', sql.lit(now)),
      updated_at: now,
    }))
    .where('id', '=', endpointId)
    .returning(['failing_since', 'status'])
    .executeTakeFirst();
}

/** Disables an active endpoint; true for the one caller that did it. */
export async function disableEndpoint(db: Executor, endpointId: string, now: number): Promise<boolean> {
  endpointWrites.count++;
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_at: now, updated_at: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels a claimed delivery without an attempt (`attempts`: the count without the one claimed). */
export async function cancelDelivery(
  db: Executor,
  id: string,
  leaseToken: string,
  input: { now: number; reason: string; attempts: number },
) {
  await settleDelivery(db, id, leaseToken, {
    status: 'cancelled',
    attempts: input.attempts,
    last_error: input.reason,
    updated_at: input.now,
    completed_at: input.now,
  });
}
