import type { Kysely } from 'kysely';

/**
 * Cardholders, cards and their transactions (the money itself is in the ledger), the audit log of
 * card-number reveals, and the organization's revenue settings.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cardholders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('external_user_id', 'text')
    .addColumn('details_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('cardholders_user', ['organization_id', 'livemode', 'user_id'])
    .execute();

  await db.schema
    .createTable('cards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('cardholder_id', 'text', (c) => c.notNull().references('cardholders.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('expiry', 'text', (c) => c.notNull())
    .addColumn('pan_sealed', 'text', (c) => c.notNull())
    .addColumn('cvv_sealed', 'text', (c) => c.notNull())
    .addColumn('spend_limit_cents', 'bigint', (c) => c.notNull())
    .addColumn('memo', 'text')
    .addColumn('closed_reason', 'text')
    .addColumn('provider_ref', 'text')
    .addColumn('transfer_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cards_owner')
    .on('cards')
    .columns(['organization_id', 'livemode', 'user_id'])
    .execute();
  await db.schema.createIndex('cards_provider_ref').on('cards').column('provider_ref').execute();

  await db.schema
    .createTable('card_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('card_id', 'text', (c) => c.notNull().references('cards.id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('settled_cents', 'bigint')
    .addColumn('merchant', 'text', (c) => c.notNull())
    .addColumn('mcc', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('hold_id', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('card_transactions_open')
    .on('card_transactions')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('card_transactions_card')
    .on('card_transactions')
    .columns(['card_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('card_transactions_user')
    .on('card_transactions')
    .columns(['organization_id', 'livemode', 'user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('card_detail_reveals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('card_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .alterTable('organizations')
    .addColumn('reward_share_bps', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('live_card_details', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('live_card_details').execute();
  await db.schema.alterTable('organizations').dropColumn('reward_share_bps').execute();
  await db.schema.dropTable('card_detail_reveals').execute();
  await db.schema.dropTable('card_transactions').execute();
  await db.schema.dropTable('cards').execute();
  await db.schema.dropTable('cardholders').execute();
}
