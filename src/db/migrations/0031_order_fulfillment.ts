import type { Kysely } from 'kysely';

/**
 * Orders say where the goods are (docs/purchases.md "Fulfillment"): `fulfillment_status`, null until
 * the order is placed, then moved by the merchant's order updates. Orders placed before this
 * migration start `unfulfilled`, as a new placement does.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('fulfillment_status', 'text').execute();
  await db
    .updateTable('orders')
    .set({ fulfillment_status: 'unfulfilled' })
    .where('status', 'in', ['placed', 'confirmed'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('fulfillment_status').execute();
}
