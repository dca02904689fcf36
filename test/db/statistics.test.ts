import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/index.ts';
import { analyzeStaleTables } from '../../src/db/statistics.ts';
import { migratedDatabaseUrl, onPostgres, type TestDatabase } from '../helpers/databases.ts';

/**
 * Table statistics where autovacuum does not keep them (db/statistics.ts): a table of the schema
 * with autovacuum off for it is analyzed once more than 50 + 10 % of its rows changed, and not
 * again until they change once more. PostgreSQL only: SQLite has no planner statistics to keep.
 */
describe.skipIf(!onPostgres)('table statistics on PostgreSQL', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let schema: string;

  beforeAll(async () => {
    database = await migratedDatabaseUrl();
    handle = await openDatabase(database.url);
    schema = (await sql<{ s: string }>`select current_schema() as s`.execute(handle.db)).rows[0]?.s as string;
    await sql`create table watched (id integer primary key) with (autovacuum_enabled = false)`.execute(
      handle.db,
    );
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  /** Inserts rows `from`..`to` - 1 and waits until the server's statistics count them. */
  async function insertRows(from: number, to: number): Promise<void> {
    const client = new pg.Client({ connectionString: database.url.replace(/\?.*$/, '') });
    await client.connect();
    try {
      await client.query(`insert into ${schema}.watched select generate_series($1::int, $2::int)`, [
        from,
        to - 1,
      ]);
      await client.query('select pg_stat_force_next_flush()');
    } finally {
      await client.end(); // a backend that ends reports what it counted
    }
    for (let tries = 0; tries < 200; tries++) {
      const { rows } = await sql<{ changed: string }>`
        select n_mod_since_analyze as changed from pg_stat_user_tables
        where schemaname = ${schema} and relname = 'watched'`.execute(handle.db);
      if (Number(rows[0]?.changed) > 0) return;
      await sql`select pg_stat_clear_snapshot()`.execute(handle.db);
    }
    throw new Error('the server never counted the inserted rows');
  }

  const lastAnalyzed = async () =>
    (
      await sql<{ at: Date | null }>`
        select last_analyze as at from pg_stat_user_tables where schemaname = ${schema} and relname = 'watched'`.execute(
        handle.db,
      )
    ).rows[0]?.at ?? null;

  it('analyzes a table autovacuum leaves alone once enough of it changed, then leaves it', async () => {
    await insertRows(0, 40); // 40 rows changed: under the threshold of 50
    expect(await analyzeStaleTables(handle.db)).not.toContain('watched');
    expect(await lastAnalyzed()).toBeNull();

    await insertRows(40, 1000);
    expect(await analyzeStaleTables(handle.db)).toContain('watched');
    expect(await lastAnalyzed()).not.toBeNull();
    // The planner now knows the table's size.
    const { rows } = await sql<{ reltuples: number }>`
      select reltuples from pg_class where oid = ${`${schema}.watched`}::regclass`.execute(handle.db);
    expect(Number(rows[0]?.reltuples)).toBe(1000);

    expect(await analyzeStaleTables(handle.db)).not.toContain('watched');
  });
});
