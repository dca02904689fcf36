import type { Selectable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { lockedOnPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import type {
  CardFlowStatus,
  CardFlowsTable,
  ChainDepositsTable,
  ChainDriftsTable,
  ChainReturnsTable,
  CompanyWalletsTable,
} from '../../db/schema.ts';

export type CardFlow = Selectable<CardFlowsTable>;
export type ChainReturn = Selectable<ChainReturnsTable>;
export type ChainDriftRow = Selectable<ChainDriftsTable>;
export type CompanyWallet = Selectable<CompanyWalletsTable>;
export type ChainDepositRow = Selectable<ChainDepositsTable>;

/** Flows the worker has a step to take for (besides awaiting ones past their ack deadline). */
const ACTIVE: CardFlowStatus[] = ['started', 'approved', 'initiated', 'completed'];
/** Flows whose transfer may have moved tokens: signed, or done (a failed one moved nothing). */
const ON_CHAIN: CardFlowStatus[] = ['approved', 'initiated', 'completed', 'card_created', 'card_failed'];

/** The ledger transfer that credits a chain deposit: a deposit seen twice credits once. */
export function depositTransferId(d: Pick<ChainDepositRow, 'chain_id' | 'tx_hash' | 'log_index'>): string {
  return `dep_${d.chain_id}_${d.tx_hash}_${d.log_index}`;
}

/** The only code that touches the funding domain's tables. */

export async function ensureWallet(
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
export function lockWallet(exec: Executor, organizationId: string, livemode: number) {
  const query = exec
    .selectFrom('company_wallets')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode);
  return lockedOnPostgres(exec, query).executeTakeFirst();
}

export function wallet(exec: Executor, organizationId: string, livemode: number) {
  return exec
    .selectFrom('company_wallets')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .executeTakeFirst();
}

export async function updateWallet(
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

/** Every flow: its user, amounts, card and status (`ledger verify`'s ownership check, ownership.ts). */
export function everyFlow(exec: Executor) {
  return exec
    .selectFrom('card_flows')
    .select(['id', 'user_id', 'status', 'amount_cents', 'transfer_cents', 'card_id'])
    .execute();
}

export async function insertFlow(exec: Executor, flow: CardFlow): Promise<void> {
  await exec.insertInto('card_flows').values(flow).execute();
}

export function flow(exec: Executor, organizationId: string, livemode: number, id: string) {
  return exec
    .selectFrom('card_flows')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .executeTakeFirst();
}

export function flowById(exec: Executor, id: string) {
  return exec.selectFrom('card_flows').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A flow for a step, locked on PostgreSQL (SQLite's write lock is already held). */
export function lockFlow(exec: Executor, id: string) {
  const query = exec.selectFrom('card_flows').selectAll().where('id', '=', id);
  return lockedOnPostgres(exec, query).executeTakeFirst();
}

export async function updateFlow(
  exec: Executor,
  id: string,
  changes: Partial<Omit<CardFlow, 'id' | 'organization_id' | 'livemode'>>,
): Promise<void> {
  await exec.updateTable('card_flows').set(changes).where('id', '=', id).execute();
}

/** Flows with a step due: active ones, and those awaiting an ack past its deadline. */
export function due(exec: Executor, now: number, limit: number) {
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
export async function releasedCents(
  exec: Executor,
  organizationId: string,
  livemode: number,
  userId: string,
) {
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

export function listFlows(exec: Executor, organizationId: string, livemode: number | null, limit: number) {
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
export async function insertDeposit(exec: Executor, row: ChainDepositRow): Promise<boolean> {
  const result = await exec
    .insertInto('chain_deposits')
    .values(row)
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function deposits(exec: Executor, organizationId: string, livemode: number) {
  return exec
    .selectFrom('chain_deposits')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .orderBy('block_number')
    .orderBy('log_index')
    .execute();
}

// ---- returns to the pool on the chain (returns.ts)

export async function insertReturn(exec: Executor, row: ChainReturn): Promise<void> {
  await exec.insertInto('chain_returns').values(row).execute();
}

export function returnById(exec: Executor, id: string) {
  return exec.selectFrom('chain_returns').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A return for a step, locked on PostgreSQL (SQLite's write lock is already held). */
export function lockReturn(exec: Executor, id: string) {
  const query = exec.selectFrom('chain_returns').selectAll().where('id', '=', id);
  return lockedOnPostgres(exec, query).executeTakeFirst();
}

export async function updateReturn(
  exec: Executor,
  id: string,
  changes: Partial<Omit<ChainReturn, 'id' | 'organization_id' | 'livemode' | 'user_id' | 'created_at'>>,
): Promise<void> {
  await exec.updateTable('chain_returns').set(changes).where('id', '=', id).execute();
}

/** Returns with a step due: an attempt to make (its time come), or a transaction to check. */
export function dueReturns(exec: Executor, now: number, limit: number) {
  return exec
    .selectFrom('chain_returns')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('status', '=', 'sent'),
        eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
      ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

// ---- what `chain reconcile` compares (reconcile.ts)

export function liveDeposits(exec: Executor) {
  return exec
    .selectFrom('chain_deposits')
    .select([
      'chain_id',
      'tx_hash',
      'log_index',
      'block_number',
      'address',
      'kind',
      'units',
      'credited_cents',
    ])
    .where('livemode', '=', 1)
    .execute();
}

/** Production flows that moved, or may be moving, tokens from a pool to a user. */
export function liveChainFlows(exec: Executor) {
  return exec
    .selectFrom('card_flows')
    .select(['id', 'organization_id', 'user_id', 'status', 'transfer_cents', 'updated_at'])
    .where('livemode', '=', 1)
    .where('transfer_cents', '>', 0)
    .where('status', 'in', ON_CHAIN)
    .execute();
}

export function liveReturns(exec: Executor) {
  return exec.selectFrom('chain_returns').selectAll().where('livemode', '=', 1).execute();
}

// ---- drifts the worker's check found (one row per address that disagrees)

export function drifts(exec: Executor) {
  return exec.selectFrom('chain_drifts').selectAll().orderBy('address').execute();
}

/** Records a drift at these amounts; false when it was recorded so already. */
export async function recordDrift(exec: Executor, row: ChainDriftRow): Promise<boolean> {
  const inserted = await exec
    .insertInto('chain_drifts')
    .values(row)
    .onConflict((oc) => oc.column('address').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const changed = await exec
    .updateTable('chain_drifts')
    .set({
      chain_units: row.chain_units,
      ledger_units: row.ledger_units,
      since: row.since,
      checked_at: row.checked_at,
    })
    .where('address', '=', row.address)
    .where((eb) =>
      eb.or([eb('chain_units', '!=', row.chain_units), eb('ledger_units', '!=', row.ledger_units)]),
    )
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) > 0) return true;
  await exec
    .updateTable('chain_drifts')
    .set({ checked_at: row.checked_at })
    .where('address', '=', row.address)
    .execute();
  return false;
}

/** Forgets the drift of an address that agrees again; false when none was recorded. */
export async function clearDrift(exec: Executor, address: string): Promise<boolean> {
  const deleted = await exec.deleteFrom('chain_drifts').where('address', '=', address).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Whether the organization's company wallet in this mode was ever opened. */
export async function companyWalletOpened(db: Executor, owner: Tenant): Promise<boolean> {
  const row = await db
    .selectFrom('company_wallets')
    .select('organization_id')
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .executeTakeFirst();
  return row !== undefined;
}
