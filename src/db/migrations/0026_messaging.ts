import type { Kysely } from 'kysely';

/**
 * The messaging-provider connection (docs/messaging.md): authorization requests in flight (their
 * `state` as a digest, the PKCE verifier sealed), and one connection per organization and mode with
 * its provider tokens sealed.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('messaging_oauth_states')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('state_digest', 'text', (c) => c.notNull().unique())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('messaging_oauth_states_expiry')
    .on('messaging_oauth_states')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('messaging_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('provider_organization_ids', 'text', (c) => c.notNull())
    .addColumn('token_expires_at', 'bigint')
    .addColumn('refresh_lease_until', 'bigint')
    .addColumn('broken_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('messaging_connections_owner', ['organization_id', 'livemode'])
    .execute();
  await db.schema
    .createIndex('messaging_connections_expiry')
    .on('messaging_connections')
    .columns(['status', 'token_expires_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('messaging_connections').execute();
  await db.schema.dropTable('messaging_oauth_states').execute();
}
