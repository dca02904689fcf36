import type { Kysely } from 'kysely';

/**
 * Wallet links (issue 13; spec §2 "Wallet link", §4): the hosted wallet page's links, kept by the
 * SHA-256 digest of their token (the token itself is only ever in the `url` answered once); the
 * operator's per-organization switch for the feature; and what a user did on the page (test funds
 * added, payment approvals decided), each keyed by the page's one-time action nonce so a form
 * submitted twice acts once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wallet_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('wallet_links_owner')
    .on('wallet_links')
    .columns(['organization_id', 'livemode', 'user_id'])
    .execute();

  await db.schema
    .createTable('wallet_link_settings')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('wallet_link_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('link_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('merchant', 'text')
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('decision', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('wallet_link_actions_nonce', ['link_id', 'nonce'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('wallet_link_actions').execute();
  await db.schema.dropTable('wallet_link_settings').execute();
  await db.schema.dropTable('wallet_links').execute();
}
