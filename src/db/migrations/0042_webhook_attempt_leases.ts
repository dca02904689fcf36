import type { Kysely } from 'kysely';

/**
 * A webhook attempt is counted when its lease is taken (issue 25): a delivery remembers when its
 * current lease began, and a claim that takes over a lease its worker never settled (the worker
 * crashed mid-attempt) records that attempt as interrupted, its outcome unknown, under its own
 * number; the resend is the next attempt.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('leased_at', 'bigint').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('interrupted_at', 'bigint').execute();
  await db.schema
    .alterTable('webhook_attempts')
    .addColumn('interrupted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').dropColumn('interrupted').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('interrupted_at').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('leased_at').execute();
}
