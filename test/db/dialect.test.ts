import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf, lockedOnPostgres } from '../../src/db/dialect.ts';
import { type DatabaseHandle, type Executor, openDatabase } from '../../src/db/index.ts';
import { writeTransaction } from '../../src/db/write-transaction.ts';
import { migratedDatabaseUrl, onPostgres, type TestDatabase } from '../helpers/databases.ts';

/** A row of this table is what the lock tests take. */
const createProbes = sql`create table lock_probes (id text primary key, n integer not null)`;
const probe = (exec: Executor) => exec.selectFrom('lock_probes' as never).select(sql<string>`id`.as('id'));

describe('the dialect of an executor', () => {
  let sqlite: DatabaseHandle;
  // Opening a PostgreSQL database never connects: this one only compiles queries, on either run.
  let postgres: DatabaseHandle;

  beforeAll(async () => {
    sqlite = await openDatabase('sqlite::memory:');
    postgres = await openDatabase('postgres://purser@localhost:5432/never_connected');
  });
  afterAll(async () => {
    await sqlite.close();
    await postgres.close();
  });

  it('is told by the database the executor belongs to', () => {
    expect(dialectOf(sqlite.db)).toBe('sqlite');
    expect(dialectOf(postgres.db)).toBe('postgres');
  });

  it('locks a read FOR UPDATE on PostgreSQL only', () => {
    expect(lockedOnPostgres(postgres.db, probe(postgres.db)).compile().sql).toBe(
      'select id as "id" from "lock_probes" for update',
    );
    expect(lockedOnPostgres(sqlite.db, probe(sqlite.db)).compile().sql).toBe(
      'select id as "id" from "lock_probes"',
    );
  });

  it("is SQLite's in a transaction and on a held connection", async () => {
    await sqlite.db.transaction().execute(async (trx) => {
      expect(dialectOf(trx)).toBe('sqlite');
    });
    await sqlite.db.connection().execute(async (connection) => {
      expect(dialectOf(connection)).toBe('sqlite');
    });
    // Group commit's members run on the connection it holds.
    await writeTransaction(sqlite, async (trx) => {
      expect(dialectOf(trx)).toBe('sqlite');
    });
  });
});

describe.runIf(onPostgres)('the dialect of an executor on a PostgreSQL server', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await migratedDatabaseUrl();
    handle = await openDatabase(database.url);
    await createProbes.execute(handle.db);
    await sql`insert into lock_probes (id, n) values ('a', 0)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it("is PostgreSQL's in a transaction", async () => {
    await writeTransaction(handle, async (trx) => {
      expect(dialectOf(trx)).toBe('postgres');
    });
  });

  it('holds the row until the locking transaction ends', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = handle.db.transaction().execute(async (trx) => {
      await lockedOnPostgres(trx, probe(trx).where(sql`id`, '=', 'a')).execute();
      locked();
      await released;
    });
    await holding;
    // Another transaction's lock of the row waits; told not to wait long, it gives up (lock_not_available).
    const waiter = handle.db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '100ms'`.execute(trx);
      await lockedOnPostgres(trx, probe(trx).where(sql`id`, '=', 'a')).execute();
    });
    await expect(waiter).rejects.toMatchObject({ code: '55P03' });
    release();
    await holder;
    // Once the holder ended, the row is free again.
    await handle.db.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '100ms'`.execute(trx);
      expect(await lockedOnPostgres(trx, probe(trx).where(sql`id`, '=', 'a')).execute()).toEqual([
        { id: 'a' },
      ]);
    });
  });
});
