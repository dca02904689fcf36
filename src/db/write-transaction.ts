import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, sql } from 'kysely';
import { databaseBusy } from '../core/errors.ts';
import { execute, withHeldConnection } from './compiled.ts';
import type { DatabaseHandle, Db, Dialect, Executor } from './index.ts';

/**
 * Runs `work` in a transaction that writes. On SQLite it begins `IMMEDIATE`, taking the write lock
 * before the first read, so that what the transaction reads (a balance) cannot change under it in
 * another process before it writes; a deferred transaction would fail to upgrade instead. On
 * PostgreSQL it is an ordinary transaction: writers lock the rows they read (`FOR UPDATE`).
 *
 * On SQLite with group commit on (the default; `SQLITE_GROUP_COMMIT`), write transactions that
 * arrive while one is running share its commit (see `GroupCommit`). `work` sees the same isolation
 * as alone: it runs by itself on the connection, and its writes roll back alone if it throws. The
 * promise settles once the shared COMMIT is done (or has failed).
 */
export async function writeTransaction<T>(
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
  work: (trx: Executor) => Promise<T>,
): Promise<T> {
  if (handle.dialect === 'postgres') return retryingConflicts(() => handle.db.transaction().execute(work));
  const group = groups.get(handle.db);
  if (group) return group.run(work);
  // Kysely holds SQLite's one connection for the whole callback, so nothing else interleaves.
  return withHeldConnection(handle.db, async (connection) => {
    await execute(connection, BEGIN);
    try {
      const result = await work(connection);
      await execute(connection, COMMIT);
      return result;
    } catch (error) {
      await execute(connection, ROLLBACK);
      throw error;
    }
  });
}

/**
 * A write that needs no transaction of its own (one statement): on SQLite it joins the group commit
 * as a write transaction would (sharing a commit with the writes queued beside it, its statements run
 * on the held connection) instead of queueing for the connection and committing alone; on PostgreSQL
 * it runs on the pool as it is, without the round trips of BEGIN and COMMIT.
 */
export function writeAlone<T>(
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
  work: (exec: Executor) => Promise<T>,
): Promise<T> {
  return handle.dialect === 'postgres' ? work(handle.db) : writeTransaction(handle, work);
}

/**
 * Serializes the write transactions that take one name, until each ends: a check and the insert
 * it allows (one cardholder per email). PostgreSQL: a transaction-scoped advisory lock. SQLite:
 * nothing to take, as a write transaction (above) holds the database's one write lock.
 */
export async function lockName(trx: Executor, dialect: Dialect, name: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}

/** How many times a PostgreSQL transaction runs at most when it keeps meeting a conflict. */
export const CONFLICT_ATTEMPTS = 5;
/** The first retry waits up to this long (random), twice as long after each further conflict. */
const CONFLICT_BACKOFF_MS = 4;

/**
 * Whether PostgreSQL gave up on a transaction for another's sake: a deadlock (40P01) or a
 * serialization failure (40001). Nothing of it was written; run again, it may well pass.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs a whole transaction again when PostgreSQL aborts it as a deadlock victim or a serialization
 * failure, up to `CONFLICT_ATTEMPTS` times with a growing random wait (so that the two sides of a
 * conflict do not meet again in step). `attempt` must begin the transaction itself: each run starts
 * from nothing, with the same ids the caller chose outside it. Money operations take their locks in
 * one order (docs/ledger.md), so a conflict should not happen; this is the net below that rule.
 * Still conflicting after the last attempt: `503 database_busy` with Retry-After, never a 500.
 */
export async function retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (run >= CONFLICT_ATTEMPTS) {
        throw databaseBusy(
          'The database is busy with conflicting changes; nothing was changed. Retry shortly.',
          error,
        );
      }
      await sleep(Math.random() * CONFLICT_BACKOFF_MS * 2 ** (run - 1));
    }
  }
}

/** The group committer of each SQLite database opened with group commit on. */
const groups = new WeakMap<Db, GroupCommit>();

export interface GroupCommitLimits {
  /** At most this many transactions share one commit. */
  maxMembers: number;
  /** No transaction joins a batch that began this many milliseconds ago or more. */
  maxMilliseconds: number;
  /**
   * A batch that begins within this many milliseconds of the last commit is taken as load, and may
   * wait one turn of the event loop for company (see `GroupCommit`).
   */
  busyGapMs: number;
}

export const DEFAULT_GROUP_COMMIT_LIMITS: GroupCommitLimits = {
  maxMembers: 32,
  maxMilliseconds: 5,
  busyGapMs: 1,
};

/** Turns group commit on for SQLite writes on `db` (done by `openDatabase` unless switched off). */
export function enableGroupCommit(
  db: Db,
  limits: GroupCommitLimits = DEFAULT_GROUP_COMMIT_LIMITS,
): GroupCommit {
  const group = new GroupCommit(db, limits);
  groups.set(db, group);
  return group;
}

/** The group committer of `db`, if group commit is on for it. */
export function groupCommitOf(db: Db): GroupCommit | undefined {
  return groups.get(db);
}

interface Member {
  work: (trx: Executor) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** The most batches in a row that skip waiting after waits that found nobody. */
const MAX_BACKOFF_BATCHES = 64;

const BEGIN = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
const SAVEPOINT = CompiledQuery.raw('savepoint group_member');
const RELEASE = CompiledQuery.raw('release group_member');
const ROLLBACK_TO = CompiledQuery.raw('rollback to group_member');

/**
 * Group commit on SQLite's one writer connection. A write transaction that arrives while none runs
 * begins a batch (`BEGIN IMMEDIATE`) and runs at once, as it would alone. Transactions that arrive
 * meanwhile queue; when the running one is done, the queued ones run in the same batch one after
 * another, each in a `SAVEPOINT` of its own (released when it succeeds; rolled back to and released
 * when it throws, so that only its own writes are undone), until none is queued or a limit is
 * reached. Then the batch commits once, and only then does each member's promise resolve; should the
 * COMMIT fail, every member's promise rejects with its error.
 *
 * better-sqlite3 answers at once, so a request handler runs to its end within one turn of the event
 * loop: nobody would queue behind a batch that committed as soon as its first member was done. Under load (the batch began right after the last
 * commit, and recent waits found company) it lets the event loop turn once first, so that requests
 * already read from their sockets reach their transactions; an idle transaction commits at once.
 * What a commit costs (writing the log, its index) is paid once per batch, and pages that several
 * members change (the tables' last pages, shared index pages) are written once.
 *
 * A crash (SIGKILL, power loss) before the COMMIT loses the whole batch, as it loses a lone
 * transaction before its COMMIT: no member has been answered yet, so nobody was told it happened.
 */
export class GroupCommit {
  private readonly queue: Member[] = [];
  private running = false;
  /** While set, no batch begins (`pause`); what arrives queues. */
  private paused = false;
  /** Told when the running batch is done, for a `pause` waiting on it. */
  private whenIdle: (() => void) | null = null;
  /** When the last batch committed (`performance.now()`). */
  private lastCommitted = Number.NEGATIVE_INFINITY;
  /** After waits that found nobody, this many batches commit without waiting (doubling, bounded). */
  private backoff = 0;
  private skip = 0;
  /** Batches committed, and the transactions they held (for tests and benchmarks). */
  readonly stats = { batches: 0, members: 0, largest: 0 };

  constructor(
    private readonly db: Db,
    private readonly limits: GroupCommitLimits,
  ) {}

  run<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running && !this.paused) void this.drain();
    });
  }

  /**
   * Holds new batches back until `resume`, resolving once the running one (if any) has committed:
   * the checkpoint thread's moment with no writer, in which it can copy the whole log and let the
   * next batch start it afresh (see `startCheckpointer` in index.ts). Transactions meanwhile queue.
   */
  pause(): Promise<void> {
    this.paused = true;
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      this.whenIdle = resolve;
    });
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (!this.running && this.queue.length > 0) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0 && !this.paused)
        await withHeldConnection(this.db, (connection) => this.batch(connection));
    } catch (error) {
      // The connection itself failed (closed database): nobody queued can run.
      for (const member of this.queue.splice(0)) member.reject(error);
    } finally {
      this.running = false;
      this.whenIdle?.();
      this.whenIdle = null;
    }
  }

  /** One batch on the connection: BEGIN, its members, COMMIT; every member settled on return. */
  private async batch(connection: Executor): Promise<void> {
    const first = this.queue.shift() as Member;
    try {
      await execute(connection, BEGIN);
    } catch (error) {
      first.reject(error);
      return;
    }
    const started = performance.now();
    const done: Array<{ member: Member; value: unknown }> = [];
    // The first member runs as a lone transaction would: nothing else is in the batch yet, so it
    // needs no savepoint; should it throw, the whole transaction rolls back and the batch ends.
    try {
      done.push({ member: first, value: await first.work(connection) });
    } catch (error) {
      await this.rollback(connection);
      first.reject(error);
      return;
    }
    let waited = false;
    let joined = false;
    while (
      done.length < this.limits.maxMembers &&
      performance.now() - started < this.limits.maxMilliseconds
    ) {
      if (this.queue.length === 0) {
        if (waited && !joined) break;
        if (!waited && !this.worthWaiting(started)) break;
        // Let the requests already read from their sockets reach their transactions, then take them.
        await new Promise((resolve) => setImmediate(resolve));
        waited = true;
        if (this.queue.length === 0) break;
        joined = true;
      }
      const member = this.queue.shift() as Member;
      let value: unknown;
      try {
        await execute(connection, SAVEPOINT);
        value = await member.work(connection);
        await execute(connection, RELEASE);
      } catch (error) {
        if (await this.undoMember(connection)) {
          member.reject(error);
          continue;
        }
        // SQLite ended the whole transaction (some errors do): the batch is lost.
        await this.rollback(connection);
        member.reject(error);
        for (const earlier of done) earlier.member.reject(error);
        return;
      }
      done.push({ member, value });
    }
    try {
      await execute(connection, COMMIT);
    } catch (error) {
      await this.rollback(connection);
      for (const { member } of done) member.reject(error);
      return;
    }
    this.lastCommitted = performance.now();
    if (waited) this.backoff = joined ? 0 : Math.min(this.backoff * 2 || 1, MAX_BACKOFF_BATCHES);
    this.skip = waited && !joined ? this.backoff : this.skip;
    this.stats.batches += 1;
    this.stats.members += done.length;
    this.stats.largest = Math.max(this.stats.largest, done.length);
    for (const { member, value } of done) member.resolve(value);
  }

  /**
   * Whether to let the event loop turn once before committing, so that requests already waiting on
   * their sockets can join. Only under load: when the previous batch committed just before this one
   * began (requests are arriving back to back) and recent waits found company; an idle request
   * commits at once, as it would alone.
   */
  private worthWaiting(started: number): boolean {
    if (started - this.lastCommitted > this.limits.busyGapMs) return false;
    if (this.skip > 0) {
      this.skip -= 1;
      return false;
    }
    return true;
  }

  /** Rolls back to the running member's savepoint and releases it; false if that failed. */
  private async undoMember(connection: Executor): Promise<boolean> {
    try {
      await execute(connection, ROLLBACK_TO);
      await execute(connection, RELEASE);
      return true;
    } catch {
      return false;
    }
  }

  /** Ends the transaction, if SQLite has not already. */
  private async rollback(connection: Executor): Promise<void> {
    try {
      await execute(connection, ROLLBACK);
    } catch {
      // No transaction is open any more: SQLite rolled it back itself.
    }
  }
}
