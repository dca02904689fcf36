import type { Kysely } from 'kysely';

/**
 * The double-entry ledger: accounts with cached debit/credit totals (written only by the ledger, in
 * the transaction of the transfer that changes them, and proved equal to the transfers by
 * `purser ledger verify`) and immutable transfers, whose pending holds record how they ended.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('debits_pending', 'bigint', (c) => c.notNull())
    .addColumn('debits_posted', 'bigint', (c) => c.notNull())
    .addColumn('credits_pending', 'bigint', (c) => c.notNull())
    .addColumn('credits_posted', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ledger_accounts_owner', ['organization_id', 'livemode', 'kind', 'owner_id'])
    .execute();

  await db.schema
    .createTable('ledger_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('debit_account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('credit_account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('pending_id', 'text', (c) => c.references('ledger_transfers.id'))
    .addColumn('pending_state', 'text')
    .addColumn('timeout_at', 'bigint')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A pending transfer is posted or voided at most once: the database refuses a second ending.
  await db.schema
    .createIndex('ledger_transfers_one_ending')
    .on('ledger_transfers')
    .column('pending_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('ledger_transfers_debit')
    .on('ledger_transfers')
    .column('debit_account_id')
    .execute();
  await db.schema
    .createIndex('ledger_transfers_credit')
    .on('ledger_transfers')
    .column('credit_account_id')
    .execute();
  await db.schema
    .createIndex('ledger_transfers_open_holds')
    .on('ledger_transfers')
    .columns(['pending_state', 'timeout_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ledger_transfers').execute();
  await db.schema.dropTable('ledger_accounts').execute();
}
