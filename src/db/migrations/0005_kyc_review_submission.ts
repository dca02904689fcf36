import type { Kysely } from 'kysely';

/**
 * A live verification in `pending` is handed to the reviewer after the move commits; until the
 * reviewer has taken it, `review_submitted_at` is null and the worker retries. The national id
 * number waits for that hand-over sealed in `national_id_sealed`, and is erased once it is done.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('kyc_verifications').addColumn('review_submitted_at', 'bigint').execute();
  await db.schema.alterTable('kyc_verifications').addColumn('national_id_sealed', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('kyc_verifications').dropColumn('national_id_sealed').execute();
  await db.schema.alterTable('kyc_verifications').dropColumn('review_submitted_at').execute();
}
