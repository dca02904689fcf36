import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/index.ts';
import { maintainTables } from '../../src/db/maintenance.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { migratedDatabaseUrl, onPostgres, type TestDatabase } from '../helpers/databases.ts';
import { startTestApp } from '../helpers/harness.ts';

/**
 * What the worker does where autovacuum does not (db/maintenance.ts): a table of the schema that
 * autovacuum leaves alone is analyzed once more than 50 + 10 % of its rows changed, vacuumed once
 * more than 50 + 20 % of them are dead (or by its own `autovacuum_vacuum_scale_factor`), and left
 * alone otherwise. PostgreSQL only: SQLite keeps neither dead rows nor planner statistics (the
 * worker's chore, last, is checked on both).
 */
describe.skipIf(!onPostgres)('table maintenance on PostgreSQL', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let schema: string;

  beforeAll(async () => {
    database = await migratedDatabaseUrl();
    handle = await openDatabase(database.url);
    schema = (await sql<{ s: string }>`select current_schema() as s`.execute(handle.db)).rows[0]?.s as string;
    for (const table of ['watched', 'queue'])
      await sql`create table ${sql.table(table)} (id integer primary key, n integer not null default 0)
        with (autovacuum_enabled = false)`.execute(handle.db);
    await sql`alter table queue set (autovacuum_vacuum_scale_factor = 0.01)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  /** Runs `statement` on a connection of its own and waits until the server's statistics count it. */
  async function change(table: string, statement: string): Promise<void> {
    const before = await counted(table);
    const client = new pg.Client({ connectionString: database.url.replace(/\?.*$/, '') });
    await client.connect();
    try {
      await client.query(`set search_path = ${schema}`);
      await client.query(statement);
    } finally {
      await client.end(); // a backend that ends reports what it counted
    }
    for (let tries = 0; tries < 500; tries++) {
      await sql`select pg_stat_clear_snapshot()`.execute(handle.db);
      if ((await counted(table)) !== before) return;
    }
    throw new Error(`the server never counted: ${statement}`);
  }

  async function counted(table: string) {
    const { rows } = await sql<{ changes: string }>`
      select n_tup_ins + n_tup_upd + n_tup_del as changes from pg_stat_user_tables
      where schemaname = ${schema} and relname = ${table}`.execute(handle.db);
    return Number(rows[0]?.changes);
  }

  const lastDone = async (table: string) =>
    (
      await sql<{ vacuum: Date | null; analyze: Date | null }>`
        select last_vacuum as vacuum, last_analyze as analyze from pg_stat_user_tables
        where schemaname = ${schema} and relname = ${table}`.execute(handle.db)
    ).rows[0];

  it('analyzes a table autovacuum leaves alone once enough of it changed, and vacuums it once enough is dead', async () => {
    await change('watched', 'insert into watched (id) select generate_series(0, 39)');
    // 40 rows changed: under the threshold of 50.
    expect(await maintainTables(handle.db)).toEqual({ vacuumed: [], analyzed: [] });
    expect(await lastDone('watched')).toEqual({ vacuum: null, analyze: null });

    await change('watched', 'insert into watched (id) select generate_series(40, 999)');
    expect(await maintainTables(handle.db)).toEqual({ vacuumed: [], analyzed: ['watched'] });
    const { rows } = await sql<{ reltuples: number }>`
      select reltuples from pg_class where oid = ${`${schema}.watched`}::regclass`.execute(handle.db);
    expect(Number(rows[0]?.reltuples)).toBe(1000); // the planner knows its size
    expect(await maintainTables(handle.db)).toEqual({ vacuumed: [], analyzed: [] });

    // 200 dead of 1,000: under 50 + 20 %; 300 of them: over (and over the analyze rule too).
    await change('watched', 'delete from watched where id < 200');
    expect((await maintainTables(handle.db)).vacuumed).toEqual([]);
    await change('watched', 'delete from watched where id < 300');
    expect(await maintainTables(handle.db)).toEqual({ vacuumed: ['watched'], analyzed: ['watched'] });
    expect((await lastDone('watched'))?.vacuum).not.toBeNull();
  });

  it('vacuums by the table’s own scale factor where it has one', async () => {
    await change('queue', 'insert into queue (id) select generate_series(0, 999)');
    await maintainTables(handle.db);
    // 100 dead of 1,000: over 50 + 1 % (its own setting), under 50 + 20 % (the default).
    await change('queue', 'update queue set n = 1 where id < 100');
    expect((await maintainTables(handle.db)).vacuumed).toEqual(['queue']);
    expect((await lastDone('queue'))?.vacuum).not.toBeNull();
  });
});

/**
 * The worker's `table_maintenance` chore: on PostgreSQL it does the above for the service's own
 * schema in a pass of `runOnce` (and says so in a warning); SQLite has nothing to keep, and the
 * worker has no such chore there.
 */
describe(`the worker's table maintenance on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
  it(onPostgres ? 'analyzes a changed table autovacuum leaves alone' : 'is no chore on SQLite', async () => {
    const t = await startTestApp();
    try {
      const warnings: { fields: object; message: string }[] = [];
      const infos: string[] = [];
      const log = {
        info: (_fields: object, message: string) => void infos.push(message),
        error: () => {},
        warn: (fields: object, message: string) => void warnings.push({ fields, message }),
      };
      const worker = new Worker(t.ctx, log);
      const chores = worker.choreLag().map((lag) => lag.chore);
      expect(chores).toContain('retention');
      expect(chores.includes('table_maintenance')).toBe(onPostgres);
      if (!onPostgres) return;

      await sql`create table by_worker (id integer primary key) with (autovacuum_enabled = false)`.execute(
        t.ctx.db,
      );
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(t.ctx.db)).rows[0]?.s;
      // Rows inserted from a backend of their own, which reports what it counted when it ends.
      const insertRows = async (from: number) => {
        const client = new pg.Client({ connectionString: t.ctx.config.databaseUrl.replace(/\?.*$/, '') });
        await client.connect();
        await client.query(`insert into ${schema}.by_worker select generate_series(${from}, ${from + 999})`);
        await client.end();
      };
      const analyzedAt = async () =>
        (
          await sql<{ changed: string; at: Date | null }>`
            select n_mod_since_analyze as changed, last_analyze as at from pg_stat_user_tables
            where schemaname = ${schema} and relname = 'by_worker'`.execute(t.ctx.db)
        ).rows[0];
      const counted = async () => {
        for (let tries = 0; Number((await analyzedAt())?.changed) === 0; tries++) {
          if (tries > 500) throw new Error('the server never counted the inserted rows');
          await sql`select pg_stat_clear_snapshot()`.execute(t.ctx.db);
        }
      };
      await insertRows(1);
      await counted();

      await worker.runOnce();
      const first = (await analyzedAt())?.at;
      expect(first).not.toBeNull();
      expect(warnings).toContainEqual({
        fields: expect.objectContaining({ analyzed: expect.arrayContaining(['by_worker']) }),
        message: expect.stringContaining('autovacuum is off'),
      });

      // It warns once a process: the next pass that acts says so at info.
      await insertRows(1001);
      await counted();
      t.clock.advance(60_000);
      await worker.runOnce();
      expect((await analyzedAt())?.at).not.toEqual(first);
      expect(warnings).toHaveLength(1);
      expect(infos).toContainEqual(expect.stringContaining('autovacuum is off'));
    } finally {
      await t.close();
    }
  });
});
