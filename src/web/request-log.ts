import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Insertable, sql } from 'kysely';
import type { Clock } from '../core/clock.ts';
import { sequentialIds } from '../core/ids.ts';
import { redactPath } from '../core/log-redaction.ts';
import { livemodeColumn, type Tenant } from '../core/tenant.ts';
import { runCompiled } from '../db/compiled.ts';
import type { DatabaseHandle, Executor } from '../db/index.ts';
import type { ApiRequestsTable } from '../db/schema.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import type { ApiKeyPrincipal } from '../domains/auth/index.ts';

/** How many requests of each organization and mode are kept (the console shows them all). */
export const REQUEST_LOG_SIZE = 1_000;
/** Requests are written together, at most this long after they ended: never on the request's own path. */
const FLUSH_AFTER_MS = 250;
/**
 * Or sooner, once this many wait (a bound on what a busy process holds). Well above
 * `REQUEST_LOG_SIZE`: a batch holding more than that of one owner writes only the newest of them.
 */
const FLUSH_AT_ROWS = 10 * REQUEST_LOG_SIZE;
/**
 * An organization and mode is cut back to its newest `REQUEST_LOG_SIZE` once this process has written
 * this many rows of it since it last did (and on every `flush()` called from outside): the cut reads
 * the owner's whole log, so doing it on each write cost more than the writes. The console reads the
 * newest `REQUEST_LOG_SIZE` whatever lies beyond them.
 */
const TRIM_EVERY_ROWS = 500;
/**
 * Rows go in by multi-row inserts of at most this many, each of a power of two rows (a batch of 75 is
 * 64 + 8 + 2 + 1): a few statements per batch, each shape compiled once. On PostgreSQL each statement
 * is a round trip, which costs the process more than the rows.
 */
const INSERT_CHUNK = 64;

export type ApiRequestRow = ApiRequestsTable;
export interface RequestLogFilter {
  /** `2xx`, `4xx`, `5xx` or an exact status such as `404`. */
  status?: string;
  /** A path prefix, such as `/api/v2/cards`. */
  path?: string;
}

/** An organization and mode with the rows this process wrote of it since its last cut. */
interface UntrimmedOwner {
  organizationId: string;
  livemode: number;
  rows: number;
}

/**
 * The API request log (docs/console.md "API requests"): each request an organization's credential
 * made (a platform or connection token, or an API key), with its time, credential id, method, path
 * (no query string; long segments, tokens, redacted), status, latency and request id. Bodies,
 * headers and secrets are never kept. Rows are buffered and written in one insert a moment later,
 * then each organization and mode is cut back to its newest 1,000.
 */
export class RequestLog {
  /** Rows to write, flat: `WIDTH` values each, in `COLUMNS` order (no object per request). */
  private pending: unknown[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Rows written since each organization and mode was last cut back, by `organization|livemode`. */
  private readonly untrimmed = new Map<string, UntrimmedOwner>();
  /** Each row's own key: a client may send one `X-Request-Id` twice (a retry), each request is a row. */
  private readonly nextId = sequentialIds('log');

  constructor(private readonly deps: { database: Pick<DatabaseHandle, 'db' | 'dialect'>; clock: Clock }) {}

  /** Records the request when an organization's credential made it; anything else is not logged. */
  observe(request: FastifyRequest, status: number, latencyMs: number): void {
    const caller = request.principal ?? request.apiKey ?? null;
    if (!caller) return;
    const url = request.url;
    const query = url.indexOf('?');
    this.pending.push(
      this.nextId(),
      caller.organizationId,
      livemodeColumn(caller.livemode),
      this.deps.clock.now(),
      request.principal ? request.principal.clientId : (caller as ApiKeyPrincipal).keyId,
      request.method,
      redactPath(query < 0 ? url : url.slice(0, query)).slice(0, 300),
      status,
      Math.round(latencyMs),
      request.id,
    );
    if (this.pending.length >= FLUSH_AT_ROWS * WIDTH) void this.write();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.write(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  /**
   * Writes what is buffered and cuts every organization and mode written since back to its newest
   * `REQUEST_LOG_SIZE`; resolves once it (and any write before it) is done.
   */
  flush(): Promise<void> {
    return this.write(0);
  }

  /** Starts writing what is buffered, cutting back the owners `trimAfter` rows or more past their last cut. */
  private write(trimAfter = TRIM_EVERY_ROWS): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const values = this.pending;
    this.pending = [];
    this.writing = this.writing.then(() => this.store(values, trimAfter));
    return this.writing;
  }

  /** The newest requests of the organization and mode, newest first, filtered. */
  async recent(owner: Tenant, filter: RequestLogFilter, limit = REQUEST_LOG_SIZE): Promise<ApiRequestRow[]> {
    await this.flush();
    let query = this.deps.database.db
      .selectFrom('api_requests')
      .selectAll()
      .where('organization_id', '=', owner.organizationId)
      .where('livemode', '=', livemodeColumn(owner.livemode));
    const statusClass = /^([1-5])xx$/.exec(filter.status ?? '');
    if (statusClass) {
      const low = Number(statusClass[1]) * 100;
      query = query.where('status', '>=', low).where('status', '<', low + 100);
    } else if (filter.status && /^[1-5]\d\d$/.test(filter.status)) {
      query = query.where('status', '=', Number(filter.status));
    }
    if (filter.path) {
      const escaped = filter.path.replace(/[!%_]/g, (c) => `!${c}`);
      query = query.where(sql<boolean>`path like ${`${escaped}%`} escape '!'`);
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  private untrimmedOwner(organizationId: string, livemode: number): UntrimmedOwner {
    const key = `${organizationId}|${livemode}`;
    let owner = this.untrimmed.get(key);
    if (!owner) {
      owner = { organizationId, livemode, rows: 0 };
      this.untrimmed.set(key, owner);
    }
    return owner;
  }

  private async store(batch: unknown[], trimAfter: number): Promise<void> {
    try {
      const values = newestOfEachOwner(batch);
      const rows = values.length / WIDTH;
      if (rows > 0) {
        await writeTransaction(this.deps.database, async (trx) => {
          for (let row = 0; row < rows; ) {
            let chunk = INSERT_CHUNK;
            while (chunk > rows - row) chunk /= 2;
            await insertRows(trx, values.slice(row * WIDTH, (row + chunk) * WIDTH));
            row += chunk;
          }
        });
      }
      // Rows of one owner mostly come together: its tally is looked up when the owner changes.
      let owner: UntrimmedOwner | undefined;
      for (let at = 0; at < values.length; at += WIDTH) {
        const organizationId = values[at + ORGANIZATION] as string;
        const livemode = values[at + LIVEMODE] as number;
        if (owner?.organizationId !== organizationId || owner.livemode !== livemode)
          owner = this.untrimmedOwner(organizationId, livemode);
        owner.rows++;
      }
      for (const [key, owner] of this.untrimmed) {
        if (owner.rows < Math.max(trimAfter, 1)) continue;
        this.untrimmed.delete(key);
        await trim(this.deps.database.db, owner.organizationId, owner.livemode);
      }
    } catch {
      // The log is for people looking at their traffic: a write that fails loses a few lines, never a request.
    }
  }
}

/** The columns of a logged request, in the order `observe` pushes them (the inserts' parameters follow it). */
const COLUMNS = [
  'id',
  'organization_id',
  'livemode',
  'created_at',
  'credential',
  'method',
  'path',
  'status',
  'latency_ms',
  'request_id',
] as const satisfies readonly (keyof ApiRequestsTable)[];
const WIDTH = COLUMNS.length;
/** The table's key (migration 0055): its rows are kept in this order. */
const KEY = ['organization_id', 'livemode', 'created_at', 'id'] as const;
const ORGANIZATION = COLUMNS.indexOf('organization_id');
const LIVEMODE = COLUMNS.indexOf('livemode');
const CREATED = COLUMNS.indexOf('created_at');

/**
 * The rows of a batch the cut would keep: of an owner with more than `REQUEST_LOG_SIZE` requests in
 * it, only the newest `REQUEST_LOG_SIZE`, the older ones being none of the newest anywhere (the ones
 * kept are newer). A busy client's rows are written once in several, not written then deleted:
 * at tens of thousands of requests a second, each request cost more in SQLite than the rest of it.
 * Rows come in the order their requests ended, which is their time order unless the clock stepped
 * back: then all are written and the cut decides.
 */
function newestOfEachOwner(values: unknown[]): unknown[] {
  if (values.length <= REQUEST_LOG_SIZE * WIDTH) return values;
  for (let at = WIDTH; at < values.length; at += WIDTH)
    if ((values[at + CREATED] as number) < (values[at - WIDTH + CREATED] as number)) return values;
  const counts = new Map<string, { rows: number }>();
  const kept: boolean[] = [];
  let organizationId: unknown = null;
  let livemode: unknown = null;
  let owner = { rows: 0 };
  for (let at = values.length - WIDTH; at >= 0; at -= WIDTH) {
    // Rows of one owner mostly come together: its count is looked up when the owner changes.
    if (values[at + ORGANIZATION] !== organizationId || values[at + LIVEMODE] !== livemode) {
      organizationId = values[at + ORGANIZATION];
      livemode = values[at + LIVEMODE];
      const key = `${organizationId}|${livemode}`;
      owner = counts.get(key) ?? { rows: 0 };
      counts.set(key, owner);
    }
    kept[at / WIDTH] = owner.rows++ < REQUEST_LOG_SIZE;
  }
  const newest: unknown[] = [];
  for (let row = 0; row < kept.length; row++)
    if (kept[row]) for (let column = 0; column < WIDTH; column++) newest.push(values[row * WIDTH + column]);
  return newest;
}

/** Inserts the rows of `values` with a statement compiled once per row count (a power of two up to `INSERT_CHUNK`). */
async function insertRows(db: Executor, values: unknown[]): Promise<void> {
  const count = values.length / WIDTH;
  // Row objects only for compiling the statement, once: later runs take the values as they are.
  const rows = () =>
    Array.from(
      { length: count },
      (_, row) =>
        Object.fromEntries(
          COLUMNS.map((column, i) => [column, values[row * WIDTH + i]]),
        ) as Insertable<ApiRequestsTable>,
    );
  await runCompiled(db, `insert api_requests ×${count}`, values, () =>
    db
      .insertInto('api_requests')
      .values(rows())
      .onConflict((oc) => oc.columns(KEY).doNothing()),
  );
}

/** Keeps the newest `REQUEST_LOG_SIZE` requests of one organization and mode. */
async function trim(db: Executor, organizationId: string, livemode: number): Promise<void> {
  const oldestKept = await db
    .selectFrom('api_requests')
    .select(['created_at', 'id'])
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(REQUEST_LOG_SIZE - 1)
    .limit(1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await db
    .deleteFrom('api_requests')
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    // A bound on created_at alone: the owner's index stops at the cut instead of walking the newer rows.
    .where('created_at', '<=', oldestKept.created_at)
    .where(
      sql<boolean>`(created_at < ${oldestKept.created_at} or (created_at = ${oldestKept.created_at} and id < ${oldestKept.id}))`,
    )
    .execute();
}

/** Records every request of an organization's credential once its answer is sent. */
export function installRequestLog(app: FastifyInstance, log: RequestLog): void {
  app.addHook('onResponse', (request, reply, done) => {
    log.observe(request, reply.statusCode, reply.elapsedTime);
    done();
  });
}
