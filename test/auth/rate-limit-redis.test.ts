import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

// The machine runs Redis on 127.0.0.1:6379 (CI too); TEST_REDIS_URL points elsewhere.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  // Two app instances stand for two processes; they share only the database and Redis.
  first = await startTestApp({ REDIS_URL, TOKEN_RATE_LIMIT: '' });
  second = await startTestApp({ REDIS_URL, TOKEN_RATE_LIMIT: '' });
});
afterAll(async () => {
  await first.close();
  await second.close();
});

describe('token endpoint rate limit with REDIS_URL', () => {
  it('shares one budget of 30 per window across processes', async () => {
    // A fresh address per run, so parallel runs and earlier windows do not interfere.
    const ip = `198.18.${randomInt(256)}.${randomInt(256)}`;
    const post = (t: TestApp) =>
      t.request({
        method: 'POST',
        url: '/api/v2/oauth/token',
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=cli_nobody&client_secret=x',
      });
    for (let i = 0; i < 15; i++) {
      expect((await post(first)).statusCode).toBe(401);
      expect((await post(second)).statusCode).toBe(401);
    }
    const refused = await post(first);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(second)).statusCode).toBe(429);
  });
});
