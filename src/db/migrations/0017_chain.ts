import type { Kysely } from 'kysely';

/**
 * The EVM rail (issue 12, `CHAIN=evm`): the addresses Purser derived and watches, the signed pool
 * transfers (kept before they are broadcast, so a resubmission finds the same transaction), the
 * deposits credited (one per transaction hash and log index) and the block cursor of the watcher.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chain_addresses')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chain_addresses_owner')
    .unique()
    .on('chain_addresses')
    .columns(['organization_id', 'livemode', 'kind', 'owner_id'])
    .execute();

  await db.schema
    .createTable('chain_transfers')
    .addColumn('transfer_id', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'bigint', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('units', 'text', (c) => c.notNull())
    .addColumn('nonce', 'bigint', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('raw_tx', 'text', (c) => c.notNull())
    .addColumn('cancel_tx_hash', 'text')
    .addColumn('cancel_raw_tx', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chain_transfers_nonce')
    .unique()
    .on('chain_transfers')
    .columns(['chain_id', 'from_address', 'nonce'])
    .execute();

  await db.schema
    .createTable('chain_deposits')
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('chain_id', 'bigint', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('units', 'text', (c) => c.notNull())
    .addColumn('credited_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chain_deposits_pk', ['chain_id', 'tx_hash', 'log_index'])
    .execute();

  await db.schema
    .createTable('chain_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chain_cursors').execute();
  await db.schema.dropTable('chain_deposits').execute();
  await db.schema.dropTable('chain_transfers').execute();
  await db.schema.dropTable('chain_addresses').execute();
}
