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
 * The most requests held meanwhile. At that many, each organization and mode keeps only its newest
 * `REQUEST_LOG_SIZE` (`newestOfEachOwner`), or, when that leaves less than half the room, the batch
 * is written at once.
 */
const HELD_ROWS_MAX = 2 * REQUEST_LOG_SIZE;
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
  /**
   * Requests to write, flat, `BUFFERED` values each: the first `held` of room for `HELD_ROWS_MAX`,
   * made once (no object per request, and no array growing under a busy process).
   */
  private readonly pending: unknown[] = new Array(HELD_ROWS_MAX * WIDTH).fill(null);
  private held = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Rows written since each organization and mode was last cut back, by `organization|livemode`. */
  private readonly untrimmed = new Map<string, UntrimmedOwner>();
  /**
   * Each row's own key, given as it is written: a client may send one `X-Request-Id` twice (a
   * retry), each request is a row. Rows are written in the order their requests ended.
   */
  private readonly nextId = sequentialIds('log');

  constructor(private readonly deps: { database: Pick<DatabaseHandle, 'db' | 'dialect'>; clock: Clock }) {}

  /** Records the request when an organization's credential made it; anything else is not logged. */
  observe(request: FastifyRequest, status: number, latencyMs: number): void {
    const caller = request.principal ?? request.apiKey ?? null;
    if (!caller) return;
    const url = request.url;
    const query = url.indexOf('?');
    const pending = this.pending;
    let at = this.held * WIDTH;
    pending[at++] = caller;
    pending[at++] = this.deps.clock.now();
    pending[at++] = request.principal ? request.principal.clientId : (caller as ApiKeyPrincipal).keyId;
    pending[at++] = request.method;
    pending[at++] = redactPath(query < 0 ? url : url.slice(0, query)).slice(0, 300);
    pending[at++] = status;
    pending[at++] = Math.round(latencyMs);
    pending[at] = request.id;
    if (++this.held === HELD_ROWS_MAX) this.makeRoom();
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

  /**
   * The buffer is full: the requests no cut would keep are dropped before they are written (a busy
   * client's, whose rows were otherwise written, then deleted unseen), or the batch goes now.
   */
  private makeRoom(): void {
    const held = keepNewestOfEachOwner(this.pending, this.held);
    // What was dropped is let go at once, not kept alive (and aged) by the buffer.
    this.pending.fill(null, held * WIDTH, this.held * WIDTH);
    this.held = held;
    if (held > HELD_ROWS_MAX / 2) void this.write();
  }

  /** Starts writing what is buffered, cutting back the owners `trimAfter` rows or more past their last cut. */
  private write(trimAfter = TRIM_EVERY_ROWS): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.slice(0, this.held * WIDTH);
    this.pending.fill(null, 0, this.held * WIDTH);
    this.held = 0;
    this.writing = this.writing.then(() => this.store(batch, trimAfter));
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

  /** The rows of the first `count` buffered requests, in `COLUMNS` order, each with its own id. */
  private rowsOf(requests: unknown[], count: number): unknown[] {
    const rows: unknown[] = [];
    for (let at = 0; at < count * WIDTH; at += WIDTH) {
      const caller = requests[at + CALLER] as Caller;
      rows.push(this.nextId(), caller.organizationId, livemodeColumn(caller.livemode));
      // The rest of a row is what was buffered after the caller, in the same order.
      for (let field = CALLER + 1; field < WIDTH; field++) rows.push(requests[at + field]);
    }
    return rows;
  }

  private async store(batch: unknown[], trimAfter: number): Promise<void> {
    try {
      const kept = keepNewestOfEachOwner(batch, batch.length / WIDTH);
      const values = this.rowsOf(batch, kept);
      const rows = values.length / COLUMNS.length;
      if (rows > 0) {
        await writeTransaction(this.deps.database, async (trx) => {
          for (let row = 0; row < rows; ) {
            let chunk = INSERT_CHUNK;
            while (chunk > rows - row) chunk /= 2;
            await insertRows(trx, values.slice(row * COLUMNS.length, (row + chunk) * COLUMNS.length));
            row += chunk;
          }
        });
      }
      // Requests of one caller mostly come together: its owner's tally is looked up when it changes.
      let caller: Caller | undefined;
      let owner: UntrimmedOwner | undefined;
      for (let at = 0; at < kept * WIDTH; at += WIDTH) {
        if (batch[at + CALLER] !== caller) {
          caller = batch[at + CALLER] as Caller;
          owner = this.untrimmedOwner(caller.organizationId, livemodeColumn(caller.livemode));
        }
        (owner as UntrimmedOwner).rows++;
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

/** The columns of a request's row known when it ends, from its time on. */
const OBSERVED = [
  'created_at',
  'credential',
  'method',
  'path',
  'status',
  'latency_ms',
  'request_id',
] as const satisfies readonly (keyof ApiRequestsTable)[];
/**
 * What `observe` buffers of a request, in this order: its caller (whose organization and mode own
 * the row), then its `OBSERVED` columns.
 */
const BUFFERED = ['caller', ...OBSERVED] as const;
const WIDTH = BUFFERED.length;
const CALLER = BUFFERED.indexOf('caller');
const CREATED = BUFFERED.indexOf('created_at');
/** Who made a logged request: a platform or connection token's principal, or an API key. */
type Caller = Tenant;

/** The columns of a logged request, in the order `rowsOf` puts them (the inserts' parameters follow it). */
const COLUMNS = ['id', 'organization_id', 'livemode', ...OBSERVED] as const;
/** The table's key (migration 0055): its rows are kept in this order. */
const KEY = ['organization_id', 'livemode', 'created_at', 'id'] as const;

/**
 * Keeps, at the start of `requests` (`count` of them), those the cut would keep: of an owner with
 * more than `REQUEST_LOG_SIZE` of them, only the newest `REQUEST_LOG_SIZE`, the older ones being
 * none of the newest anywhere (the ones kept are newer); returns how many are kept. A busy client's
 * requests are written once in several, not written then deleted unseen: at tens of thousands of
 * requests a second, each cost more in SQLite than the rest of it. They come in the order they
 * ended, which is their time order unless the clock stepped back: then all are kept and the cut
 * decides.
 */
function keepNewestOfEachOwner(requests: unknown[], count: number): number {
  if (count <= REQUEST_LOG_SIZE) return count;
  for (let at = WIDTH; at < count * WIDTH; at += WIDTH)
    if ((requests[at + CREATED] as number) < (requests[at - WIDTH + CREATED] as number)) return count;
  const owners = new Map<string, { requests: number; passed: number }>();
  // Requests of one caller mostly come together: its owner is looked up when the caller changes.
  let caller: Caller | undefined;
  let owner = { requests: 0, passed: 0 };
  const ownerAt = (at: number) => {
    if (requests[at + CALLER] !== caller) {
      caller = requests[at + CALLER] as Caller;
      const key = `${caller.organizationId}|${caller.livemode}`;
      owner = owners.get(key) ?? { requests: 0, passed: 0 };
      owners.set(key, owner);
    }
    return owner;
  };
  for (let at = 0; at < count * WIDTH; at += WIDTH) ownerAt(at).requests++;
  let kept = 0;
  for (let at = 0; at < count * WIDTH; at += WIDTH) {
    const of = ownerAt(at);
    if (of.requests - of.passed++ > REQUEST_LOG_SIZE) continue;
    if (kept * WIDTH !== at)
      for (let field = 0; field < WIDTH; field++) requests[kept * WIDTH + field] = requests[at + field];
    kept++;
  }
  return kept;
}

/** Inserts the rows of `values` with a statement compiled once per row count (a power of two up to `INSERT_CHUNK`). */
async function insertRows(db: Executor, values: unknown[]): Promise<void> {
  const width = COLUMNS.length;
  const count = values.length / width;
  // Row objects only for compiling the statement, once: later runs take the values as they are.
  const rows = () =>
    Array.from(
      { length: count },
      (_, row) =>
        Object.fromEntries(
          COLUMNS.map((column, i) => [column, values[row * width + i]]),
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
