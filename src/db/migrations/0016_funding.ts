import type { Kysely } from 'kysely';

/**
 * Funding: each organization's company wallet settings per mode (its money is the ledger's
 * `company_pool` account) and the company-funded card flows, the worker's durable state machine.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('company_wallets')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('low_balance_threshold_cents', 'bigint', (c) => c.notNull())
    .addColumn('low_balance_notified', 'integer', (c) => c.notNull())
    .addColumn('fee_bps', 'integer', (c) => c.notNull())
    .addColumn('fee_fixed_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_wallets_pk', ['organization_id', 'livemode'])
    .execute();

  await db.schema
    .createTable('card_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('cardholder_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('external_user_id', 'text')
    .addColumn('card_type', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('fee_cents', 'bigint', (c) => c.notNull())
    .addColumn('transfer_cents', 'bigint', (c) => c.notNull())
    .addColumn('netted_cents', 'bigint', (c) => c.notNull())
    .addColumn('ack_required', 'integer', (c) => c.notNull())
    .addColumn('ack_deadline', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approved_via', 'text')
    .addColumn('tx_hash', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('card_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('card_flows_status')
    .on('card_flows')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('card_flows_owner')
    .on('card_flows')
    .columns(['organization_id', 'livemode', 'user_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('card_flows').execute();
  await db.schema.dropTable('company_wallets').execute();
}
