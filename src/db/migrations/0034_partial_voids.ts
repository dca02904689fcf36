import type { Kysely } from 'kysely';

/**
 * Partial voids (issue 24; docs/cards.md): a transaction keeps its authorized amount and records
 * what voids released of it, in all; what it still holds is its open hold in the ledger.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('card_transactions')
    .addColumn('voided_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('card_transactions').dropColumn('voided_cents').execute();
}
