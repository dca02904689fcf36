import { CompiledQuery, sql } from 'kysely';
import { insertOne, runCompiled } from '../../db/compiled.ts';
import type { Dialect, Executor } from '../../db/index.ts';
import type { LedgerAccountsTable } from '../../db/schema.ts';
import type { AccountState, Totals, TransferState } from './rules.ts';

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

/** A batch's writes (`LedgerStore.writeBatch`). */
export interface BatchWrites {
  transfers: TransferRow[];
  endings: { id: string; state: 'posted' | 'voided' | 'expired' }[];
  totals: AccountState[];
  mirrors: Map<string, Totals>;
}

const TOTALS = ['debits_pending', 'debits_posted', 'credits_pending', 'credits_posted'] as const;
const TRANSFER_ROW = [...TRANSFER_COLUMNS, 'organization_id', 'livemode', 'metadata', 'created_at'] as const;

/** The only code that touches the ledger's tables. */
export class LedgerStore {
  constructor(private readonly dialect: Dialect) {}

  async insertAccountIfAbsent(
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
    await exec
      .insertInto('ledger_accounts')
      .values({ ...account, debits_pending: 0, debits_posted: 0, credits_pending: 0, credits_posted: 0 })
      .onConflict((oc) => oc.columns(['organization_id', 'livemode', 'kind', 'owner_id']).doNothing())
      .execute();
  }

  findAccount(exec: Executor, organizationId: string, livemode: number, kind: AccountKind, ownerId: string) {
    return exec
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .where('kind', '=', kind)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
  }

  async accountById(exec: Executor, id: string) {
    const [account] = await runCompiled(exec, 'account by id', [id], () =>
      exec.selectFrom('ledger_accounts').selectAll().where('id', '=', id),
    );
    return account;
  }

  /** The accounts' fixed fields (and totals as stored), unlocked: what a lock plan needs to know. */
  accountsByIds(exec: Executor, ids: string[]): Promise<AccountState[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return runCompiled(exec, `${ids.length} accounts by id`, ids, () =>
      exec.selectFrom('ledger_accounts').select(ACCOUNT_COLUMNS).where('id', 'in', ids),
    );
  }

  /**
   * Reads accounts for a change. On PostgreSQL they are locked in id order, the one order every
   * ledger transaction takes them in, so two transactions never wait on each other in a cycle.
   * `FOR NO KEY UPDATE`: a transfer inserted elsewhere that names the account (its foreign key
   * takes `FOR KEY SHARE`) does not wait for it.
   */
  async lockAccounts(exec: Executor, ids: string[]): Promise<AccountState[]> {
    if (ids.length === 0) return [];
    const sorted = [...new Set(ids)].sort();
    return runCompiled(exec, `lock ${sorted.length} accounts`, sorted, () => {
      const query = exec
        .selectFrom('ledger_accounts')
        .select(ACCOUNT_COLUMNS)
        .where('id', 'in', sorted)
        .orderBy('id');
      return this.dialect === 'postgres' ? query.forNoKeyUpdate() : query;
    });
  }

  /**
   * Reads holds a batch ends, locked (in id order on PostgreSQL) after the accounts they move
   * between: a hold is ended only by a transaction that holds its accounts' locks already.
   */
  async lockTransfers(exec: Executor, ids: string[]): Promise<TransferState[]> {
    if (ids.length === 0) return [];
    let query = exec
      .selectFrom('ledger_transfers')
      .select(TRANSFER_COLUMNS)
      .where('id', 'in', [...new Set(ids)].sort())
      .orderBy('id');
    if (this.dialect === 'postgres') query = query.forNoKeyUpdate();
    return query.execute();
  }

  /**
   * Adds a batch's changes to mirror accounts (no limit, shared by an organization's transfers)
   * without locking them: on PostgreSQL a delta row each, folded later (`foldDeltas`); on SQLite,
   * whose write lock already serializes every writer, straight into the totals.
   */
  async addToMirrors(exec: Executor, changes: Map<string, Totals>): Promise<void> {
    for (const [id, t] of changes) {
      const values = [t.debits_pending, t.debits_posted, t.credits_pending, t.credits_posted];
      if (this.dialect === 'postgres') {
        await runCompiled(exec, 'mirror delta', [id, ...values], () =>
          exec.insertInto('ledger_account_deltas').values({
            account_id: id,
            debits_pending: t.debits_pending,
            debits_posted: t.debits_posted,
            credits_pending: t.credits_pending,
            credits_posted: t.credits_posted,
          }),
        );
        continue;
      }
      await runCompiled(exec, 'mirror totals', [...values, id], () =>
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
  }

  /** A mirror account's totals: its row's plus the deltas not yet folded into it. */
  async withDeltas<T extends AccountState>(exec: Executor, account: T): Promise<T> {
    if (this.dialect !== 'postgres') return account;
    const [pending] = await exec
      .selectFrom('ledger_account_deltas')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('debits_pending'), eb.lit(0)).as('debits_pending'),
        eb.fn.coalesce(eb.fn.sum<number>('debits_posted'), eb.lit(0)).as('debits_posted'),
        eb.fn.coalesce(eb.fn.sum<number>('credits_pending'), eb.lit(0)).as('credits_pending'),
        eb.fn.coalesce(eb.fn.sum<number>('credits_posted'), eb.lit(0)).as('credits_posted'),
      ])
      .where('account_id', '=', account.id)
      .execute();
    return addTotals(account, pending);
  }

  /** Every account's deltas not yet folded, summed per account (for `verify`). */
  async unfoldedDeltas(exec: Executor): Promise<Map<string, Totals>> {
    if (this.dialect !== 'postgres') return new Map();
    const rows = await exec
      .selectFrom('ledger_account_deltas')
      .select('account_id')
      .select((eb) => [
        eb.fn.sum<number>('debits_pending').as('debits_pending'),
        eb.fn.sum<number>('debits_posted').as('debits_posted'),
        eb.fn.sum<number>('credits_pending').as('credits_pending'),
        eb.fn.sum<number>('credits_posted').as('credits_posted'),
      ])
      .groupBy('account_id')
      .execute();
    return new Map(rows.map((row) => [row.account_id, addTotals(ZERO_TOTALS, row)]));
  }

  /**
   * Folds the deltas of up to `limit` accounts into their totals, in one statement (the deltas it
   * deletes are exactly those it adds, whatever is appended meanwhile). Returns how many rows it folded.
   */
  async foldDeltas(exec: Executor, limit: number): Promise<number> {
    if (this.dialect !== 'postgres') return 0;
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

  transfersByIds(exec: Executor, ids: string[]): Promise<TransferState[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return runCompiled(exec, `${ids.length} transfers by id`, ids, () =>
      exec.selectFrom('ledger_transfers').select(TRANSFER_COLUMNS).where('id', 'in', ids),
    );
  }

  /**
   * Writes what a batch did, computed by the rules: the transfers it recorded (a hold it also ended
   * already in its final state), the holds of earlier batches it ended, the limited accounts' new
   * totals and the mirror accounts' changes. On PostgreSQL in one statement (one round trip, however
   * long the batch): its parts touch different rows, and the rows it inserts are checked against
   * each other's keys at its end. On SQLite, whose statements cost no round trip, one each.
   */
  async writeBatch(exec: Executor, batch: BatchWrites): Promise<void> {
    if (this.dialect !== 'postgres') {
      for (const transfer of batch.transfers) await insertOne(exec, 'ledger_transfers', transfer);
      for (const ending of batch.endings) await this.endPending(exec, ending.id, ending.state);
      for (const account of batch.totals) await this.writeTotals(exec, account);
      await this.addToMirrors(exec, batch.mirrors);
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
    for (const [i, account] of batch.totals.entries()) {
      const totals = TOTALS.map((column) => `${column} = ${slot(account[column])}`).join(', ');
      parts.push(`a${i} as (update ledger_accounts set ${totals} where id = ${slot(account.id)})`);
    }
    if (batch.mirrors.size > 0) {
      const rows = [...batch.mirrors].map(([id, totals]) => row([id, ...TOTALS.map((c) => totals[c])]));
      parts.push(
        `m as (insert into ledger_account_deltas (account_id, ${TOTALS.join(', ')}) values ${rows.join(', ')})`,
      );
    }
    const transfers = batch.transfers.map((transfer) => row(TRANSFER_ROW.map((column) => transfer[column])));
    const text =
      (parts.length > 0 ? `with ${parts.join(', ')} ` : '') +
      `insert into ledger_transfers (${TRANSFER_ROW.join(', ')}) values ${transfers.join(', ')}`;
    const key = `ledger batch ${batch.transfers.length}/${batch.endings.length}/${batch.totals.length}/${batch.mirrors.size}`;
    await runCompiled(exec, key, parameters, () => ({ compile: () => CompiledQuery.raw(text, parameters) }));
  }

  async endPending(exec: Executor, id: string, state: 'posted' | 'voided' | 'expired'): Promise<void> {
    await exec
      .updateTable('ledger_transfers')
      .set({ pending_state: state })
      .where('id', '=', id)
      .where('pending_state', '=', 'open')
      .execute();
  }

  async writeTotals(exec: Executor, account: AccountState): Promise<void> {
    const { debits_pending, debits_posted, credits_pending, credits_posted, id } = account;
    await runCompiled(
      exec,
      'write totals',
      [debits_pending, debits_posted, credits_pending, credits_posted, id],
      () =>
        exec
          .updateTable('ledger_accounts')
          .set({ debits_pending, debits_posted, credits_pending, credits_posted })
          .where('id', '=', id),
    );
  }

  /** Open holds whose expiry has passed, oldest first. */
  expiredHolds(exec: Executor, now: number, limit: number) {
    return exec
      .selectFrom('ledger_transfers')
      .select(['id', 'code', 'organization_id', 'livemode'])
      .where('pending_state', '=', 'open')
      .where('timeout_at', '<=', now)
      .orderBy('timeout_at')
      .limit(limit)
      .execute();
  }

  transferById(exec: Executor, id: string) {
    return exec.selectFrom('ledger_transfers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * What posted transfers of one code moved, per organization of a mode. The code is written into
   * the statement (not bound), so that a partial index on it can serve (SQLite sees a bound value
   * as any code): only codes with such an index belong here (`ledger_transfers_pool_draws`).
   */
  postedByCode(exec: Executor, code: 'company_card_funding', livemode: number) {
    return exec
      .selectFrom('ledger_transfers')
      .select(['organization_id', (eb) => eb.fn.sum<number | string>('amount').as('total')])
      .where('code', '=', sql.lit(code))
      .where('livemode', '=', livemode)
      .where('kind', '=', 'posted')
      .groupBy('organization_id')
      .execute();
  }
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
