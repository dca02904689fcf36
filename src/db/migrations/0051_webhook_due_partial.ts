import { type Kysely, sql } from 'kysely';

/**
 * The claim's index holds only what is owed (issue 30): `webhook_deliveries_due` on
 * (status, next_attempt_at) kept an entry for every delivery ever made, so it grew with the history
 * (a million settled deliveries around a handful of pending ones) and every settle moved an entry
 * inside it. As a partial index on `status = 'pending'` it holds the pending deliveries alone: a
 * delivery leaves it when it is settled, and the claim and the backlog read a small index whatever
 * the history.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', sql.lit('pending'))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
