import type { Kysely } from 'kysely';

/**
 * The vault's content (docs/vault.md): passkeys per user, WebAuthn challenges (single-use, bound to
 * the page that asked for them), the user's own cards (sealed), and checkout authorizations: `/buy`
 * confirms paused for the user's approval on a hosted page (docs/purchases.md, Approvals). A vault
 * session remembers when a passkey was verified in it; organizations may set an approval threshold.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vault_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('vault_passkeys_user')
    .on('vault_passkeys')
    .columns(['organization_id', 'livemode', 'user_id'])
    .execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    // What the challenge is bound to: `vault_session:<id>` or `checkout_authorization:<id>`.
    .addColumn('binding', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webauthn_challenges_expiry')
    .on('webauthn_challenges')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('vault_cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('vault_cards_user')
    .on('vault_cards')
    .columns(['organization_id', 'livemode', 'user_id'])
    .execute();

  await db.schema
    .createTable('checkout_authorizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('cart_hash', 'text', (c) => c.notNull())
    .addColumn('cart', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('payment_source', 'text', (c) => c.notNull())
    .addColumn('vault_card_id', 'text')
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    // When a vault card's charge was trued up to what the order cost (vault_card_refund).
    .addColumn('card_settled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('checkout_authorizations_due')
    .on('checkout_authorizations')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('checkout_authorizations_cart')
    .on('checkout_authorizations')
    .columns(['conversation_id', 'cart_hash'])
    .execute();

  await db.schema.alterTable('vault_sessions').addColumn('verified_at', 'bigint').execute();
  await db.schema
    .alterTable('organization_vault_settings')
    .addColumn('approval_threshold_cents', 'bigint')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization_vault_settings').dropColumn('approval_threshold_cents').execute();
  await db.schema.alterTable('vault_sessions').dropColumn('verified_at').execute();
  await db.schema.dropTable('checkout_authorizations').execute();
  await db.schema.dropTable('vault_cards').execute();
  await db.schema.dropTable('webauthn_challenges').execute();
  await db.schema.dropTable('vault_passkeys').execute();
}
