import type { Kysely } from 'kysely';

/**
 * Receipts of orders placed under a mandate (docs/mandates.md "Receipts", issue 28): the ES256 keys
 * that sign them and the receipt of each order. The key in slot `current` signs; a rotation empties
 * the slot (unique, so exactly one key signs), erases the retired key's private half and gives it an
 * expiry, until which `/.well-known/jwks.json` still publishes its public half.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('receipt_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('slot', 'text', (c) => c.unique())
    .addColumn('private_key_sealed', 'text')
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema
    .createTable('order_receipts')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('mandate_id', 'text', (c) => c.notNull())
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('jws', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('order_receipts').execute();
  await db.schema.dropTable('receipt_keys').execute();
}
