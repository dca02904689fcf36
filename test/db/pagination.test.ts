import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/index.ts';
import { olderThan } from '../../src/db/pagination.ts';
import { migratedDatabaseUrl, onPostgres, type TestDatabase } from '../helpers/databases.ts';

/**
 * Keyset pagination (db/pagination.ts `olderThan`): paging one row at a time from the newest visits
 * every row once, in (created_at, id) descending order, ties on created_at included, on the database
 * of this run.
 */
describe(`keyset pagination on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  let database: TestDatabase | undefined;
  let handle: DatabaseHandle;
  // Three rows share a time, two another, and ids are not in time order.
  const rows = [
    { id: 'b', created_at: 10 },
    { id: 'a', created_at: 20 },
    { id: 'c', created_at: 20 },
    { id: 'e', created_at: 20 },
    { id: 'd', created_at: 30 },
    { id: 'f', created_at: 30 },
    { id: 'g', created_at: 5 },
  ];

  beforeAll(async () => {
    database = onPostgres ? await migratedDatabaseUrl() : undefined;
    handle = await openDatabase(database?.url ?? 'sqlite::memory:');
    await sql`create table paged (id text primary key, created_at bigint not null)`.execute(handle.db);
    for (const row of rows)
      await sql`insert into paged (id, created_at) values (${row.id}, ${row.created_at})`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    await database?.drop();
  });

  const page = (after?: { created_at: number; id: string }) => {
    let query = handle.db
      .selectFrom('paged' as never)
      .select([sql<string>`id`.as('id'), sql<number>`created_at`.as('created_at')]);
    if (after) query = query.where(olderThan(after));
    return query.orderBy(sql`created_at`, 'desc').orderBy(sql`id`, 'desc').limit(1).execute();
  };

  it('visits every row once, newest first, ties broken by id', async () => {
    const seen: string[] = [];
    let after: { created_at: number; id: string } | undefined;
    // One page more than there are rows: a cursor that repeats a row shows as a longer list, not a hang.
    for (let pages = 0; pages <= rows.length; pages++) {
      const [row] = await page(after);
      if (!row) break;
      seen.push(row.id);
      after = { created_at: Number(row.created_at), id: row.id };
    }
    expect(seen).toEqual(['f', 'd', 'e', 'c', 'a', 'b', 'g']);
  });
});
