import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOne, runCompiled, withHeldConnection } from '../../src/db/compiled.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/index.ts';

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await openDatabase('sqlite::memory:');
});
afterAll(() => handle.close());

const raw = (text: string) => ({ compile: () => CompiledQuery.raw(text, []) });

describe('statements on a held SQLite connection', () => {
  it('read rows as better-sqlite3 would: every column, the last of a repeated name', async () => {
    const read = (key: string, text: string) =>
      withHeldConnection(handle.db, (connection) => runCompiled(connection, key, [], () => raw(text)));
    const [row] = await read('columns', "select 1 as a, 'x' as b, null as c, 2.5 as d, 3 as a");
    expect(row).toEqual({ a: 3, b: 'x', c: null, d: 2.5 });
    // Outside a held connection the same statement goes through Kysely: the same row.
    expect(await runCompiled(handle.db, 'columns', [], () => raw('unused'))).toEqual([row]);
    expect(await read('none', 'select 1 as a where 0')).toEqual([]);
  });

  it('insert rows of different column lists into one table, each with its own statement', async () => {
    await withHeldConnection(handle.db, async (connection) => {
      await runCompiled(connection, 'create', [], () =>
        raw('create table if not exists things (id text primary key, name text, size integer)'),
      );
      await insertOne(connection, 'things' as never, { id: 'a', name: 'one' } as never);
      await insertOne(connection, 'things' as never, { id: 'b', size: 2 } as never);
      await insertOne(connection, 'things' as never, { id: 'c', name: 'three', size: undefined } as never);
      const rows = await runCompiled(connection, 'things', [], () => raw('select * from things order by id'));
      expect(rows).toEqual([
        { id: 'a', name: 'one', size: null },
        { id: 'b', name: null, size: 2 },
        { id: 'c', name: 'three', size: null },
      ]);
    });
  });
});
