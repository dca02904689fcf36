import { type Kysely, sql } from 'kysely';

/**
 * The chain in step with the books (issue 24, `CHAIN=evm`): company money a card releases returns
 * from the user's deposit address to the pool on the chain (one durable job per release, held in
 * the ledger until the tokens arrive), and what `chain reconcile` last found at each address. The
 * reconciliation sums what pools paid straight onto company-funded cards (their tokens stay at the
 * pool's address): a partial index holds just those transfers.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chain_returns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('event_data', 'text', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chain_returns_due')
    .on('chain_returns')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('chain_returns_user')
    .on('chain_returns')
    .columns(['organization_id', 'livemode', 'user_id'])
    .execute();

  await db.schema
    .createIndex('ledger_transfers_pool_draws')
    .on('ledger_transfers')
    .columns(['organization_id', 'livemode'])
    .where(sql.ref('code'), '=', sql.lit('company_card_funding'))
    .execute();

  await db.schema
    .createTable('chain_drifts')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('chain_units', 'text', (c) => c.notNull())
    .addColumn('ledger_units', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('chain_drifts').execute();
  await db.schema.dropIndex('ledger_transfers_pool_draws').execute();
  await db.schema.dropTable('chain_returns').execute();
}
