import type { Redis } from 'ioredis';
import type { Clock } from './clock.ts';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window that refused the request ends (for `Retry-After`). */
  retryAfterSeconds: number;
  remaining: number;
}

/** A fixed-window counter: at most `max` hits per key per window. */
export interface RateLimiter {
  hit(key: string): Promise<RateDecision>;
  close(): Promise<void>;
}

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

/** In-process limiter: the default; each process keeps its own budget. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly rule: RateLimitRule,
    private readonly clock: Clock,
  ) {}

  async hit(key: string): Promise<RateDecision> {
    const now = this.clock.now();
    const windowMs = this.rule.windowSeconds * 1000;
    const start = now - (now % windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      if (this.windows.size > 10_000) this.evictBefore(start);
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return decide(window.count, this.rule.max, Math.ceil((start + windowMs - now) / 1000));
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private evictBefore(start: number): void {
    for (const [key, window] of this.windows) if (window.start < start) this.windows.delete(key);
  }
}

/** Redis limiter (`REDIS_URL`): every process shares one budget per key. */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly rule: RateLimitRule,
    private readonly prefix: string,
  ) {}

  async hit(key: string): Promise<RateDecision> {
    const redisKey = `${this.prefix}:${key}`;
    // INCR then set the expiry only on the first hit, atomically, so the window is fixed.
    const [[, count], [, ttl]] = (await this.redis.multi().incr(redisKey).pttl(redisKey).exec()) as [
      [null, number],
      [null, number],
    ];
    let ttlMs = ttl;
    if (ttl < 0) {
      await this.redis.pexpire(redisKey, this.rule.windowSeconds * 1000);
      ttlMs = this.rule.windowSeconds * 1000;
    }
    return decide(count, this.rule.max, Math.max(1, Math.ceil(ttlMs / 1000)));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

function decide(count: number, max: number, retryAfterSeconds: number): RateDecision {
  return { allowed: count <= max, retryAfterSeconds, remaining: Math.max(0, max - count) };
}
