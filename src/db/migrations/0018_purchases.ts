import type { Kysely } from 'kysely';

/**
 * Purchases (docs/purchases.md): cardholder buy tokens, `/buy` conversations (their carts and
 * transcript as one JSON state, their turn lock), and orders, the confirm's durable state machine.
 * `placement_key` (conversation and cart hash) is unique while an order for that cart is live or
 * placed: two confirms of one hash can never both place.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('buy_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('cardholder_id', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('turn_started_at', 'bigint')
    .addColumn('turn_confirm', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('buyer_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('merchant', 'text', (c) => c.notNull())
    .addColumn('merchant_name', 'text', (c) => c.notNull())
    .addColumn('cart', 'text', (c) => c.notNull())
    .addColumn('cart_hash', 'text', (c) => c.notNull())
    .addColumn('placement_key', 'text', (c) => c.unique())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('authorized_cents', 'bigint', (c) => c.notNull())
    .addColumn('final_cents', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('charge_status', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('decline_code', 'text')
    .addColumn('card_id', 'text')
    .addColumn('merchant_order_id', 'text')
    .addColumn('merchant_ref', 'text')
    .addColumn('next_check_at', 'bigint')
    .addColumn('placed_at', 'bigint')
    .addColumn('confirmed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_due').on('orders').columns(['status', 'next_check_at']).execute();
  await db.schema.createIndex('orders_conversation').on('orders').columns(['conversation_id']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('orders').execute();
  await db.schema.dropTable('conversations').execute();
  await db.schema.dropTable('buy_tokens').execute();
}
