import { CompiledQuery, sql } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { insertOne, runCompiled } from '../../db/compiled.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import type { LedgerAccountsTable } from '../../db/schema.ts';
import { AccountFlags, type AccountState, type Totals, type TransferState } from './rules.ts';

export type AccountKind = LedgerAccountsTable['kind'];

const TRANSFER_COLUMNS = [
  'id',
  'kind',
  'debit_account_id',
  'credit_account_id',
  'amount',
  'pending_id',
  'pending_state',
  'timeout_at',
  'code',
] as const;

const ACCOUNT_COLUMNS = [
  'id',
  'organization_id',
  'livemode',
  'currency',
  'flags',
  'debits_pending',
  'debits_posted',
  'credits_pending',
  'credits_posted',
] as const;

/** A stored transfer row, every column given. */
export type TransferRow = TransferState & {
  organization_id: string;
  livemode: number;
  metadata: string | null;
  created_at: number;
};

/**
 * A transfer's row: the rules' transfer with its ledger, metadata and time, written out (a spread of
 * the transfer with these added took V8's slow path, a few microseconds a transfer).
 */
export function transferRow(
  transfer: TransferState,
  ledger: Pick<AccountState, 'organization_id' | 'livemode'>,
  metadata: string | null,
  now: number,
): TransferRow {
  return {
    id: transfer.id,
    kind: transfer.kind,
    debit_account_id: transfer.debit_account_id,
    credit_account_id: transfer.credit_account_id,
    amount: transfer.amount,
    pending_id: transfer.pending_id,
    pending_state: transfer.pending_state,
    timeout_at: transfer.timeout_at,
    code: transfer.code,
    organization_id: ledger.organization_id,
    livemode: ledger.livemode,
    metadata,
    created_at: now,
  };
}

/** A batch's writes (`writeBatch`). */
export interface BatchWrites {
  transfers: TransferRow[];
  endings: { id: string; state: 'posted' | 'voided' | 'expired' }[];
  /** What the batch added to the totals of accounts the transaction locked. */
  changed: Map<string, Totals>;
  /** What it added to accounts named without their lock (mirror accounts, the pool's credits). */
  appended: Map<string, Totals>;
}

const TOTALS = ['debits_pending', 'debits_posted', 'credits_pending', 'credits_posted'] as const;
const TRANSFER_ROW = [...TRANSFER_COLUMNS, 'organization_id', 'livemode', 'metadata', 'created_at'] as const;

/** The only code that touches the ledger's tables. */

export async function insertAccountIfAbsent(
  exec: Executor,
  account: {
    id: string;
    organization_id: string;
    livemode: number;
    kind: AccountKind;
    owner_id: string;
    flags: number;
    currency: string;
    created_at: number;
  },
): Promise<void> {
  const row = {
    id: account.id,
    organization_id: account.organization_id,
    livemode: account.livemode,
    kind: account.kind,
    owner_id: account.owner_id,
    flags: account.flags,
    currency: account.currency,
    created_at: account.created_at,
    debits_pending: 0,
    debits_posted: 0,
    credits_pending: 0,
    credits_posted: 0,
  };
  await runCompiled(exec, 'account unless it exists', Object.values(row), () =>
    exec
      .insertInto('ledger_accounts')
      .values(row)
      .onConflict((oc) => oc.columns(['organization_id', 'livemode', 'kind', 'owner_id']).doNothing()),
  );
}

export async function findAccount(
  exec: Executor,
  organizationId: string,
  livemode: number,
  kind: AccountKind,
  ownerId: string,
) {
  const [account] = await runCompiled(
    exec,
    'account of owner',
    [organizationId, livemode, kind, ownerId],
    () =>
      exec
        .selectFrom('ledger_accounts')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('livemode', '=', livemode)
        .where('kind', '=', kind)
        .where('owner_id', '=', ownerId),
  );
  return account;
}

/**
 * An account with its totals as committed: on PostgreSQL its row's plus the changes appended to it
 * and not yet folded, read in one statement (one snapshot: a fold committing meanwhile is seen
 * either wholly or not at all).
 */
export async function accountWithDeltas(exec: Executor, id: string): Promise<AccountState | undefined> {
  if (dialectOf(exec) !== 'postgres') {
    const [account] = await runCompiled(exec, 'account by id', [id], () =>
      exec.selectFrom('ledger_accounts').select(ACCOUNT_COLUMNS).where('id', '=', id),
    );
    return account;
  }
  const fixed = ACCOUNT_COLUMNS.filter((c) => !(TOTALS as readonly string[]).includes(c));
  const text =
    `select ${fixed.map((c) => `a.${c}`).join(', ')}, ` +
    TOTALS.map((c) => `(a.${c} + coalesce(sum(d.${c}), 0))::bigint as ${c}`).join(', ') +
    ' from ledger_accounts a left join ledger_account_deltas d on d.account_id = a.id' +
    ' where a.id = $1 group by a.id';
  const [account] = await runCompiled<AccountState>(exec, 'account with deltas', [id], () => ({
    compile: () => CompiledQuery.raw(text, [id]),
  }));
  return account;
}

/** The accounts' fixed fields (and totals as stored), unlocked: what a lock plan needs to know. */
export function accountsByIds(exec: Executor, ids: string[]): Promise<AccountState[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return runCompiled(exec, `${ids.length} accounts by id`, ids, () =>
    exec.selectFrom('ledger_accounts').select(ACCOUNT_COLUMNS).where('id', 'in', ids),
  );
}

/**
 * Reads accounts for a change. On PostgreSQL they are locked in id order, the one order every
 * ledger transaction takes them in, so two transactions never wait on each other in a cycle.
 * `FOR NO KEY UPDATE`: a transfer inserted elsewhere that names the account (its foreign key
 * takes `FOR KEY SHARE`) does not wait for it. An account credited without its lock (the pool)
 * is read with the changes appended to it, in a second statement once its row is locked: a fold
 * of them either committed before the lock (its row has them) or waits for it (they are still
 * there to read).
 */
export async function lockAccounts(exec: Executor, ids: string[]): Promise<AccountState[]> {
  if (ids.length === 0) return [];
  const sorted = [...new Set(ids)].sort();
  const dialect = dialectOf(exec);
  const accounts = await runCompiled(exec, `lock ${sorted.length} accounts`, sorted, () => {
    const query = exec
      .selectFrom('ledger_accounts')
      .select(ACCOUNT_COLUMNS)
      .where('id', 'in', sorted)
      .orderBy('id');
    return dialect === 'postgres' ? query.forNoKeyUpdate() : query;
  });
  const appended = accounts.filter((a) => a.flags & AccountFlags.creditsAppended).map((a) => a.id);
  if (dialect !== 'postgres' || appended.length === 0) return accounts;
  const deltas = await unfoldedDeltas(exec, appended);
  return accounts.map((account) => addTotals(account, deltas.get(account.id)));
}

/**
 * Reads holds a batch ends, locked (in id order on PostgreSQL) after the accounts they move
 * between: a hold is ended only by a transaction that holds its accounts' locks already.
 */
export async function lockTransfers(exec: Executor, ids: string[]): Promise<TransferState[]> {
  if (ids.length === 0) return [];
  const sorted = [...new Set(ids)].sort();
  return runCompiled(exec, `lock ${sorted.length} transfers`, sorted, () => {
    const query = exec
      .selectFrom('ledger_transfers')
      .select(TRANSFER_COLUMNS)
      .where('id', 'in', sorted)
      .orderBy('id');
    return dialectOf(exec) === 'postgres' ? query.forNoKeyUpdate() : query;
  });
}

/** The deltas not yet folded, summed per account: of `ids`, or of every account (for `verify`). */
export async function unfoldedDeltas(exec: Executor, ids?: string[]): Promise<Map<string, Totals>> {
  if (dialectOf(exec) !== 'postgres') return new Map();
  let query = exec
    .selectFrom('ledger_account_deltas')
    .select('account_id')
    .select((eb) => [
      eb.fn.sum<number>('debits_pending').as('debits_pending'),
      eb.fn.sum<number>('debits_posted').as('debits_posted'),
      eb.fn.sum<number>('credits_pending').as('credits_pending'),
      eb.fn.sum<number>('credits_posted').as('credits_posted'),
    ])
    .groupBy('account_id');
  if (ids) query = query.where('account_id', 'in', ids);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.account_id, addTotals(ZERO_TOTALS, row)]));
}

/**
 * Folds the deltas of up to `limit` accounts into their totals, in one statement (the deltas it
 * deletes are exactly those it adds, whatever is appended meanwhile). Returns how many rows it folded.
 */
export async function foldDeltas(exec: Executor, limit: number): Promise<number> {
  if (dialectOf(exec) !== 'postgres') return 0;
  const result = await sql<{ folded: number }>`
    with picked as (
      select distinct account_id from ledger_account_deltas limit ${limit}
    ), moved as (
      delete from ledger_account_deltas d using picked p where d.account_id = p.account_id
      returning d.*
    ), sums as (
      select account_id, count(*) as rows,
        sum(debits_pending) as dp, sum(debits_posted) as dpo,
        sum(credits_pending) as cp, sum(credits_posted) as cpo
      from moved group by account_id
    ), folded as (
      update ledger_accounts a set
        debits_pending = a.debits_pending + s.dp, debits_posted = a.debits_posted + s.dpo,
        credits_pending = a.credits_pending + s.cp, credits_posted = a.credits_posted + s.cpo
      from sums s where a.id = s.account_id
      returning s.rows
    )
    select coalesce(sum(rows), 0)::int as folded from folded
  `.execute(exec);
  return Number(result.rows[0]?.folded ?? 0);
}

export function transfersByIds(exec: Executor, ids: string[]): Promise<TransferState[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return runCompiled(exec, `${ids.length} transfers by id`, ids, () =>
    exec.selectFrom('ledger_transfers').select(TRANSFER_COLUMNS).where('id', 'in', ids),
  );
}

/**
 * Writes what a batch did, computed by the rules: the transfers it recorded (a hold it also ended
 * already in its final state), the holds of earlier batches it ended, and what it added to each
 * account's totals: in the row of an account the transaction locked; appended as a row of
 * `ledger_account_deltas` for the others (insert only: no two transactions wait on each other),
 * folded into the totals later (`foldDeltas`). On PostgreSQL in one statement (one round trip,
 * however long the batch): its parts touch different rows, and the rows it inserts are checked
 * against each other's keys at its end. On SQLite, whose write lock serializes every writer
 * anyway, every change goes into the row, a statement each (they cost no round trip there).
 */
export async function writeBatch(exec: Executor, batch: BatchWrites): Promise<void> {
  if (dialectOf(exec) !== 'postgres') {
    for (const transfer of batch.transfers) await insertOne(exec, 'ledger_transfers', transfer);
    for (const ending of batch.endings) await endPending(exec, ending.id, ending.state);
    for (const [id, change] of batch.changed) await addToRow(exec, id, change);
    for (const [id, change] of batch.appended) await addToRow(exec, id, change);
    return;
  }
  const parameters: unknown[] = [];
  const slot = (value: unknown) => `$${parameters.push(value)}`;
  const row = (values: unknown[]) => `(${values.map(slot).join(', ')})`;
  const parts: string[] = [];
  for (const [i, ending] of batch.endings.entries()) {
    parts.push(
      `e${i} as (update ledger_transfers set pending_state = ${slot(ending.state)} where id = ${slot(ending.id)} and pending_state = 'open')`,
    );
  }
  for (const [i, [id, change]] of [...batch.changed].entries()) {
    const totals = TOTALS.map((column) => `${column} = ${column} + ${slot(change[column])}`).join(', ');
    parts.push(`a${i} as (update ledger_accounts set ${totals} where id = ${slot(id)})`);
  }
  if (batch.appended.size > 0) {
    const rows = [...batch.appended].map(([id, totals]) => row([id, ...TOTALS.map((c) => totals[c])]));
    parts.push(
      `m as (insert into ledger_account_deltas (account_id, ${TOTALS.join(', ')}) values ${rows.join(', ')})`,
    );
  }
  const transfers = batch.transfers.map((transfer) => row(TRANSFER_ROW.map((column) => transfer[column])));
  const text =
    (parts.length > 0 ? `with ${parts.join(', ')} ` : '') +
    `insert into ledger_transfers (${TRANSFER_ROW.join(', ')}) values ${transfers.join(', ')}`;
  const key = `ledger batch ${batch.transfers.length}/${batch.endings.length}/${batch.changed.size}/${batch.appended.size}`;
  await runCompiled(exec, key, parameters, () => ({ compile: () => CompiledQuery.raw(text, parameters) }));
}

/** Ends a hold of an earlier batch, if it is still open (SQLite: see `writeBatch`). */
async function endPending(exec: Executor, id: string, state: 'posted' | 'voided' | 'expired'): Promise<void> {
  await runCompiled(exec, 'end pending transfer', [state, id, 'open'], () =>
    exec
      .updateTable('ledger_transfers')
      .set({ pending_state: state })
      .where('id', '=', id)
      .where('pending_state', '=', 'open'),
  );
}

/** Adds a change to an account's totals, in its row (SQLite: see `writeBatch`). */
async function addToRow(exec: Executor, id: string, t: Totals): Promise<void> {
  const values = [t.debits_pending, t.debits_posted, t.credits_pending, t.credits_posted];
  await runCompiled(exec, 'add to totals', [...values, id], () =>
    exec
      .updateTable('ledger_accounts')
      .set((eb) => ({
        debits_pending: eb('debits_pending', '+', t.debits_pending),
        debits_posted: eb('debits_posted', '+', t.debits_posted),
        credits_pending: eb('credits_pending', '+', t.credits_pending),
        credits_posted: eb('credits_posted', '+', t.credits_posted),
      }))
      .where('id', '=', id),
  );
}

/** Open holds whose expiry has passed, oldest first. */
export function expiredHolds(exec: Executor, now: number, limit: number) {
  return exec
    .selectFrom('ledger_transfers')
    .select(['id', 'code', 'organization_id', 'livemode'])
    .where('pending_state', '=', 'open')
    .where('timeout_at', '<=', now)
    .orderBy('timeout_at')
    .limit(limit)
    .execute();
}

export async function transferById(exec: Executor, id: string) {
  const [transfer] = await runCompiled(exec, 'transfer by id', [id], () =>
    exec.selectFrom('ledger_transfers').selectAll().where('id', '=', id),
  );
  return transfer;
}

/**
 * What posted transfers of one code moved, per organization of a mode. The code is written into
 * the statement (not bound), so that a partial index on it can serve (SQLite sees a bound value
 * as any code): only codes with such an index belong here (`ledger_transfers_pool_draws`).
 */
export function postedByCode(exec: Executor, code: 'company_card_funding', livemode: number) {
  return exec
    .selectFrom('ledger_transfers')
    .select(['organization_id', (eb) => eb.fn.sum<number | string>('amount').as('total')])
    .where('code', '=', sql.lit(code))
    .where('livemode', '=', livemode)
    .where('kind', '=', 'posted')
    .groupBy('organization_id')
    .execute();
}

const ZERO_TOTALS: Totals = { debits_pending: 0, debits_posted: 0, credits_pending: 0, credits_posted: 0 };

/** `base` with `more` added to its four totals (sums may come back as strings or null). */
function addTotals<T extends Totals>(base: T, more: Partial<Record<keyof Totals, unknown>> | undefined): T {
  const n = (value: unknown) => Number(value ?? 0);
  return {
    ...base,
    debits_pending: n(base.debits_pending) + n(more?.debits_pending),
    debits_posted: n(base.debits_posted) + n(more?.debits_posted),
    credits_pending: n(base.credits_pending) + n(more?.credits_pending),
    credits_posted: n(base.credits_posted) + n(more?.credits_posted),
  };
}

/** Which of these owners (users, or the organization) have a ledger account of the kind already. */
export async function accountOwners(
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
