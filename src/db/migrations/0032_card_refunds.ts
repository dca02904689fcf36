import type { Kysely } from 'kysely';

/**
 * Refunds and the issuer's later money (docs/cards.md, "Refunds" and "Lithic"): a transaction is a
 * `purchase` or a `refund` of one; a purchase keeps what was refunded of it; a transaction the
 * issuer reports keeps the issuer's settled amount and the version of its report last applied, so
 * a repeated or older report changes nothing; a settlement the books held nothing for is flagged.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('card_transactions')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('purchase'))
    .execute();
  await db.schema.alterTable('card_transactions').addColumn('original_transaction_id', 'text').execute();
  await db.schema
    .alterTable('card_transactions')
    .addColumn('refunded_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('card_transactions').addColumn('issuer_settled_cents', 'bigint').execute();
  await db.schema.alterTable('card_transactions').addColumn('issuer_version', 'bigint').execute();
  await db.schema
    .alterTable('card_transactions')
    .addColumn('force_posted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('card_transactions_refunds')
    .on('card_transactions')
    .column('original_transaction_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('card_transactions_refunds').execute();
  for (const column of [
    'force_posted',
    'issuer_version',
    'issuer_settled_cents',
    'refunded_cents',
    'original_transaction_id',
    'type',
  ]) {
    await db.schema.alterTable('card_transactions').dropColumn(column).execute();
  }
}
