import type { Kysely } from 'kysely';

/**
 * Card controls (issue 27, docs/cards.md "Spending controls" and "Real-time authorization"): the
 * spending controls of a card and of a user (JSON, as the API takes them); a configured merchant's
 * category code; on each transaction the
 * merchant's country, the control that refused it, who decided it and the platform's own reason for
 * a decline; the platform's authorization endpoint, one per organization and mode, its signing
 * secret sealed.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cards').addColumn('spending_controls', 'text').execute();
  await db.schema.alterTable('merchants').addColumn('mcc', 'text').execute();
  await db.schema
    .createTable('user_spending_controls')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('controls', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  for (const column of [
    'merchant_country',
    'spending_control',
    'authorization_decided_by',
    'platform_reason',
  ]) {
    await db.schema.alterTable('card_transactions').addColumn(column, 'text').execute();
  }

  await db.schema
    .createTable('authorization_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('on_timeout', 'text', (c) => c.notNull())
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('authorization_endpoints_owner')
    .on('authorization_endpoints')
    .columns(['organization_id', 'livemode'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('authorization_endpoints').execute();
  for (const column of [
    'platform_reason',
    'authorization_decided_by',
    'spending_control',
    'merchant_country',
  ]) {
    await db.schema.alterTable('card_transactions').dropColumn(column).execute();
  }
  await db.schema.dropTable('user_spending_controls').execute();
  await db.schema.alterTable('merchants').dropColumn('mcc').execute();
  await db.schema.alterTable('cards').dropColumn('spending_controls').execute();
}
