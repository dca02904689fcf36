import type { Kysely } from 'kysely';

/**
 * Every list reads its page through an index in the list's own order, (owner…, created_at, id), the
 * order and tie-break of `db/pagination.ts` (issue 30, "cost as the data grows"). An organization's
 * cards and card transactions had indexes by user and by card but none in time order, so a page of
 * all of them sorted them all; the console's users and orders had no index by organization at all.
 *
 * A filtered list's index starts with the organization and mode too, so that it has more equality
 * columns than the organization's listing: SQLite, which keeps no statistics here, prefers the index
 * that fixes more columns, and would otherwise walk the organization's whole history for one card.
 */
const INDEXES = [
  { name: 'cards_listing', table: 'cards', columns: [] },
  { name: 'card_transactions_listing', table: 'card_transactions', columns: [] },
  { name: 'users_listing', table: 'users', columns: [] },
  { name: 'orders_listing', table: 'orders', columns: [] },
  { name: 'cards_user', table: 'cards', columns: ['user_id'] },
  { name: 'card_transactions_by_card', table: 'card_transactions', columns: ['card_id'] },
  { name: 'card_transactions_by_user', table: 'card_transactions', columns: ['user_id'] },
] as const;

/** What they replace, as migration 0014 made them. */
const REPLACED = [
  { name: 'cards_owner', table: 'cards', columns: ['organization_id', 'livemode', 'user_id'] },
  { name: 'card_transactions_card', table: 'card_transactions', columns: ['card_id', 'created_at'] },
  {
    name: 'card_transactions_user',
    table: 'card_transactions',
    columns: ['organization_id', 'livemode', 'user_id', 'created_at'],
  },
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  for (const { name, table, columns } of INDEXES)
    await db.schema
      .createIndex(name)
      .on(table)
      .columns(['organization_id', 'livemode', ...columns, 'created_at', 'id'])
      .execute();
  for (const { name } of REPLACED) await db.schema.dropIndex(name).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const { name, table, columns } of REPLACED)
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute();
  for (const { name } of INDEXES) await db.schema.dropIndex(name).execute();
}
