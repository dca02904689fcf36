import type { Kysely } from 'kysely';

/**
 * Passkey recovery (docs/vault.md "Passkey recovery", issue 29): a reset the platform starts for a
 * user who lost their passkey. Its hosted page sends a one-time code to the user's email or phone;
 * the code proven (in one browser, remembered by `proof_digest`), the user registers a new passkey
 * and the old ones are removed, in one transaction with `passkey.reset`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkey_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('channel', 'text')
    .addColumn('code_digest', 'text')
    .addColumn('code_expires_at', 'bigint')
    .addColumn('code_sent_at', 'bigint')
    .addColumn('codes_sent', 'integer', (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull())
    .addColumn('proof_digest', 'text')
    .addColumn('verified_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('passkeys_removed', 'integer')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('passkey_resets_user')
    .on('passkey_resets')
    .columns(['organization_id', 'livemode', 'user_id', 'status'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkey_resets').execute();
}
