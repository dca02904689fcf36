import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { consent, expectError, outboxCode, refresh, start, uniqueEmail, verify } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'trace' });
});
afterAll(() => t.close());

describe('the request log', () => {
  it('never holds a client secret, token or code after a full connect flow', async () => {
    const org = await t.createOrg();
    const requestIds: string[] = [];
    const track = <T extends { headers: Record<string, unknown> }>(res: T): T => {
      requestIds.push(String(res.headers['x-request-id']));
      return res;
    };

    const tokenRes = track(
      await t.request({
        method: 'POST',
        url: '/api/v2/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: org.production.client_id,
          client_secret: org.production.client_secret,
        }).toString(),
      }),
    );
    expect(tokenRes.statusCode).toBe(200);
    const platform = tokenRes.json().access_token as string;

    const email = uniqueEmail();
    const started = track(await start(t, platform, { email, external_user_id: 'ext-1' }));
    expect(started.statusCode).toBe(201);
    const connectId = started.json().id as string;
    const code = await outboxCode(t, email);
    const wrongCode = code === '000000' ? '000001' : '000000';

    // A failed verify (the wrong code lands in the request like the right one).
    expectError(
      track(await verify(t, platform, { connect_id: connectId, code: wrongCode })),
      401,
      'invalid_code',
    );
    const verified = track(await verify(t, platform, { connect_id: connectId, code }));
    expect(verified.statusCode).toBe(200);
    const connection = verified.json();

    expect(
      track(await consent(t, platform, { user_id: connection.user.id, terms_version: 'v1' })).statusCode,
    ).toBe(201);
    const refreshed = track(await refresh(t, platform, { refresh_token: connection.refresh_token }));
    expect(refreshed.statusCode).toBe(200);
    // A call authenticated with the connection token (refused), then a replay past the retry grace
    // (rejected).
    t.clock.advance(10_001);
    expectError(
      track(await start(t, connection.access_token, { email })),
      400,
      'client_credentials_required',
    );
    expectError(
      track(await refresh(t, platform, { refresh_token: connection.refresh_token })),
      401,
      'invalid_refresh_token',
    );

    const log = t.logs.text;
    // The log is not empty: every request above is in it, by id.
    for (const id of requestIds) {
      expect(id).toMatch(/\S/);
      expect(log).toContain(id);
    }
    const secrets = {
      client_secret: org.production.client_secret,
      platform_token: platform,
      connection_access_token: connection.access_token,
      connection_refresh_token: connection.refresh_token,
      refreshed_access_token: refreshed.json().access_token,
      refreshed_refresh_token: refreshed.json().refresh_token,
      code,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(log.includes(secret), `${name} is in the log`).toBe(false);
    }
  });
});
