import type { Kysely } from 'kysely';

/**
 * The cards a client created, in list order (issue 30): the MCP tool server shows a connection only
 * its own client's cards and their transactions, and found them by scanning every card of every
 * organization (`cards` had no index on `client_id`). Led by the organization and mode, as the other
 * filtered lists' indexes are (migration 0057).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('cards_client')
    .on('cards')
    .columns(['organization_id', 'livemode', 'client_id', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('cards_client').execute();
}
