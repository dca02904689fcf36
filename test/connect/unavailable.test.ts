import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/harness.ts';
import { connectUser, expectError, startAttempt, uniqueEmail } from './helpers.ts';

describe('when the database is unavailable', () => {
  it('answers 503 auth_unavailable on every connect endpoint and when a token cannot be checked, never a bare 500', async () => {
    const t = await startTestApp();
    try {
      const org = await t.createOrg();
      const token = await t.platformToken(org.sandbox);
      const user = await connectUser(t, token, { email: uniqueEmail() });
      const connectId = await startAttempt(t, token, { email: uniqueEmail() });
      const calls: [string, unknown][] = [
        ['/api/v2/connect/start', { email: uniqueEmail() }],
        ['/api/v2/connect/verify', { connect_id: connectId, code: '111111' }],
        ['/api/v2/connect/consent', { user_id: user.userId }],
        ['/api/v2/connect/refresh', { refresh_token: user.refreshToken }],
      ];
      // Minted now, checked only once the database is gone.
      const unchecked = await t.platformToken(org.sandbox);
      // The database (both its connections) goes away under the running app.
      await t.ctx.close();
      const introspection = await t.call('GET', '/api/v2', { token: unchecked });
      expectError(introspection, 503, 'auth_unavailable');
      expect(Number(introspection.headers['retry-after'])).toBeGreaterThan(0);
      for (const [url, body] of calls) {
        const res = await t.call('POST', url, { token, body });
        expectError(res, 503, 'auth_unavailable');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      // The cause is logged for operators; the client saw none of it.
      expect(t.logs.text).toMatch(/"level":50/);
    } finally {
      await t.close();
    }
  });
});
