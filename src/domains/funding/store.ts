import type { Selectable } from 'kysely';
import type { Dialect, Executor } from '../../db/index.ts';
import type {
  CardFlowStatus,
  CardFlowsTable,
  ChainDepositsTable,
  CompanyWalletsTable,
} from '../../db/schema.ts';

export type CardFlow = Selectable<CardFlowsTable>;
export type CompanyWallet = Selectable<CompanyWalletsTable>;
export type ChainDepositRow = Selectable<ChainDepositsTable>;

/** Flows the worker has a step to take for (besides awaiting ones past their ack deadline). */
const ACTIVE: CardFlowStatus[] = ['started', 'approved', 'initiated', 'completed'];

/** The only code that touches the funding domain's tables. */
export class FundingStore {
  constructor(private readonly dialect: Dialect) {}

  async ensureWallet(
    exec: Executor,
    wallet: Omit<CompanyWallet, 'low_balance_notified' | 'updated_at'>,
  ): Promise<void> {
    await exec
      .insertInto('company_wallets')
      .values({ ...wallet, low_balance_notified: 0, updated_at: wallet.created_at })
      .onConflict((oc) => oc.columns(['organization_id', 'livemode']).doNothing())
      .execute();
  }

  /** The wallet row, locked on PostgreSQL: flows of one organization and mode start one at a time. */
  lockWallet(exec: Executor, organizationId: string, livemode: number) {
    const query = exec
      .selectFrom('company_wallets')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode);
    return (this.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  wallet(exec: Executor, organizationId: string, livemode: number) {
    return exec
      .selectFrom('company_wallets')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .executeTakeFirst();
  }

  async updateWallet(
    exec: Executor,
    organizationId: string,
    livemode: number,
    changes: Partial<Omit<CompanyWallet, 'organization_id' | 'livemode' | 'created_at'>>,
  ): Promise<void> {
    await exec
      .updateTable('company_wallets')
      .set(changes)
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .execute();
  }

  async insertFlow(exec: Executor, flow: CardFlow): Promise<void> {
    await exec.insertInto('card_flows').values(flow).execute();
  }

  flow(exec: Executor, organizationId: string, livemode: number, id: string) {
    return exec
      .selectFrom('card_flows')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .executeTakeFirst();
  }

  flowById(exec: Executor, id: string) {
    return exec.selectFrom('card_flows').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A flow for a step, locked on PostgreSQL (SQLite's write lock is already held). */
  lockFlow(exec: Executor, id: string) {
    const query = exec.selectFrom('card_flows').selectAll().where('id', '=', id);
    return (this.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  async updateFlow(
    exec: Executor,
    id: string,
    changes: Partial<Omit<CardFlow, 'id' | 'organization_id' | 'livemode'>>,
  ): Promise<void> {
    await exec.updateTable('card_flows').set(changes).where('id', '=', id).execute();
  }

  /** Flows with a step due: active ones, and those awaiting an ack past its deadline. */
  due(exec: Executor, now: number, limit: number) {
    return exec
      .selectFrom('card_flows')
      .select(['id', 'status'])
      .where((eb) =>
        eb.or([
          eb('status', 'in', ACTIVE),
          eb.and([eb('status', '=', 'awaiting_collection'), eb('ack_deadline', '<=', now)]),
        ]),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /**
   * What a user's earlier flows left in their wallet for netting: the whole amount of each flow
   * whose card failed after the money moved, less what later flows (not failed before the money
   * moved) already netted.
   */
  async releasedCents(exec: Executor, organizationId: string, livemode: number, userId: string) {
    const rows = await exec
      .selectFrom('card_flows')
      .select(['status', 'amount_cents', 'netted_cents'])
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('status', '=', 'card_failed'), eb('netted_cents', '>', 0)]))
      .execute();
    let released = 0;
    for (const row of rows) {
      if (row.status === 'card_failed') released += Number(row.amount_cents);
      if (row.status !== 'failed') released -= Number(row.netted_cents);
    }
    return released;
  }

  listFlows(exec: Executor, organizationId: string, livemode: number | null, limit: number) {
    let query = exec
      .selectFrom('card_flows')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (livemode !== null) query = query.where('livemode', '=', livemode);
    return query.execute();
  }

  /** Records a chain deposit; false when it was already recorded (credited once). */
  async insertDeposit(exec: Executor, row: ChainDepositRow): Promise<boolean> {
    const result = await exec
      .insertInto('chain_deposits')
      .values(row)
      .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  deposits(exec: Executor, organizationId: string, livemode: number) {
    return exec
      .selectFrom('chain_deposits')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .orderBy('block_number')
      .orderBy('log_index')
      .execute();
  }
}
