import { type Insertable, sql, type Updateable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { runCompiled } from '../../db/compiled.ts';
import { lockedOnPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import { olderThan } from '../../db/pagination.ts';
import type { MandateSpendsTable, MandatesTable } from '../../db/schema.ts';

export type MandateRow = MandatesTable;
export type SpendRow = MandateSpendsTable;

/** The only code that touches `mandates` and `mandate_spends`. */

export async function insert(exec: Executor, row: Insertable<MandatesTable>): Promise<void> {
  await exec.insertInto('mandates').values(row).execute();
}

/**
 * A mandate by id. `lock` (a charge or a give-back deciding on its budget, a status change): on
 * PostgreSQL the row is locked `FOR UPDATE`, in the lock order of docs/ledger.md (after the
 * domain's own row, before the user's spending controls and any ledger row), so two charges under
 * one mandate read what the budget spent one after the other. SQLite's write lock does that already.
 */
export async function find(exec: Executor, id: string, lock = false): Promise<MandateRow | undefined> {
  const query = exec.selectFrom('mandates').selectAll().where('id', '=', id);
  return (lock ? lockedOnPostgres(exec, query) : query).executeTakeFirst();
}

export async function list(
  exec: Executor,
  filter: {
    organizationId: string;
    livemode: number;
    userId: string;
    clientId?: string | undefined;
    status?: MandateRow['status'] | undefined;
    startingAfter?: { created_at: number; id: string } | undefined;
    limit: number;
  },
): Promise<MandateRow[]> {
  let query = exec
    .selectFrom('mandates')
    .selectAll()
    .where('organization_id', '=', filter.organizationId)
    .where('livemode', '=', filter.livemode)
    .where('user_id', '=', filter.userId);
  if (filter.clientId !== undefined) query = query.where('client_id', '=', filter.clientId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.startingAfter) query = query.where(olderThan(filter.startingAfter));
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

/**
 * A user's active mandates for one client, newest first (at most 100): what every `/buy` confirm of
 * that client looks at, so its statement is compiled once.
 */
export function activeOfClient(
  exec: Executor,
  owner: { organizationId: string; livemode: number; userId: string; clientId: string },
): Promise<MandateRow[]> {
  const { organizationId, livemode, userId, clientId } = owner;
  const parameters = [organizationId, livemode, userId, clientId, 'active', 100];
  return runCompiled<MandateRow>(exec, 'active mandates of client', parameters, () =>
    exec
      .selectFrom('mandates')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .where('status', '=', 'active')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(100),
  );
}

/** Moves a mandate from `from` to `to`; false when it was no longer in `from`. */
export async function move(
  exec: Executor,
  id: string,
  from: MandateRow['status'],
  change: Updateable<MandatesTable> & { status: MandateRow['status'] },
): Promise<boolean> {
  const result = await exec
    .updateTable('mandates')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Mandates still open (pending, active or exhausted) whose end has come, oldest end first. */
export async function pastTheirEnd(exec: Executor, now: number, limit: number): Promise<MandateRow[]> {
  return exec
    .selectFrom('mandates')
    .selectAll()
    .where('status', 'in', ['pending_approval', 'active', 'exhausted'])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

// ---- spends

/**
 * What the charges under a mandate made at `since` (ms) or later still take from its budget; never
 * below nothing (a return of no known purchase gives back at most what the window spent).
 */
export async function spentSince(exec: Executor, mandateId: string, since: number): Promise<number> {
  const row = await exec
    .selectFrom('mandate_spends')
    .select(sql<number | string>`coalesce(sum(amount_cents - returned_cents), 0)`.as('spent'))
    .where('mandate_id', '=', mandateId)
    .where('at', '>=', since)
    .executeTakeFirstOrThrow();
  return Math.max(0, Number(row.spent));
}

export async function spend(
  exec: Executor,
  mandateId: string,
  reference: string,
): Promise<SpendRow | undefined> {
  return exec
    .selectFrom('mandate_spends')
    .selectAll()
    .where('mandate_id', '=', mandateId)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

export async function insertSpend(exec: Executor, row: SpendRow): Promise<void> {
  await exec.insertInto('mandate_spends').values(row).execute();
}

export async function updateSpend(
  exec: Executor,
  spendId: string,
  change: Pick<SpendRow, 'amount_cents' | 'returned_cents'>,
): Promise<void> {
  await exec.updateTable('mandate_spends').set(change).where('id', '=', spendId).execute();
}

/** The organization's mandates in one mode (any user), newest first: what the console's apps page counts. */
export function mandatesOf(db: Executor, owner: Tenant, limit: number) {
  return db
    .selectFrom('mandates')
    .select(['id', 'user_id', 'client_id', 'status', 'expires_at'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
