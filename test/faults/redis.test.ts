import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { jsonLines, until } from './helpers.ts';

// The machine runs Redis on 127.0.0.1:6379 (CI too); TEST_REDIS_URL points elsewhere.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Issue 25: Redis lost (a restart, a cut network, a partition) never fails a request. Rate limits
 * fall back to each process's own budget (docs/decisions.md), `/readyz` stays ready and reports
 * Redis degraded, the log has one JSON warn line per change and none of ioredis's own noise, and the
 * shared budget is back once Redis is, without a restart.
 */
describe('losing Redis', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: Redis;
  const consoleError = vi.spyOn(console, 'error');

  beforeAll(async () => {
    const target = new URL(REDIS_URL);
    proxy = await TcpProxy.start(Number(target.port || 6379), target.hostname);
    t = await startTestApp({ REDIS_URL: proxy.url(REDIS_URL), TOKEN_RATE_LIMIT: '3' });
    direct = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await t?.close();
    direct?.disconnect();
    await proxy?.close();
    consoleError.mockRestore();
  });

  const readiness = async () => (await t.call('GET', '/readyz')).json();
  /** A token request from `ip` with unknown credentials: 401 while admitted, 429 once limited. */
  const tokenFrom = async (ip: string) =>
    (
      await t.request({
        method: 'POST',
        url: '/api/v2/oauth/token',
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=cli_nobody&client_secret=x',
      })
    ).statusCode;
  /** A fresh address each time: runs and other files never share a budget. */
  const freshIp = () => `198.18.${randomInt(256)}.${randomInt(256)}`;
  /** Hits admitted for `ip` in Redis's own log. */
  const sharedHits = (ip: string) => direct.zcard(`purser:rl:token:${ip}`);
  const redisLines = () => jsonLines(t.logs.text).filter((line) => line.dependency === 'redis');

  it('falls back to per-process limits while Redis is lost, reports it once, and shares the budget again when it is back', async () => {
    await until(async () => (await readiness()).redis === 'ok', 30_000, 'redis ok');
    const before = freshIp();
    for (let i = 0; i < 3; i++) expect(await tokenFrom(before)).toBe(401);
    expect(await tokenFrom(before)).toBe(429);
    expect(await sharedHits(before)).toBe(3);

    for (const [round, mode] of (['reset', 'freeze'] as const).entries()) {
      proxy.cut(mode);
      // No request waits for Redis or fails: the budget holds per process.
      const during = freshIp();
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push(await tokenFrom(during));
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      expect(await sharedHits(during)).toBe(0);
      await until(async () => (await readiness()).redis === 'degraded', 30_000, 'redis degraded');
      const ready = await t.call('GET', '/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'degraded' });
      expect((await t.call('GET', '/metrics')).body).toMatch(/^purser_redis_up 0$/m);

      proxy.restore();
      await until(async () => (await readiness()).redis === 'ok', 30_000, 'redis ok again');
      const after = freshIp();
      for (let i = 0; i < 3; i++) expect(await tokenFrom(after)).toBe(401);
      expect(await tokenFrom(after)).toBe(429);
      expect(await sharedHits(after)).toBe(3);
      expect((await t.call('GET', '/metrics')).body).toMatch(/^purser_redis_up 1$/m);
      // One warn line when it was lost, one info line when it came back: per change, not per request.
      expect(redisLines().map(({ level, state }) => [level, state])).toEqual(
        Array.from({ length: round + 1 }, () => [
          [40, 'degraded'],
          [30, 'ok'],
        ]).flat(),
      );
    }
    expect(consoleError.mock.calls.flat().join(' ')).not.toContain('[ioredis]');
  }, 120_000);
});
