import { type Kysely, sql } from 'kysely';

/**
 * Rotating `CHAIN_POOL_KEY` (`purser chain rotate-pool-key`, docs/operations.md): the addresses the
 * previous key derived stay recorded, retired (`retired_at`), beside the new ones of the same owners.
 * The watcher still knows them (a move from a retired address to its successor is no deposit), the
 * reconciliation counts them as their successor, and the service refuses a key that derives one.
 * One current address per owner: the unique index covers only the unretired rows.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chain_addresses').addColumn('retired_at', 'bigint').execute();
  await db.schema.dropIndex('chain_addresses_owner').execute();
  await db.schema
    .createIndex('chain_addresses_owner')
    .unique()
    .on('chain_addresses')
    .columns(['organization_id', 'livemode', 'kind', 'owner_id'])
    .where(sql.ref('retired_at'), 'is', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('chain_addresses_owner').execute();
  await db.deleteFrom('chain_addresses').where('retired_at', 'is not', null).execute();
  await db.schema
    .createIndex('chain_addresses_owner')
    .unique()
    .on('chain_addresses')
    .columns(['organization_id', 'livemode', 'kind', 'owner_id'])
    .execute();
  await db.schema.alterTable('chain_addresses').dropColumn('retired_at').execute();
}
