import type { Kysely } from 'kysely';

/**
 * Spending mandates (issue 28, docs/mandates.md): the terms a user signed with a passkey for one
 * OAuth app to buy within, and what each purchase under them took from the budget
 * (`mandate_spends`, one row per charge, less what refunds and voids gave back).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mandates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('terms', 'text', (c) => c.notNull())
    .addColumn('terms_hash', 'text', (c) => c.notNull())
    .addColumn('budget_cents', 'bigint', (c) => c.notNull())
    .addColumn('budget_interval', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('approval', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('approved_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mandates_user')
    .on('mandates')
    .columns(['organization_id', 'livemode', 'user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('mandates_status').on('mandates').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('mandate_spends')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mandate_id', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('returned_cents', 'bigint', (c) => c.notNull())
    .addColumn('merchant', 'text')
    .addColumn('category', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mandate_spends_reference')
    .on('mandate_spends')
    .columns(['mandate_id', 'reference'])
    .unique()
    .execute();
  await db.schema
    .createIndex('mandate_spends_window')
    .on('mandate_spends')
    .columns(['mandate_id', 'at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mandate_spends').execute();
  await db.schema.dropTable('mandates').execute();
}
