import { type Kysely, sql } from 'kysely';

/**
 * One index entry fewer per card authorization (docs/benchmarks.md, bench/cards): the index that
 * finds a purchase's refunds held an entry for every transaction, though only refunds name an
 * original; it now holds only those. Its one query (a purchase's refunds, joined on
 * `original_transaction_id = id`) implies the column is not null, so both databases still use it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('card_transactions_refunds').execute();
  await db.schema
    .createIndex('card_transactions_refunds')
    .on('card_transactions')
    .column('original_transaction_id')
    .where(sql.ref('original_transaction_id'), 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('card_transactions_refunds').execute();
  await db.schema
    .createIndex('card_transactions_refunds')
    .on('card_transactions')
    .column('original_transaction_id')
    .execute();
}
