import { sql } from 'kysely';
import { insertOne, runCompiled } from '../../db/compiled.ts';
import type { Dialect, Executor } from '../../db/index.ts';
import type { LedgerAccountsTable } from '../../db/schema.ts';
import type { AccountState, TransferState } from './rules.ts';

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

  /**
   * Reads accounts for a change. On PostgreSQL they are locked in id order, the one order every
   * ledger transaction takes them in, so two transactions never wait on each other in a cycle.
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
      return this.dialect === 'postgres' ? query.forUpdate() : query;
    });
  }

  /** Reads holds a batch ends, locked first (before any account) and in id order on PostgreSQL. */
  async lockTransfers(exec: Executor, ids: string[]): Promise<TransferState[]> {
    if (ids.length === 0) return [];
    let query = exec
      .selectFrom('ledger_transfers')
      .select(TRANSFER_COLUMNS)
      .where('id', 'in', [...new Set(ids)].sort())
      .orderBy('id');
    if (this.dialect === 'postgres') query = query.forUpdate();
    return query.execute();
  }

  transfersByIds(exec: Executor, ids: string[]): Promise<TransferState[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return runCompiled(exec, `${ids.length} transfers by id`, ids, () =>
      exec.selectFrom('ledger_transfers').select(TRANSFER_COLUMNS).where('id', 'in', ids),
    );
  }

  async insertTransfer(
    exec: Executor,
    transfer: TransferState & {
      organization_id: string;
      livemode: number;
      metadata: string | null;
      created_at: number;
    },
  ): Promise<void> {
    await insertOne(exec, 'ledger_transfers', transfer);
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
