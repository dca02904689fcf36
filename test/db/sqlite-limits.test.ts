import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompiled, withHeldConnection } from '../../src/db/compiled.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/index.ts';
import { literalLimits } from '../../src/db/sqlite-limits.ts';

// SQLite prepares a statement with a bound LIMIT or OFFSET again on every run; these statements get
// the values written into their text instead (src/db/sqlite-limits.ts). SQLite-only by nature.

interface Things {
  things: { id: number; name: string };
}

let handle: DatabaseHandle;
let db: Kysely<Things>;

beforeAll(async () => {
  handle = await openDatabase('sqlite::memory:');
  db = handle.db as unknown as Kysely<Things>;
  await sql`create table things (id integer primary key, name text not null)`.execute(db);
  for (let id = 1; id <= 10; id++)
    await db
      .insertInto('things')
      .values({ id, name: `thing ${id}` })
      .execute();
});
afterAll(() => handle.close());

const ids = (rows: { id: number }[]) => rows.map((row) => row.id);

describe('LIMIT and OFFSET written into a SQLite statement', () => {
  it('writes both into the text and leaves the other parameters in order', () => {
    const page = db
      .selectFrom('things')
      .selectAll()
      .where('id', '>', 2)
      .orderBy('id')
      .limit(3)
      .offset(1)
      .compile();
    expect(literalLimits(page.sql, page.parameters)).toEqual({
      sql: 'select * from "things" where "id" > ? order by "id" limit 3 offset 1',
      parameters: [2],
    });
    // A subquery's limit, as the webhook claim has one, with parameters after it.
    const claim = db
      .updateTable('things')
      .set({ name: 'claimed' })
      .where('id', 'in', (eb) => eb.selectFrom('things').select('id').orderBy('id').limit(16))
      .where('name', '!=', 'x')
      .compile();
    expect(literalLimits(claim.sql, claim.parameters)).toEqual({
      sql: 'update "things" set "name" = ? where "id" in (select "id" from "things" order by "id" limit 16) and "name" != ?',
      parameters: ['claimed', 'x'],
    });
  });

  it('leaves a statement as it is without a bound limit, or when a limit is not an integer', () => {
    const quoted = `select 'limit ?' as a, "offset ?" as b from things where name = ? limit 2`;
    expect(literalLimits(quoted, ['x'])).toEqual({ sql: quoted, parameters: ['x'] });
    const text = 'select * from things limit ?';
    for (const limit of [null, '5', 2.5, Number.MAX_SAFE_INTEGER + 2])
      expect(literalLimits(text, [limit])).toEqual({ sql: text, parameters: [limit] });
    expect(literalLimits(text, [5n])).toEqual({ sql: 'select * from things limit 5', parameters: [] });
    expect(literalLimits(text, [-1])).toEqual({ sql: 'select * from things limit -1', parameters: [] });
  });

  it('runs each limit as its own statement on a held connection: a new limit is never served an old one', async () => {
    const page = (limit: number, offset: number) =>
      withHeldConnection(handle.db, (connection) =>
        runCompiled<{ id: number }>(connection, 'things page', [limit, offset], () =>
          (connection as unknown as Kysely<Things>)
            .selectFrom('things')
            .select('id')
            .orderBy('id')
            .limit(limit)
            .offset(offset),
        ),
      );
    expect(ids(await page(2, 0))).toEqual([1, 2]);
    expect(ids(await page(4, 3))).toEqual([4, 5, 6, 7]);
    expect(ids(await page(2, 0))).toEqual([1, 2]);
    expect(ids(await page(20, 8))).toEqual([9, 10]);
  });

  it('and through Kysely: selects, a limited update and streams', async () => {
    const page = (limit: number, offset: number) =>
      db.selectFrom('things').select('id').orderBy('id').limit(limit).offset(offset).execute();
    expect(ids(await page(3, 0))).toEqual([1, 2, 3]);
    expect(ids(await page(1, 9))).toEqual([10]);
    expect(ids(await page(3, 0))).toEqual([1, 2, 3]);
    const renamed = await db
      .updateTable('things')
      .set({ name: 'first two' })
      .where('id', 'in', (eb) => eb.selectFrom('things').select('id').orderBy('id').limit(2))
      .executeTakeFirst();
    expect(renamed.numUpdatedRows).toBe(2n);
    const streamed: number[] = [];
    for await (const row of db.selectFrom('things').select('id').orderBy('id', 'desc').limit(2).stream())
      streamed.push(row.id);
    expect(streamed).toEqual([10, 9]);
    expect(ids(await db.selectFrom('things').select('id').where('name', '=', 'first two').execute())).toEqual(
      [1, 2],
    );
  });
});
