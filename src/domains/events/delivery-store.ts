import { type Insertable, sql, type Updateable } from 'kysely';
import type { Dialect, Executor } from '../../db/index.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.ts';
import { endpointWrites } from './store.ts';

/*
 * The worker's side of the deliveries' tables (delivery.ts): claims under a lease, what an attempt
 * needs, its outcome, and the endpoint's failure run. The API's side is in store.ts.
 */

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
  return db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      next_attempt_at: input.leaseUntil,
      lease_token: input.leaseToken,
      leased_at: input.now,
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
        .where('next_attempt_at', '<=', input.now)
        .orderBy('next_attempt_at')
        .limit(input.limit);
      return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .returning(['id', 'attempts', 'interrupted_at'])
    .execute();
}

/** The record of an attempt whose worker stopped before it recorded an answer (see `claimDue`). */
export function interruptedAttempt(
  claimed: { id: string; attempts: number; interrupted_at: number | null },
  id: string,
): Insertable<WebhookAttemptsTable> {
  return {
    id,
    delivery_id: claimed.id,
    attempt: claimed.attempts - 1,
    attempted_at: claimed.interrupted_at!,
    status_code: null,
    duration_ms: 0,
    error: 'interrupted: the worker stopped before it recorded an answer; the receiver may have it',
    response_excerpt: null,
    succeeded: 0,
    interrupted: 1,
  };
}

/** What a worker needs to make an attempt: the delivery, its event and its endpoint. */
export async function loadForDelivery(db: Executor, ids: string[]) {
  if (ids.length === 0) return [];
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
    .where('d.id', 'in', ids)
    .execute();
}

export type DeliveryToMake = Awaited<ReturnType<typeof loadForDelivery>>[number];

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
  const settled = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .updateTable('webhook_deliveries')
      .set({
        status: 'succeeded',
        attempts: input.attempts,
        next_attempt_at: input.now,
        last_status_code: input.statusCode,
        last_error: null,
        lease_token: null,
        updated_at: input.now,
        completed_at: input.now,
      })
      .where('id', 'in', ids.slice(i, i + 500))
      .where('lease_token', '=', leaseToken)
      .returning('id')
      .execute();
    for (const row of rows) settled.add(row.id);
  }
  return settled;
}

export async function insertAttempts(db: Executor, rows: Insertable<WebhookAttemptsTable>[]): Promise<void> {
  // 100 rows × 9 columns stays far below either database's limit on bound parameters.
  for (let i = 0; i < rows.length; i += 100) {
    await db
      .insertInto('webhook_attempts')
      .values(rows.slice(i, i + 100))
      .execute();
  }
}

/** A success resets the endpoint's failure run (written only when there is one, to spare the row). */
export async function markEndpointHealthy(db: Executor, endpointId: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0, failing_since: null, updated_at: now })
    .where('id', '=', endpointId)
    .where((eb) => eb.or([eb('failing_since', 'is not', null), eb('consecutive_failures', '!=', 0)]))
    .execute();
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
