import type { Selectable } from 'kysely';
import { lockedOnPostgres } from '../../../db/dialect.ts';
import type { Executor } from '../../../db/index.ts';
import type { ChainAddressesTable, ChainTransfersTable } from '../../../db/schema.ts';

export type ChainAddress = Selectable<ChainAddressesTable>;
export type ChainTransferRow = Selectable<ChainTransfersTable>;

/** The only code that touches the EVM rail's tables (addresses, signed transfers, the watcher's cursor). */

/** Records the address unless it is; whether it was retired by a `CHAIN_POOL_KEY` rotation. */
export async function ensureAddress(
  exec: Executor,
  row: Omit<ChainAddress, 'retired_at'>,
): Promise<{ retired: boolean }> {
  await exec
    .insertInto('chain_addresses')
    .values({ ...row, retired_at: null })
    .onConflict((oc) => oc.column('address').doNothing())
    .execute();
  const kept = await exec
    .selectFrom('chain_addresses')
    .select('retired_at')
    .where('address', '=', row.address)
    .executeTakeFirst();
  return { retired: kept?.retired_at !== null && kept?.retired_at !== undefined };
}

/** Marks an address replaced by the rotation of `CHAIN_POOL_KEY` (once: a second run keeps the first time). */
export async function retireAddress(exec: Executor, address: string, now: number): Promise<void> {
  await exec
    .updateTable('chain_addresses')
    .set({ retired_at: now })
    .where('address', '=', address)
    .where('retired_at', 'is', null)
    .execute();
}

/** Locks a pool's address row (PostgreSQL `FOR UPDATE`; SQLite's write lock is already held): one nonce at a time. */
export function lockAddress(exec: Executor, address: string) {
  const query = exec.selectFrom('chain_addresses').selectAll().where('address', '=', address);
  return lockedOnPostgres(exec, query).executeTakeFirst();
}

/** Every production address Purser derived (the ones on a chain), those a rotation retired included. */
export function liveAddresses(exec: Executor) {
  return exec.selectFrom('chain_addresses').selectAll().where('livemode', '=', 1).execute();
}

/** Which of these addresses are Purser's. */
export function addresses(exec: Executor, addresses: string[]) {
  if (addresses.length === 0) return Promise.resolve([]);
  return exec.selectFrom('chain_addresses').selectAll().where('address', 'in', addresses).execute();
}

export function transfer(exec: Executor, transferId: string) {
  return exec
    .selectFrom('chain_transfers')
    .selectAll()
    .where('transfer_id', '=', transferId)
    .executeTakeFirst();
}

export function transfers(exec: Executor, transferIds: string[]) {
  if (transferIds.length === 0) return Promise.resolve([]);
  return exec.selectFrom('chain_transfers').selectAll().where('transfer_id', 'in', transferIds).execute();
}

/** The highest nonce Purser signed from this address on this chain, if any. */
export async function lastNonce(exec: Executor, chainId: number, from: string): Promise<number | null> {
  const row = await exec
    .selectFrom('chain_transfers')
    .select((eb) => eb.fn.max('nonce').as('nonce'))
    .where('chain_id', '=', chainId)
    .where('from_address', '=', from)
    .executeTakeFirst();
  return row?.nonce === null || row?.nonce === undefined ? null : Number(row.nonce);
}

export async function insertTransfer(exec: Executor, row: ChainTransferRow): Promise<void> {
  await exec.insertInto('chain_transfers').values(row).execute();
}

/** Keeps the transfer's cancellation, unless one was kept already. */
export async function setCancel(
  exec: Executor,
  transferId: string,
  cancel: { hash: string; raw: string },
): Promise<void> {
  await exec
    .updateTable('chain_transfers')
    .set({ cancel_tx_hash: cancel.hash, cancel_raw_tx: cancel.raw })
    .where('transfer_id', '=', transferId)
    .where('cancel_raw_tx', 'is', null)
    .execute();
}

export async function cursor(exec: Executor, name: string): Promise<number | null> {
  const row = await exec
    .selectFrom('chain_cursors')
    .select('block_number')
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? Number(row.block_number) : null;
}

export function cursorRow(exec: Executor, name: string) {
  return exec.selectFrom('chain_cursors').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function setCursor(
  exec: Executor,
  name: string,
  blockNumber: number,
  now: number,
): Promise<void> {
  await exec
    .insertInto('chain_cursors')
    .values({ name, block_number: blockNumber, updated_at: now })
    // Only forward: a slower worker that read the same blocks does not move it back.
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ block_number: blockNumber, updated_at: now })
        .where('chain_cursors.block_number', '<', blockNumber),
    )
    .execute();
}

/**
 * Claims the recording of a check made at `blockNumber` under the cursor `name`: false when a check
 * at a later block was recorded already (two workers; a slow one does not undo the
 * newer). The row stays locked until the caller's write transaction ends (PostgreSQL `FOR UPDATE`).
 */
export async function claimCursor(
  exec: Executor,
  name: string,
  blockNumber: number,
  now: number,
): Promise<boolean> {
  await exec
    .insertInto('chain_cursors')
    .values({ name, block_number: -1, updated_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const query = exec.selectFrom('chain_cursors').select('block_number').where('name', '=', name);
  const row = await lockedOnPostgres(exec, query).executeTakeFirstOrThrow();
  if (Number(row.block_number) > blockNumber) return false;
  await exec
    .updateTable('chain_cursors')
    .set({ block_number: blockNumber, updated_at: now })
    .where('name', '=', name)
    .execute();
  return true;
}
