import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/harness.ts';

// The token endpoint's sliding window through HTTP, on the per-process store and on the database
// store (the PostgreSQL default), which every process on the database shares.
describe.each(['memory', 'database'])('token endpoint rate limit (RATE_LIMIT_STORE=%s)', (store) => {
  it('admits no more than 30 in any 300 s, across what a fixed window would call a boundary', async () => {
    const t = await startTestApp({ TOKEN_RATE_LIMIT: '', RATE_LIMIT_STORE: store });
    try {
      const post = (ip = '203.0.113.9') =>
        t.request({
          method: 'POST',
          url: '/api/v2/oauth/token',
          remoteAddress: ip,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'grant_type=client_credentials&client_id=cli_nobody&client_secret=x',
        });
      t.clock.set(Math.ceil(t.clock.now() / 300_000) * 300_000 + 294_500);
      const statuses: number[] = [];
      for (let i = 0; i < 29; i++) statuses.push((await post()).statusCode);
      t.clock.advance(5_500);
      for (let i = 0; i < 29; i++) statuses.push((await post()).statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(30);
      expect(statuses.filter((s) => s === 429)).toHaveLength(28);

      const refused = await post();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'rate_limited', error_description: expect.any(String) });
      // The first 29 free 300 s after they were admitted: 294.5 s from now.
      expect(refused.headers['retry-after']).toBe('295');
      t.clock.advance(294_499);
      expect((await post()).statusCode).toBe(429);
      t.clock.advance(1);
      for (let i = 0; i < 29; i++) expect((await post()).statusCode).toBe(401);
      expect((await post()).statusCode).toBe(429);
      expect((await post('203.0.113.10')).statusCode).toBe(401);

      const warnings = t.logs.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'rate limited: token endpoint');
      expect(warnings.length).toBeGreaterThanOrEqual(30);
      expect(warnings[0]).toMatchObject({ level: 40, rate_limit: 'token', ip: '203.0.113.9' });
      expect(t.logs.text).not.toContain('client_secret=x');
    } finally {
      await t.close();
    }
  });

  it("keeps the user-facing authorization server's budget apart from the platform token endpoint's", async () => {
    const t = await startTestApp({ TOKEN_RATE_LIMIT: '', OAUTH_RATE_LIMIT: '3', RATE_LIMIT_STORE: store });
    try {
      const post = (url: string) =>
        t.request({
          method: 'POST',
          url,
          remoteAddress: '203.0.113.9',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'grant_type=client_credentials&client_id=cli_nobody&client_secret=x',
        });
      for (let i = 0; i < 3; i++) expect((await post('/token')).statusCode).not.toBe(429);
      const refused = await post('/token');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'rate_limited', error_description: expect.any(String) });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await post('/revoke')).statusCode).toBe(429);
      // The platform token endpoint still has all of its 30.
      for (let i = 0; i < 30; i++) expect((await post('/api/v2/oauth/token')).statusCode).toBe(401);
      expect((await post('/api/v2/oauth/token')).statusCode).toBe(429);
      expect(t.logs.text).toContain('rate limited: user-facing authorization server');
    } finally {
      await t.close();
    }
  });
});
