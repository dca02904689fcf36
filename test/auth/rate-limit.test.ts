import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { DependencyState } from '../../src/core/dependencies.ts';
import {
  DatabaseRateLimiter,
  MemoryRateLimiter,
  type RateLimiter,
  type RateLimitRule,
  RedisRateLimiter,
} from '../../src/core/rate-limit.ts';
import { RedisLink } from '../../src/core/redis.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../src/db/index.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';

// Every backend runs the same sliding log; each is held to the same properties with a ManualClock.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let database: { url: string; drop(): Promise<void> };
let handle: DatabaseHandle;
let redis: RedisLink;

beforeAll(async () => {
  database = freshDatabaseUrl();
  handle = await openDatabase(database.url);
  await migrateToLatest(handle);
  const quiet = { info: () => {}, warn: () => {} };
  redis = new RedisLink(REDIS_URL, new DependencyState('redis', 'ok', 'ok', quiet));
  // Connected before the first hit: a limiter uses its local fallback until then.
  if (!redis.ready) await once(redis.client, 'ready');
});
afterAll(async () => {
  redis.close();
  await handle.close();
  await database.drop();
});

const backends: Record<string, (rule: RateLimitRule, clock: ManualClock) => RateLimiter> = {
  memory: (rule, clock) => new MemoryRateLimiter(rule, clock),
  database: (rule, clock) =>
    new DatabaseRateLimiter(handle.db, handle.dialect, rule, `t${randomBytes(6).toString('hex')}`, clock),
  redis: (rule, clock) =>
    new RedisRateLimiter(redis, rule, `purser:test:${randomBytes(6).toString('hex')}`, clock),
};

/** Admitted hit times, each span [t, t + window) holding at most `max` of them. */
function busiestSpan(admitted: number[], windowMs: number): number {
  let busiest = 0;
  for (const start of admitted) {
    busiest = Math.max(busiest, admitted.filter((at) => at >= start && at < start + windowMs).length);
  }
  return busiest;
}

describe.each(Object.keys(backends))('sliding-log rate limiter (%s)', (name) => {
  const make = backends[name]!;

  it('the fixed-window burst across a boundary: 30 admitted, then nothing until the oldest hit is 300 s old', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const limiter = make({ max: 30, windowSeconds: 300 }, clock);
    // 29 hits just before what a fixed window would call its boundary, the rest just after.
    clock.set(1_700_000_299_000);
    const decisions = [];
    for (let i = 0; i < 29; i++) decisions.push(await limiter.hit('ip'));
    clock.advance(1_500);
    for (let i = 0; i < 29; i++) decisions.push(await limiter.hit('ip'));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    expect(decisions.slice(0, 30).map((d) => d.remaining)).toEqual(
      Array.from({ length: 30 }, (_, i) => 29 - i),
    );
    const refused = decisions.at(-1)!;
    // The 29 oldest were admitted at 299 s; they free at 599 s, 298.5 s from now.
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 299, remaining: 0 });
    clock.advance(298_499);
    expect((await limiter.hit('ip')).allowed).toBe(false);
    clock.advance(1);
    // Retry-After is exactly when slots free: 29 of them at once.
    for (let i = 0; i < 29; i++) expect((await limiter.hit('ip')).allowed).toBe(true);
    expect((await limiter.hit('ip')).allowed).toBe(false);
    // Another key has its own budget.
    expect((await limiter.hit('other')).allowed).toBe(true);
  });

  it('never admits more than max in any window, and refuses only when max were admitted in it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 12_000 }), fc.integer({ min: 1, max: 4 })), {
          minLength: 1,
          maxLength: 25,
        }),
        async (max, windowSeconds, steps) => {
          const windowMs = windowSeconds * 1000;
          const clock = new ManualClock(1_700_000_000_000);
          const limiter = make({ max, windowSeconds }, clock);
          const admitted: number[] = [];
          for (const [advance, hits] of steps) {
            clock.advance(advance);
            for (let i = 0; i < hits; i++) {
              const now = clock.now();
              const inWindow = admitted.filter((at) => at > now - windowMs).length;
              const decision = await limiter.hit('k');
              // Exact: admitted iff fewer than max admitted in (now - window, now].
              expect(decision.allowed).toBe(inWindow < max);
              if (decision.allowed) {
                admitted.push(now);
                expect(decision.remaining).toBe(max - inWindow - 1);
              } else {
                const oldest = admitted.filter((at) => at > now - windowMs)[0]!;
                expect(decision.retryAfterSeconds).toBe(
                  Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
                );
              }
            }
          }
          expect(busiestSpan(admitted, windowMs)).toBeLessThanOrEqual(max);
          // The Redis limiter's close() would disconnect the client every run shares.
          if (name !== 'redis') await limiter.close();
        },
      ),
      { numRuns: name === 'memory' ? 200 : 25 },
    );
  });
});

describe('sliding-log rate limiter on the database, in parallel', () => {
  it('50 parallel hits on one key admit exactly max', async () => {
    const limiter = backends.database!({ max: 7, windowSeconds: 60 }, new ManualClock());
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('k')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  });

  it('the retention sweep deletes only logs whose newest hit has left the window', async () => {
    const clock = new ManualClock(1_700_000_000_000);
    const limiter = new DatabaseRateLimiter(
      handle.db,
      handle.dialect,
      { max: 2, windowSeconds: 10 },
      'sweep',
      clock,
    );
    await limiter.hit('old');
    clock.advance(5_000);
    await limiter.hit('new');
    clock.advance(5_000);
    expect(await limiter.sweep()).toBeGreaterThanOrEqual(1);
    const keys = (await handle.db.selectFrom('rate_limit_logs').select('key').execute()).map((r) => r.key);
    expect(keys).toContain('sweep:new');
    expect(keys).not.toContain('sweep:old');
  });
});
