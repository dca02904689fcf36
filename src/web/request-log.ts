import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Insertable, sql } from 'kysely';
import type { Clock } from '../core/clock.ts';
import { redactPath } from '../core/log-redaction.ts';
import { livemodeColumn, type Tenant } from '../core/tenant.ts';
import type { Db, Executor } from '../db/index.ts';
import type { ApiRequestsTable } from '../db/schema.ts';
import type { ApiKeyPrincipal } from '../domains/auth/api-key-guard.ts';

/** How many requests of each organization and mode are kept (the console shows them all). */
export const REQUEST_LOG_SIZE = 1_000;
/** Requests are written together, at most this long after they ended: never on the request's own path. */
const FLUSH_AFTER_MS = 250;
const FLUSH_AT_ROWS = 200;

export type ApiRequestRow = ApiRequestsTable;
export interface RequestLogFilter {
  /** `2xx`, `4xx`, `5xx` or an exact status such as `404`. */
  status?: string;
  /** A path prefix, such as `/api/v2/cards`. */
  path?: string;
}

/**
 * The API request log (docs/console.md "API requests"): each request an organization's credential
 * made (a platform or connection token, or an API key), with its time, credential id, method, path
 * (no query string; long segments, tokens, redacted), status, latency and request id. Bodies,
 * headers and secrets are never kept. Rows are buffered and written in one insert a moment later,
 * then each organization and mode is cut back to its newest 1,000.
 */
export class RequestLog {
  private pending: Insertable<ApiRequestsTable>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  /** Records the request when an organization's credential made it; anything else is not logged. */
  observe(request: FastifyRequest, status: number, latencyMs: number): void {
    const apiKey = (request as { apiKey?: ApiKeyPrincipal | null }).apiKey ?? null;
    const caller = request.principal
      ? { ...request.principal, credential: request.principal.clientId }
      : apiKey
        ? { ...apiKey, credential: apiKey.keyId }
        : null;
    if (!caller) return;
    this.pending.push({
      id: request.id,
      organization_id: caller.organizationId,
      livemode: livemodeColumn(caller.livemode),
      created_at: this.deps.clock.now(),
      credential: caller.credential,
      method: request.method,
      path: redactPath(request.url.split('?', 1)[0] ?? '/').slice(0, 300),
      status,
      latency_ms: Math.round(latencyMs),
      request_id: request.id,
    });
    if (this.pending.length >= FLUSH_AT_ROWS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  /** Writes what is buffered; resolves once it (and any write before it) is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending.splice(0);
    this.writing = this.writing.then(() => (rows.length > 0 ? this.write(rows) : undefined));
    return this.writing;
  }

  /** The newest requests of the organization and mode, newest first, filtered. */
  async recent(owner: Tenant, filter: RequestLogFilter, limit = REQUEST_LOG_SIZE): Promise<ApiRequestRow[]> {
    await this.flush();
    let query = this.deps.db
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

  private async write(rows: Insertable<ApiRequestsTable>[]): Promise<void> {
    try {
      for (let i = 0; i < rows.length; i += 100) {
        await this.deps.db
          .insertInto('api_requests')
          .values(rows.slice(i, i + 100))
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      }
      const owners = new Map(rows.map((r) => [`${r.organization_id}|${r.livemode}`, r]));
      for (const row of owners.values()) await trim(this.deps.db, row.organization_id, row.livemode);
    } catch {
      // The log is for people looking at their traffic: a write that fails loses a few lines, never a request.
    }
  }
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
