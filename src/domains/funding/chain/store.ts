import type { Selectable } from 'kysely';
import type { Dialect, Executor } from '../../../db/index.ts';
import type { ChainAddressesTable, ChainTransfersTable } from '../../../db/schema.ts';

export type ChainAddress = Selectable<ChainAddressesTable>;
export type ChainTransferRow = Selectable<ChainTransfersTable>;

/** The only code that touches the EVM rail's tables (addresses, signed transfers, the watcher's cursor). */
export class ChainStore {
  constructor(private readonly dialect: Dialect) {}

  async ensureAddress(exec: Executor, row: ChainAddress): Promise<void> {
    await exec
      .insertInto('chain_addresses')
      .values(row)
      .onConflict((oc) => oc.column('address').doNothing())
      .execute();
  }

  /** Locks a pool's address row (PostgreSQL `FOR UPDATE`; SQLite's write lock is already held): one nonce at a time. */
  lockAddress(exec: Executor, address: string) {
    const query = exec.selectFrom('chain_addresses').selectAll().where('address', '=', address);
    return (this.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  }

  /** Which of these addresses are Purser's. */
  addresses(exec: Executor, addresses: string[]) {
    if (addresses.length === 0) return Promise.resolve([]);
    return exec.selectFrom('chain_addresses').selectAll().where('address', 'in', addresses).execute();
  }

  transfer(exec: Executor, transferId: string) {
    return exec
      .selectFrom('chain_transfers')
      .selectAll()
      .where('transfer_id', '=', transferId)
      .executeTakeFirst();
  }

  /** The highest nonce Purser signed from this address on this chain, if any. */
  async lastNonce(exec: Executor, chainId: number, from: string): Promise<number | null> {
    const row = await exec
      .selectFrom('chain_transfers')
      .select((eb) => eb.fn.max('nonce').as('nonce'))
      .where('chain_id', '=', chainId)
      .where('from_address', '=', from)
      .executeTakeFirst();
    return row?.nonce === null || row?.nonce === undefined ? null : Number(row.nonce);
  }

  async insertTransfer(exec: Executor, row: ChainTransferRow): Promise<void> {
    await exec.insertInto('chain_transfers').values(row).execute();
  }

  /** Keeps the transfer's cancellation, unless one was kept already. */
  async setCancel(exec: Executor, transferId: string, cancel: { hash: string; raw: string }): Promise<void> {
    await exec
      .updateTable('chain_transfers')
      .set({ cancel_tx_hash: cancel.hash, cancel_raw_tx: cancel.raw })
      .where('transfer_id', '=', transferId)
      .where('cancel_raw_tx', 'is', null)
      .execute();
  }

  async cursor(exec: Executor, name: string): Promise<number | null> {
    const row = await exec
      .selectFrom('chain_cursors')
      .select('block_number')
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Number(row.block_number) : null;
  }

  async setCursor(exec: Executor, name: string, blockNumber: number, now: number): Promise<void> {
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
}
