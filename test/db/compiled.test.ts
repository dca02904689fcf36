import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, insertOne, runCompiled, withHeldConnection } from '../../src/db/compiled.ts';
import { type DatabaseHandle, type Executor, openDatabase } from '../../src/db/index.ts';

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

describe('a select on a SQLite database in a file, outside any transaction', () => {
  let dir: string;
  let file: DatabaseHandle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'purser-compiled-'));
    file = await openDatabase(`sqlite:${join(dir, 'purser.db')}`);
    await file.db.schema
      .createTable('notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .execute();
    await file.db
      .insertInto('notes' as never)
      .values({ id: 'committed' } as never)
      .execute();
  });
  afterAll(async () => {
    await file.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const notes = (exec: Executor) =>
    runCompiled<{ id: string }>(exec, 'notes', [], () =>
      exec
        .selectFrom('notes' as never)
        .select('id' as never)
        .orderBy('id' as never),
    );

  it('reads what is committed at once, without waiting for the write transaction holding the connection', async () => {
    let readWhileOpen: { id: string }[] | 'waited' = [];
    await withHeldConnection(file.db, async (connection) => {
      await execute(connection, CompiledQuery.raw('begin immediate'));
      await execute(connection, CompiledQuery.raw("insert into notes (id) values ('uncommitted')"));
      // Through Kysely this read would queue behind the held connection until the commit.
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 1000));
      readWhileOpen = await Promise.race([notes(file.db), waited]);
      // The transaction itself reads its own write.
      expect(await notes(connection)).toEqual([{ id: 'committed' }, { id: 'uncommitted' }]);
      await execute(connection, CompiledQuery.raw('commit'));
    });
    expect(readWhileOpen).toEqual([{ id: 'committed' }]);
    expect(await notes(file.db)).toEqual([{ id: 'committed' }, { id: 'uncommitted' }]);
  });

  it('in a transaction of Kysely, reads on that transaction', async () => {
    await file.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('notes' as never)
        .values({ id: 'in-transaction' } as never)
        .execute();
      expect(await notes(trx)).toContainEqual({ id: 'in-transaction' });
    });
  });
});
