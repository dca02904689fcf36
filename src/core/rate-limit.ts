import type { Db, Dialect } from '../db/index.ts';
import type { Clock } from './clock.ts';
import type { RedisLink } from './redis.ts';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the oldest admitted hit leaves the window, i.e. a slot frees (for `Retry-After`). */
  retryAfterSeconds: number;
  remaining: number;
}

/**
 * An exact sliding log: a hit at time `now` is admitted when fewer than `max` hits were admitted in
 * `(now - window, now]`, so no span of `windowSeconds` (any `[t, t + window)`) ever admits more than
 * `max`. Refused hits are not recorded. Every backend runs `slide` on the same log of at most `max`
 * timestamps per key (a fixed window, or a token bucket of capacity `max`, lets up to twice `max`
 * through around a boundary).
 */
export interface RateLimiter {
  hit(key: string): Promise<RateDecision>;
  close(): Promise<void>;
}

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

/**
 * The algorithm, pure: the admitted hits still inside the window ending at `now` (oldest first), plus
 * `now` when it is admitted. A hit at `t` holds its slot until `t + window` exactly.
 */
export function slide(
  hits: readonly number[],
  now: number,
  rule: RateLimitRule,
): { hits: number[]; decision: RateDecision } {
  const windowMs = rule.windowSeconds * 1000;
  const live = hits.filter((at) => at > now - windowMs && at <= now).slice(-rule.max);
  if (live.length >= rule.max) {
    const freesAt = live[0]! + windowMs;
    return {
      hits: live,
      decision: {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)),
        remaining: 0,
      },
    };
  }
  live.push(now);
  return { hits: live, decision: { allowed: true, retryAfterSeconds: 0, remaining: rule.max - live.length } };
}

/** In-process limiter: each process keeps its own budget. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();

  constructor(
    private readonly rule: RateLimitRule,
    private readonly clock: Clock,
  ) {}

  async hit(key: string): Promise<RateDecision> {
    const now = this.clock.now();
    if (this.logs.size > 10_000) this.evictIdle(now);
    const { hits, decision } = slide(this.logs.get(key) ?? [], now, this.rule);
    this.logs.set(key, hits);
    return decision;
  }

  async close(): Promise<void> {
    this.logs.clear();
  }

  /** Keys whose newest hit has left the window hold nothing and can go. */
  private evictIdle(now: number): void {
    const windowMs = this.rule.windowSeconds * 1000;
    for (const [key, hits] of this.logs) if ((hits.at(-1) ?? 0) <= now - windowMs) this.logs.delete(key);
  }
}

/**
 * Database limiter: processes sharing a PostgreSQL database (or a SQLite file) share one budget per
 * key without Redis. The key's row is locked for the read-modify-write (PostgreSQL `FOR UPDATE`;
 * SQLite serializes writers), so parallel hits never both take the last slot.
 */
export class DatabaseRateLimiter implements RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly rule: RateLimitRule,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {}

  async hit(key: string): Promise<RateDecision> {
    const rowKey = `${this.prefix}:${key}`;
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      // Insert first: it creates the row to lock and, on SQLite, makes this a write transaction at once.
      await trx
        .insertInto('rate_limit_logs')
        .values({ key: rowKey, hits: '[]', expires_at: 0 })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      let select = trx.selectFrom('rate_limit_logs').select('hits').where('key', '=', rowKey);
      if (this.dialect === 'postgres') select = select.forUpdate();
      const row = await select.executeTakeFirstOrThrow();
      const { hits, decision } = slide(JSON.parse(row.hits) as number[], now, this.rule);
      if (decision.allowed) {
        await trx
          .updateTable('rate_limit_logs')
          .set({ hits: JSON.stringify(hits), expires_at: now + this.rule.windowSeconds * 1000 })
          .where('key', '=', rowKey)
          .execute();
      }
      return decision;
    });
  }

  /** Rows whose newest hit has left the window; the worker's retention sweep may call it. */
  async sweep(): Promise<number> {
    const result = await this.db
      .deleteFrom('rate_limit_logs')
      .where('expires_at', '<=', this.clock.now())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async close(): Promise<void> {}
}

/**
 * `slide` in Lua over a sorted set (score = hit time): Redis runs a script atomically, so parallel
 * hits from every process see each other. KEYS[1] log; ARGV now, window ms, max, a unique member.
 */
const SLIDE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= max then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now, 0}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0, max - count - 1}
`;

/**
 * Redis limiter (`REDIS_URL`): every process shares one budget per key. While Redis is down or
 * unreachable each process falls back to its own budget (a `MemoryRateLimiter` of the same rule),
 * so a limit keeps holding per process and no request waits for Redis or fails because of it
 * (docs/decisions.md, "Rate limits when Redis is lost").
 */
export class RedisRateLimiter implements RateLimiter {
  private sequence = 0;
  private readonly local: MemoryRateLimiter;

  constructor(
    private readonly redis: RedisLink,
    private readonly rule: RateLimitRule,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {
    this.local = new MemoryRateLimiter(rule, clock);
  }

  async hit(key: string): Promise<RateDecision> {
    if (!this.redis.ready) return this.local.hit(key);
    try {
      return await this.shared(key);
    } catch (error) {
      this.redis.failed(error);
      return this.local.hit(key);
    }
  }

  private async shared(key: string): Promise<RateDecision> {
    const now = this.clock.now();
    this.sequence += 1;
    // Members must be unique even for hits in the same millisecond from several processes.
    const member = `${now}:${process.pid}:${this.sequence}:${Math.random().toString(36).slice(2)}`;
    const [allowed, waitMs, remaining] = (await this.redis.client.eval(
      SLIDE_SCRIPT,
      1,
      `${this.prefix}:${key}`,
      now,
      this.rule.windowSeconds * 1000,
      this.rule.max,
      member,
    )) as [number, number, number];
    return allowed === 1
      ? { allowed: true, retryAfterSeconds: 0, remaining }
      : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), remaining: 0 };
  }

  /** The connection is the process's (closed with it). */
  async close(): Promise<void> {
    await this.local.close();
  }
}
