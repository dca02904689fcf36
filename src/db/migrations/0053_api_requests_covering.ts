import type { Kysely } from 'kysely';

/**
 * The request log's owner index carries the id (issue 30): its reads order by (created_at, id), and
 * with the id only in the row, SQLite sorted each owner's rows in a temporary tree and fetched every
 * row for its id. The cut back to the newest 1,000 (web/request-log.ts) read 1,000 rows that way on
 * every card authorization's log batch; on (organization_id, livemode, created_at, id) it is a walk of
 * the index alone (about 9× less work measured on 1,500 rows), and so is the console's page.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_requests_owner_created').execute();
  await db.schema
    .createIndex('api_requests_owner_created')
    .on('api_requests')
    .columns(['organization_id', 'livemode', 'created_at', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_requests_owner_created').execute();
  await db.schema
    .createIndex('api_requests_owner_created')
    .on('api_requests')
    .columns(['organization_id', 'livemode', 'created_at'])
    .execute();
}
