import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { endianness, tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, type Executor, openDatabase } from '../../src/db/index.ts';
import { enableGroupCommit, groupCommitOf, writeTransaction } from '../../src/db/write-transaction.ts';
import { LedgerRefusal } from '../../src/domains/ledger/service.ts';
import { onPostgres } from '../helpers/harness.ts';
import { type LedgerFixture, startLedger } from '../ledger/helpers.ts';

/*
 * Group commit is SQLite's (one writer connection). The first block opens SQLite files of its own,
 * so it runs in both suites; the ledger block runs on the suite's database, and on PostgreSQL checks
 * the same outcomes through ordinary transactions (no group committer there).
 */

/**
 * The default limits close a batch 5 ms after it began, which a loaded test machine can exceed
 * within one member; these tests decide membership by arrival alone.
 */
const UNHURRIED = { maxMembers: 32, maxMilliseconds: 60_000, busyGapMs: 1 };

const dirs: string[] = [];
const opened: DatabaseHandle[] = [];

/** A fresh SQLite database with a table `item (id text primary key, value int)`. */
async function freshDatabase(groupCommit?: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'purser-group-commit-'));
  dirs.push(dir);
  const path = join(dir, 'test.db');
  const handle = await openDatabase(`sqlite:${path}`, groupCommit === undefined ? {} : { groupCommit });
  opened.push(handle);
  if (groupCommit !== false) enableGroupCommit(handle.db, UNHURRIED);
  await sql`create table item (id text primary key, value integer not null)`.execute(handle.db);
  // Another connection, as another process would see the file: committed data only.
  const outside = new SQLite(path, { readonly: true });
  const committed = () =>
    (outside.prepare('select id from item order by id').all() as Array<{ id: string }>).map((r) => r.id);
  return { handle, committed, close: () => outside.close() };
}

const insert = (trx: Executor, id: string, value = 1) =>
  sql`insert into item (id, value) values (${id}, ${value})`.execute(trx);
const ids = async (trx: Executor) =>
  (await sql<{ id: string }>`select id from item order by id`.execute(trx)).rows.map((r) => r.id);

afterEach(async () => {
  for (const handle of opened.splice(0)) await handle.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('group commit (SQLite)', () => {
  it('is on by default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'purser-group-commit-'));
    dirs.push(dir);
    const handle = await openDatabase(`sqlite:${join(dir, 'test.db')}`);
    opened.push(handle);
    expect(groupCommitOf(handle.db)).toBeDefined();
  });

  it('closes a batch at its member limit; the rest commit in the next', async () => {
    const { handle, committed, close } = await freshDatabase();
    const stats = enableGroupCommit(handle.db, { ...UNHURRIED, maxMembers: 2 }).stats;
    await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((id) => writeTransaction(handle, (trx) => insert(trx, id))),
    );
    expect(committed()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(stats).toEqual({ batches: 3, members: 5, largest: 2 });
    close();
  });

  it('commits transactions that arrive together once, each seeing its own writes', async () => {
    const { handle, committed, close } = await freshDatabase();
    const stats = groupCommitOf(handle.db)!.stats;
    const before = { ...stats };
    const seen: Record<string, { inside: string[]; outside: string[] }> = {};
    const results = await Promise.all(
      ['a', 'b', 'c'].map((id) =>
        writeTransaction(handle, async (trx) => {
          await insert(trx, id);
          seen[id] = { inside: await ids(trx), outside: committed() };
          return id.toUpperCase();
        }),
      ),
    );
    expect(results).toEqual(['A', 'B', 'C']);
    // One after another in one transaction: each sees its own row and those before it…
    expect(seen.a!.inside).toEqual(['a']);
    expect(seen.b!.inside).toEqual(['a', 'b']);
    expect(seen.c!.inside).toEqual(['a', 'b', 'c']);
    // …and nothing of the batch is committed until all of it is.
    expect(seen.c!.outside).toEqual([]);
    expect(committed()).toEqual(['a', 'b', 'c']);
    expect(stats.batches - before.batches).toBe(1);
    expect(stats.members - before.members).toBe(3);
    close();
  });

  it('rolls back only the writes of a member that throws; the others commit', async () => {
    const { handle, committed, close } = await freshDatabase();
    const stats = groupCommitOf(handle.db)!.stats;
    const outcomes = await Promise.allSettled([
      writeTransaction(handle, (trx) => insert(trx, 'a')),
      writeTransaction(handle, async (trx) => {
        await insert(trx, 'b');
        await insert(trx, 'b2');
        throw new Error('refused');
      }),
      // A statement error (duplicate key) in the middle of a member, the member catching nothing.
      writeTransaction(handle, async (trx) => {
        await insert(trx, 'c');
        await insert(trx, 'a');
      }),
      writeTransaction(handle, async (trx) => {
        await insert(trx, 'd');
        return ids(trx);
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('refused');
    expect((outcomes[2] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    // The last member saw neither the refused member's rows nor the failed one's.
    expect((outcomes[3] as PromiseFulfilledResult<string[]>).value).toEqual(['a', 'd']);
    expect(committed()).toEqual(['a', 'd']);
    expect(stats.largest).toBe(2);
    close();
  });

  it('rolls back the whole transaction when the first member throws, and runs the rest in the next', async () => {
    const { handle, committed, close } = await freshDatabase();
    const outcomes = await Promise.allSettled([
      writeTransaction(handle, async (trx) => {
        await insert(trx, 'a');
        throw new Error('refused');
      }),
      writeTransaction(handle, (trx) => insert(trx, 'b')),
      writeTransaction(handle, (trx) => insert(trx, 'c')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(committed()).toEqual(['b', 'c']);
    close();
  });

  it('rejects every member when the COMMIT fails, and keeps nothing of the batch', async () => {
    const { handle, committed, close } = await freshDatabase();
    // A deferred foreign key is checked at COMMIT: a member leaving it broken fails the commit.
    await sql`create table parent (id text primary key)`.execute(handle.db);
    await sql`create table child (id text primary key, parent_id text not null references parent (id) deferrable initially deferred)`.execute(
      handle.db,
    );
    let answered = 0;
    const outcomes = await Promise.allSettled([
      writeTransaction(handle, (trx) => insert(trx, 'a')).then(() => answered++),
      writeTransaction(handle, async (trx) => {
        await sql`insert into child (id, parent_id) values ('k', 'missing')`.execute(trx);
      }).then(() => answered++),
      writeTransaction(handle, (trx) => insert(trx, 'c')).then(() => answered++),
    ]);
    expect(answered).toBe(0);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    }
    expect(committed()).toEqual([]);
    // The connection is usable again: the next transaction commits alone.
    await writeTransaction(handle, (trx) => insert(trx, 'e'));
    expect(committed()).toEqual(['e']);
    close();
  });

  it('runs a lone transaction at once, committing before the next one begins', async () => {
    const { handle, committed, close } = await freshDatabase();
    const stats = groupCommitOf(handle.db)!.stats;
    const before = stats.batches;
    await writeTransaction(handle, (trx) => insert(trx, 'a'));
    expect(committed()).toEqual(['a']);
    await writeTransaction(handle, (trx) => insert(trx, 'b'));
    expect(committed()).toEqual(['a', 'b']);
    expect(stats.batches - before).toBe(2);
    close();
  });

  it('under load, waits one turn of the event loop for transactions arriving on it', async () => {
    const { handle, committed, close } = await freshDatabase();
    // Every batch counts as under load (it begins within a minute of the last commit).
    const stats = enableGroupCommit(handle.db, { ...UNHURRIED, busyGapMs: 60_000 }).stats;
    await writeTransaction(handle, (trx) => insert(trx, 'a'));
    let later: Promise<unknown> = Promise.resolve();
    await writeTransaction(handle, async (trx) => {
      await insert(trx, 'b');
      // Arrives on the next turn of the event loop, as the next request read from a socket would.
      later = new Promise((resolve) =>
        setImmediate(() => resolve(writeTransaction(handle, (inner) => insert(inner, 'c')))),
      );
    });
    // The batch of b waited for c and committed both.
    expect(committed()).toEqual(['a', 'b', 'c']);
    await later;
    expect(stats).toEqual({ batches: 2, members: 3, largest: 2 });
    close();
  });

  it('when idle, commits at once instead of waiting for a transaction on the next turn', async () => {
    const { handle, committed, close } = await freshDatabase();
    // No batch counts as under load.
    const stats = enableGroupCommit(handle.db, { ...UNHURRIED, busyGapMs: -1 }).stats;
    await writeTransaction(handle, (trx) => insert(trx, 'a'));
    let later: Promise<unknown> = Promise.resolve();
    await writeTransaction(handle, async (trx) => {
      await insert(trx, 'b');
      later = new Promise((resolve) =>
        setImmediate(() => resolve(writeTransaction(handle, (inner) => insert(inner, 'c')))),
      );
    });
    expect(committed()).toEqual(['a', 'b']);
    await later;
    expect(committed()).toEqual(['a', 'b', 'c']);
    expect(stats).toEqual({ batches: 3, members: 3, largest: 1 });
    close();
  });

  it('pause lets the running batch commit, then holds new ones back until resume', async () => {
    const { handle, committed, close } = await freshDatabase();
    const group = groupCommitOf(handle.db)!;
    let paused: Promise<void> = Promise.resolve();
    const first = writeTransaction(handle, async (trx) => {
      await insert(trx, 'a');
      paused = group.pause();
    });
    await paused;
    // The batch that was running when the pause came has committed.
    await first;
    expect(committed()).toEqual(['a']);
    let ran = false;
    const held = writeTransaction(handle, async (trx) => {
      ran = true;
      await insert(trx, 'b');
    });
    // Turns of the event loop pass; the transaction waits in the queue.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(false);
    expect(committed()).toEqual(['a']);
    group.resume();
    await held;
    expect(committed()).toEqual(['a', 'b']);
    close();
  });

  it('pausing with no batch running resolves at once; resume with nothing queued is a no-op', async () => {
    const { handle, committed, close } = await freshDatabase();
    const group = groupCommitOf(handle.db)!;
    await group.pause();
    group.resume();
    group.resume();
    await writeTransaction(handle, (trx) => insert(trx, 'a'));
    expect(committed()).toEqual(['a']);
    close();
  });

  it('under steady writes the log starts afresh long before the backstop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'purser-group-commit-'));
    dirs.push(dir);
    const path = join(dir, 'test.db');
    const handle = await openDatabase(`sqlite:${path}`, { restartPages: 1_000 });
    opened.push(handle);
    await sql`create table filler (id integer primary key, body blob not null)`.execute(handle.db);
    // The log's length in frames, as the writer last published it: the wal-index header's
    // mxFrame, a u32 in the machine's byte order at byte 16 of the -shm file.
    const shm = openSync(`${path}-shm`, 'r');
    const header = Buffer.alloc(4);
    const frames = () => {
      readSync(shm, header, 0, 4, 16);
      return endianness() === 'LE' ? header.readUInt32LE(0) : header.readUInt32BE(0);
    };
    // Small rows, ten transactions at a time as concurrent requests would write them, without a
    // break: a passive checkpoint alone never catches up with them, and without the pause the log
    // would start afresh only at the writer's backstop of 30,000 frames. However slowly the
    // checkpoint thread gets the CPU, it restarts the log well before.
    const body = Buffer.alloc(100, 1);
    let restarts = 0;
    let last = 0;
    while (restarts < 4 && last < 25_000) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          writeTransaction(handle, (trx) => sql`insert into filler (body) values (${body})`.execute(trx)),
        ),
      );
      const now = frames();
      if (now < last) restarts += 1;
      last = now;
    }
    closeSync(shm);
    expect(last).toBeLessThan(25_000);
    expect(restarts).toBe(4);
  });

  it('can be switched off: each transaction commits on its own', async () => {
    const { handle, committed, close } = await freshDatabase(false);
    expect(groupCommitOf(handle.db)).toBeUndefined();
    const outside: string[][] = [];
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((id) =>
        writeTransaction(handle, async (trx) => {
          outside.push(committed());
          await insert(trx, id);
          if (id === 'b') throw new Error('refused');
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // Each saw the ones before it already committed: no transaction was shared.
    expect(outside).toEqual([[], ['a'], ['a']]);
    expect(committed()).toEqual(['a', 'c']);
    close();
  });
});

describe('group commit and the ledger', () => {
  let f: LedgerFixture;
  beforeAll(async () => {
    f = await startLedger();
    if (!onPostgres) enableGroupCommit(f.t.ctx.db, UNHURRIED);
  });
  afterAll(async () => {
    await f.expectSound();
    await f.close();
  });

  it('a refused transfer in a batch undoes only its own moves; the ledger stays sound', async () => {
    const wallet = await f.account('user_wallet', 'usr_group_commit');
    const card = await f.account('card', 'card_group_commit');
    await f.fund(wallet, 1_000);
    const group = groupCommitOf(f.t.ctx.db);
    // PostgreSQL never groups: each write is its own transaction.
    expect(group === undefined).toBe(onPostgres);
    const before = group ? { ...group.stats } : null;
    const move = (id: string, amount: number) =>
      f.ledger.transaction((trx) =>
        f.ledger.execute(trx, [
          { type: 'posted', id, debitAccountId: wallet, creditAccountId: card, amount, code: 'card_funding' },
        ]),
      );
    // The refused member first moves money that would pass, then asks for more than is left.
    const refused = f.ledger.transaction(async (trx) => {
      await f.ledger.execute(trx, [
        {
          type: 'posted',
          id: 'gc_r1',
          debitAccountId: wallet,
          creditAccountId: card,
          amount: 100,
          code: 'card_funding',
        },
      ]);
      return f.ledger.execute(trx, [
        {
          type: 'posted',
          id: 'gc_r2',
          debitAccountId: wallet,
          creditAccountId: card,
          amount: 5_000,
          code: 'card_funding',
        },
      ]);
    });
    const outcomes = await Promise.allSettled([move('gc_a', 300), refused, move('gc_c', 200)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refusal = (outcomes[1] as PromiseRejectedResult).reason;
    expect(refusal).toBeInstanceOf(LedgerRefusal);
    expect(refusal.code).toBe('exceeds_credits');
    if (group && before) {
      expect(group.stats.batches - before.batches).toBe(1);
      expect(group.stats.members - before.members).toBe(2);
    }
    expect(await f.available(wallet)).toBe(500);
    expect(await f.available(card)).toBe(500);
    expect(await f.ledger.transfer(f.t.ctx.db, 'gc_r1')).toBeUndefined();
    expect((await f.ledger.transfer(f.t.ctx.db, 'gc_a'))?.amount).toBe(300);
  });

  it('remembers account ids opened in a batch only for members that committed', async () => {
    const spec = (owner: string) => ({
      organizationId: f.organizationId,
      livemode: false,
      kind: 'card' as const,
      ownerId: owner,
    });
    const kept = f.ledger.transaction((trx) => f.ledger.accountId(trx, spec('card_gc_kept')));
    let forgottenId = '';
    const forgotten = f.ledger.transaction(async (trx) => {
      forgottenId = await f.ledger.accountId(trx, spec('card_gc_forgotten'));
      throw new Error('roll back');
    });
    const [keptId] = await Promise.all([kept, forgotten.catch(() => null)]);
    expect(await f.ledger.accountId(f.t.ctx.db, spec('card_gc_kept'))).toBe(keptId);
    const again = await f.ledger.transaction((trx) => f.ledger.accountId(trx, spec('card_gc_forgotten')));
    expect(again).not.toBe(forgottenId);
    expect((await f.ledger.balance(f.t.ctx.db, again)).available_cents).toBe(0);
  });
});
