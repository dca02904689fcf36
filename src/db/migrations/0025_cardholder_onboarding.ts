import type { Kysely } from 'kysely';

/**
 * Hosted cardholder onboarding (docs/onboarding.md): sessions opened by
 * `POST /api/v1/cardholder_onboarding_sessions` (their link token kept as a digest for lookup and
 * sealed so a retrieve can answer the url), and a keyed digest of each cardholder's email, by which
 * an existing cardholder is found when a person claims it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cardholder_onboarding_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('token_sealed', 'text', (c) => c.notNull())
    .addColumn('external_user_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('state', 'text')
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cardholder_id', 'text')
    .addColumn('claimed_existing_cardholder', 'integer', (c) => c.notNull())
    .addColumn('claim_sealed', 'text')
    .addColumn('claim_code_digest', 'text')
    .addColumn('claim_failed_attempts', 'integer', (c) => c.notNull())
    .addColumn('claim_expires_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cardholder_onboarding_sessions_org')
    .on('cardholder_onboarding_sessions')
    .columns(['organization_id', 'livemode', 'created_at'])
    .execute();
  await db.schema.alterTable('cardholders').addColumn('email_digest', 'text').execute();
  await db.schema
    .createIndex('cardholders_email_digest')
    .on('cardholders')
    .columns(['organization_id', 'livemode', 'email_digest'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('cardholders_email_digest').execute();
  await db.schema.alterTable('cardholders').dropColumn('email_digest').execute();
  await db.schema.dropTable('cardholder_onboarding_sessions').execute();
}
