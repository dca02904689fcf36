import type { Kysely } from 'kysely';

/**
 * The issuer in step with the books (issue 24, `CARD_ISSUER=lithic`): a transaction counts the
 * authorization requests approved for it (the first and each incremental one), so that an issuer's
 * report from before the latest approval does not shrink its hold; and what the worker's last
 * `issuer reconcile` found, per issuer, for /metrics in every process.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('card_transactions')
    .addColumn('authorizations', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('issuer_reconciliations')
    .addColumn('issuer', 'text', (c) => c.primaryKey())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('since', 'bigint')
    .addColumn('compared', 'integer', (c) => c.notNull())
    .addColumn('drifts', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('issuer_reconciliations').execute();
  await db.schema.alterTable('card_transactions').dropColumn('authorizations').execute();
}
