import { type Kysely, sql } from 'kysely';

/**
 * Identity verification hardening:
 * - The national id and document digests become keyed (HMAC-SHA-256 under a key derived from the
 *   encryption key ring, see src/domains/kyc/digests.ts), each with the id of its key. The unkeyed
 *   SHA-256 digests written before cannot be converted (the migration has no key, and the national
 *   id number behind most of them is already erased), and left in place they could be reversed by
 *   brute force: they are erased here. A document key is marked `legacy` so that the worker derives
 *   it again, keyed, from the sealed document reads (docs/kyc.md, "Data kept").
 * - `national_id_sealed_at` dates the sealed national id number, so that one left behind is erased
 *   when its time is up; numbers already sealed count from the row's last change.
 * - `link_expires_at` keeps the expiry of the newest hosted-page link, so that polls return it
 *   unchanged while it is valid.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  for (const [column, type] of [
    ['national_id_digest_key_id', 'text'],
    ['document_key_key_id', 'text'],
    ['national_id_sealed_at', 'bigint'],
    ['link_expires_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('kyc_verifications').addColumn(column, type).execute();
  }
  await db
    .updateTable('kyc_verifications')
    .set({ national_id_digest: null })
    .where('national_id_digest', 'is not', null)
    .execute();
  await db
    .updateTable('kyc_verifications')
    .set({ document_key: null, document_key_key_id: 'legacy' })
    .where('document_key', 'is not', null)
    .execute();
  await db
    .updateTable('kyc_verifications')
    .set({ national_id_sealed_at: sql`updated_at` })
    .where('national_id_sealed', 'is not', null)
    .execute();
  await db.schema
    .createIndex('kyc_verifications_national_id_sealed')
    .on('kyc_verifications')
    .columns(['national_id_sealed_at'])
    .execute();
  await db.schema
    .createIndex('kyc_verifications_document_key_key')
    .on('kyc_verifications')
    .columns(['document_key_key_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('kyc_verifications_document_key_key').execute();
  await db.schema.dropIndex('kyc_verifications_national_id_sealed').execute();
  for (const column of [
    'link_expires_at',
    'national_id_sealed_at',
    'document_key_key_id',
    'national_id_digest_key_id',
  ]) {
    await db.schema.alterTable('kyc_verifications').dropColumn(column).execute();
  }
}
