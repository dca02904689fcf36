import type { Kysely } from 'kysely';

/**
 * Mirror accounts (no limit: the network's settlement, funding sources, rewards, fees) are shared by
 * every transfer of an organization; on PostgreSQL, writing their cached totals in each money
 * transaction would lock one row per organization until commit and serialize all of its money
 * (issue 24). Their changes are appended here instead, one row per account per batch, and folded
 * into the account's totals later by the worker (docs/ledger.md, "Mirror accounts").
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_account_deltas')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('debits_pending', 'bigint', (c) => c.notNull())
    .addColumn('debits_posted', 'bigint', (c) => c.notNull())
    .addColumn('credits_pending', 'bigint', (c) => c.notNull())
    .addColumn('credits_posted', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_account_deltas_account')
    .on('ledger_account_deltas')
    .column('account_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_account_deltas').execute();
}
