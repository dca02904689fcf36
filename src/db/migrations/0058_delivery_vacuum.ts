import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL vacuums `webhook_deliveries` once 1 % of its rows are dead instead of 20 % (issue 30).
 * Every delivery is settled once, which leaves its entry in the claim's partial index of what is owed
 * (`webhook_deliveries_due`) pointing at a dead row until a vacuum: at the default, a table of a
 * million deliveries let 200,000 of them pile up, and every claim read past them (2,746 index pages
 * a claim with a million, 22 after a vacuum). SQLite takes a row's entry out of an index when the
 * row changes: nothing to set there.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table webhook_deliveries set (autovacuum_vacuum_scale_factor = 0.01)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table webhook_deliveries reset (autovacuum_vacuum_scale_factor)`.execute(db);
}
