import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('kyc_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('required_fields', 'text')
    .addColumn('document_type', 'text')
    .addColumn('issuing_country', 'text')
    .addColumn('front_extracted', 'text')
    .addColumn('back_extracted', 'text')
    .addColumn('information', 'text')
    .addColumn('national_id_digest', 'text')
    .addColumn('document_key', 'text')
    .addColumn('front_at', 'bigint')
    .addColumn('back_at', 'bigint')
    .addColumn('face_scan_at', 'bigint')
    .addColumn('submitted_at', 'bigint')
    .addColumn('decided_at', 'bigint')
    .addColumn('link_nonce', 'text')
    .addColumn('session_digest', 'text')
    .addColumn('session_expires_at', 'bigint')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('kyc_verifications_document')
    .on('kyc_verifications')
    .columns(['organization_id', 'livemode', 'document_key'])
    .execute();
  await db.schema
    .createIndex('kyc_verifications_queue')
    .on('kyc_verifications')
    .columns(['livemode', 'status', 'submitted_at'])
    .execute();
  await db.schema
    .createIndex('kyc_verifications_session')
    .on('kyc_verifications')
    .columns(['session_digest'])
    .execute();

  await db.schema
    .createTable('kyc_transitions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('verification_id', 'text', (c) => c.notNull().references('kyc_verifications.id'))
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('move', 'text', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('kyc_transitions_verification')
    .on('kyc_transitions')
    .columns(['verification_id', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('kyc_transitions').execute();
  await db.schema.dropTable('kyc_verifications').execute();
}
