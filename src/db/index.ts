import { once } from 'node:events';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import { preparedName, registerSqliteConnection } from './compiled.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { bindsLimits, literalLimits } from './sqlite-limits.ts';
import { enableGroupCommit, type GroupCommit } from './write-transaction.ts';

export type Db = Kysely<Database>;
/** What a store function runs its queries on: the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** The PostgreSQL schema chosen by the URL, if any. */
  schema: string | null;
  /** SQLite only: a read-only connection for hot lookups (sees committed data only). */
  reader: SQLite.Database | null;
  /** PostgreSQL only: the connection pool's occupancy now (for /metrics). */
  poolStats(): PoolStats | null;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections the pool may open (`DATABASE_POOL_SIZE`). */
  max: number;
  /** Connections open now, and of those the ones running a query or transaction. */
  size: number;
  inUse: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** PostgreSQL connection settings (`DATABASE_POOL_SIZE`, `DATABASE_CONNECT_TIMEOUT_MS`). */
export interface PoolOptions {
  size: number;
  connectTimeoutMs: number;
}

export const DEFAULT_POOL: PoolOptions = { size: 10, connectTimeoutMs: 5000 };

/**
 * Told of every query's fate on PostgreSQL, and of connections that fail while idle in the pool (a
 * terminated session, a restart): what keeps the process's view of the database current.
 */
export interface DatabaseObserver {
  failed(error: unknown): void;
  succeeded(): void;
}

// int8 (bigint) columns hold millisecond times and counters, all far below 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/**
 * Opens `sqlite:<path>` (WAL, foreign keys on) or `postgres://…`. A `schema` query parameter on a
 * PostgreSQL URL selects a schema, which is how tests keep their runs apart; the migrations create it
 * (`migrateToLatest`). Opening never connects: a process started while its database is unreachable
 * stays up and migrates once it answers, whichever form its URL takes.
 * `groupCommit` (SQLite only, on by default): write transactions that arrive together share one
 * commit (see `GroupCommit` in write-transaction.ts). `restartPages` (SQLite only): see
 * `RESTART_PAGES`. `busyTimeoutMs` (SQLite only, 5 s by default): how long a statement waits for a
 * lock another process holds (a `purser worker`, a CLI command) before it fails with `SQLITE_BUSY`.
 */
export async function openDatabase(
  url: string,
  options: {
    groupCommit?: boolean;
    restartPages?: number;
    busyTimeoutMs?: number;
    pool?: PoolOptions;
    observer?: DatabaseObserver;
  } = {},
): Promise<DatabaseHandle> {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length) || ':memory:';
    if (path !== ':memory:') createPrivately(path);
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Savepoints (a group commit's members) journal the pages they change; in memory, not a file.
    sqlite.pragma('temp_store = MEMORY');
    const busyTimeout = `busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`;
    sqlite.pragma(busyTimeout);
    const connection = withStatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
    const reader = path === ':memory:' ? null : new SQLite(path, { readonly: true });
    reader?.pragma(busyTimeout);
    // Not the cached `connection`: the held path prepares statements of its own (db/compiled.ts).
    registerSqliteConnection(db, sqlite, reader);
    const group = (options.groupCommit ?? true) ? enableGroupCommit(db) : undefined;
    const checkpointer =
      path === ':memory:'
        ? null
        : startCheckpointer(sqlite, path, group, options.restartPages ?? RESTART_PAGES);
    const close = async () => {
      await checkpointer?.stop();
      reader?.close();
      await db.destroy();
    };
    return { db, dialect: 'sqlite', schema: null, reader, poolStats: () => null, close };
  }

  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error('invalid schema name in DATABASE_URL');
  const { size, connectTimeoutMs } = options.pool ?? DEFAULT_POOL;
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: size,
    // An unreachable server fails a request after this, instead of holding it until the client gives up.
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    // Named in pg_stat_activity; an `application_name` in the URL wins.
    application_name: 'purser',
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const observer = options.observer;
  // A connection that dies (pg_terminate_backend, a restart, a cut network) emits `error`, which
  // unheard ends the process: on the pool while the connection is idle there, on the client itself
  // while a query or transaction holds it. Either way the query in flight fails (the request answers
  // 503), the pool drops the connection, and the next query opens a new one.
  const connectionFailed = (error: Error) => observer?.failed(error);
  pool.on('error', connectionFailed);
  pool.on('connect', (client) => client.on('error', connectionFailed));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparingPool(pool) }),
    ...(observer
      ? {
          log: (event: LogEvent) =>
            event.level === 'error' ? observer.failed(event.error) : observer.succeeded(),
        }
      : {}),
  });
  const poolStats = (): PoolStats => ({
    max: size,
    size: pool.totalCount,
    inUse: pool.totalCount - pool.idleCount,
    waiting: pool.waitingCount,
  });
  return { db, dialect: 'postgres', schema, reader: null, poolStats, close: () => db.destroy() };
}

/**
 * The pool as Kysely uses it, its connections running the statements compiled once (`runCompiled`)
 * as named prepared statements (`preparedName`): on the hot paths PostgreSQL's parsing and planning
 * of each statement cost more than running it. A name is per connection, prepared on first use.
 */
function preparingPool(pool: pg.Pool) {
  const naming = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      if (!naming.has(client)) {
        naming.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        client.query = ((text: unknown, values?: unknown) => {
          const name = typeof text === 'string' ? preparedName(text) : undefined;
          return name ? query({ name, text, values }) : query(text, values);
        }) as typeof client.query;
      }
      return client;
    },
    end: () => pool.end(),
  };
}

/**
 * How often the checkpoint thread copies the write-ahead log into the database file. Every process
 * opening the database runs one, and at 50 ms processes sharing a database slowed each other (the
 * crash tests' steps took half as long again): docs/benchmarks.md.
 */
const CHECKPOINT_INTERVAL_MS = 200;
/**
 * The writer's own auto-checkpoint, in pages, kept only as a backstop should the checkpoint thread
 * fall behind (SQLite's default of 1,000 pages would checkpoint inside a request every few hundred
 * commits).
 */
const BACKSTOP_CHECKPOINT_PAGES = 30_000;
/**
 * Past this many pages of log (48 MB) the checkpoint thread asks for a pause in writes (see below),
 * so that the log starts afresh well before the backstop. A pause costs two fsyncs (3–7 ms on the
 * benchmark machine), so it is kept to about one a second at 1,000 authorizations/s.
 */
const RESTART_PAGES = 12_000;

/** How long a SQLite statement waits for another connection's lock, unless the caller says. */
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
/** A pause in writes ends after this long even if the checkpoint thread has not answered. */
const MAX_PAUSE_MS = 50;

/**
 * Moves WAL checkpoints off the request path: the writer stops checkpointing (but for the backstop)
 * and a thread with its own connection runs passive checkpoints. Crash safety is unchanged: a commit
 * is in the log before it returns, and a checkpoint only copies committed pages.
 *
 * Under steady writes a passive checkpoint never copies the whole log (commits land while it runs),
 * and SQLite starts the log afresh only when all of it has been copied; the log would grow to the
 * backstop, whose checkpoint inside a commit stalled every request for 6–19 ms each time. So once
 * the log passes `RESTART_PAGES` the thread copies it once more and asks for a pause: group commit
 * lets the running batch commit and holds the next one back (requests queue; reads go on), the
 * thread copies what is left (a few milliseconds' worth) and syncs, and the next batch starts the
 * log afresh.
 */
function startCheckpointer(
  writer: SQLite.Database,
  path: string,
  writes: GroupCommit | undefined,
  restartPages: number,
) {
  writer.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const thread = new Worker(new URL('./checkpoint-thread.js', import.meta.url), {
    workerData: { path, intervalMs: CHECKPOINT_INTERVAL_MS, restartPages },
  });
  // The thread never keeps a process alive (CLI commands end as soon as their work is done).
  thread.unref();
  let running = true;
  let pauseLimit: NodeJS.Timeout | undefined;
  const resume = () => {
    clearTimeout(pauseLimit);
    writes?.resume();
  };
  thread.on('message', async (message) => {
    if (message === 'resume') return resume();
    if (message !== 'pause') return;
    await writes?.pause();
    pauseLimit = setTimeout(resume, MAX_PAUSE_MS).unref();
    thread.postMessage('paused');
  });
  // Should its connection fail, the writer's backstop keeps the log bounded.
  thread.on('error', () => {});
  thread.on('exit', () => {
    running = false;
    resume();
  });
  return {
    async stop() {
      if (!running) return;
      const exited = once(thread, 'exit');
      // Held while it finishes, or a process with nothing else to do would end mid-close.
      thread.ref();
      thread.postMessage('close');
      await exited;
    },
  };
}

/**
 * The database holds digests, sealed data and personal details: a directory this creates is 0700 and
 * a new database file 0600 (SQLite gives its -wal and -shm files the database file's mode).
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
}

/**
 * Kysely prepares every query anew; SQLite's parse and plan cost more than the query itself on the
 * hot paths (token lookups). Statements are reused by SQL text. Kysely runs one query at a time on
 * its single SQLite connection, so a statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepared = (source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = sqlite.prepare(source);
      if (cache.size >= 500) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  };
  // A statement that binds a LIMIT or an OFFSET runs as the statement with their values written in
  // (db/sqlite-limits.ts); Kysely's driver uses only these three members.
  const prepare = (source: string) => {
    const statement = prepared(source);
    if (!bindsLimits(source)) return statement;
    const run =
      <K extends 'all' | 'run' | 'iterate'>(method: K) =>
      (parameters: unknown[]) => {
        const { sql, parameters: rest } = literalLimits(source, parameters);
        return prepared(sql)[method](rest) as ReturnType<SQLite.Statement[K]>;
      };
    return { reader: statement.reader, all: run('all'), run: run('run'), iterate: run('iterate') };
  };
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      return property === 'prepare' ? prepare : Reflect.get(target, property, receiver);
    },
  });
}

/**
 * A read query built once and run with new parameters on each call, for the hottest paths (the
 * token lookup of every authenticated request). On SQLite it runs synchronously on the read-only
 * connection, skipping Kysely's per-query work; elsewhere it goes through Kysely as usual.
 */
export function preparedLookup<Row>(
  handle: Pick<DatabaseHandle, 'db' | 'reader'>,
  query: { compile(): CompiledQuery<Row> },
): (...parameters: unknown[]) => Promise<Row | undefined> {
  const compiled = query.compile();
  const { reader } = handle;
  if (reader) {
    // Prepared at the first call, not here: a serving process builds its services before it has
    // migrated (it may start before its database), and SQLite refuses to prepare over a missing table.
    let statement: SQLite.Statement<unknown[]> | undefined;
    return async (...parameters) => {
      statement ??= reader.prepare(compiled.sql);
      return statement.get(...parameters) as Row | undefined;
    };
  }
  return async (...parameters) => (await handle.db.executeQuery<Row>({ ...compiled, parameters })).rows[0];
}

export async function migrateToLatest({
  db,
  schema,
}: Pick<DatabaseHandle, 'db' | 'schema'>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Kysely looks its bookkeeping tables up by name; name the schema so another schema's don't count.
    // It also creates the schema when missing, safely when several processes start together.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** A unique-constraint violation on either dialect (for insert races decided by the database). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
