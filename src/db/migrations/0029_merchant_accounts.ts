import type { Kysely } from 'kysely';

/**
 * Merchant account linking (issue 14, docs/merchant-accounts.md): how a configured merchant links
 * accounts (its OAuth 2.0 endpoints and Purser's client there, the secret sealed), the hosted link
 * sessions (the page token and the OAuth state as digests, the PKCE verifier sealed), and the linked
 * accounts with the merchant's tokens sealed.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merchant_account_linking')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey())
    .addColumn('authorize_url', 'text', (c) => c.notNull())
    .addColumn('token_url', 'text', (c) => c.notNull())
    .addColumn('userinfo_url', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('merchant_link_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('merchant_slug', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('token_sealed', 'text', (c) => c.notNull())
    .addColumn('state', 'text')
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('oauth_state_digest', 'text', (c) => c.unique())
    .addColumn('oauth_browser_digest', 'text')
    .addColumn('code_verifier_sealed', 'text')
    .addColumn('merchant_account_id', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('merchant_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('merchant_slug', 'text', (c) => c.notNull())
    .addColumn('merchant_account_ref', 'text', (c) => c.notNull())
    .addColumn('access_token_sealed', 'text', (c) => c.notNull())
    .addColumn('refresh_token_sealed', 'text')
    .addColumn('token_expires_at', 'bigint')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('merchant_accounts_user_merchant', [
      'organization_id',
      'livemode',
      'user_id',
      'merchant_id',
    ])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['merchant_accounts', 'merchant_link_sessions', 'merchant_account_linking'])
    await db.schema.dropTable(table).execute();
}
