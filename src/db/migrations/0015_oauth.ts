import type { Kysely } from 'kysely';

/**
 * The user-facing OAuth authorization server (docs/oauth-mcp.md): the audience a connection token
 * is bound to, authorization codes, and the fetch record of Client ID Metadata Documents.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // RFC 8707: the resource a token is for; null for platform tokens (they are not for the tool server).
  await db.schema.alterTable('access_tokens').addColumn('audience', 'text').execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_digest', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    // The token family the code is exchanged into: a replayed code revokes it.
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_codes_expiry').on('oauth_codes').columns(['expires_at']).execute();

  // A Client ID Metadata Document client is a `clients` row whose id is its https URL; this records
  // when its document was fetched and until when the copy in `clients` may be used.
  await db.schema
    .createTable('oauth_client_documents')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id'))
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_client_documents').execute();
  await db.schema.dropTable('oauth_codes').execute();
  await db.schema.alterTable('access_tokens').dropColumn('audience').execute();
}
