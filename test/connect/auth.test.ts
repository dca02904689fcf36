import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import {
  type Connected,
  connectUser,
  expectError,
  SANDBOX_CODE,
  startAttempt,
  uniqueEmail,
} from './helpers.ts';

let t: TestApp;
let org: CreatedOrganization;
let sandbox: string;
let user: Connected;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
  sandbox = await t.platformToken(org.sandbox);
  user = await connectUser(t, sandbox, { email: uniqueEmail() });
});
afterAll(() => t.close());

/** A well-formed body for each connect endpoint. */
async function validBodies(): Promise<[string, unknown][]> {
  const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
  return [
    ['/api/v2/connect/start', { email: uniqueEmail() }],
    ['/api/v2/connect/verify', { connect_id: connectId, code: SANDBOX_CODE }],
    ['/api/v2/connect/consent', { user_id: user.userId }],
    ['/api/v2/connect/refresh', { refresh_token: user.refreshToken }],
  ];
}

const ENDPOINTS = [
  '/api/v2/connect/start',
  '/api/v2/connect/verify',
  '/api/v2/connect/consent',
  '/api/v2/connect/refresh',
];

function expectUnauthorized(res: Awaited<ReturnType<TestApp['call']>>, url: string): void {
  expect(res.statusCode, `${url}: ${res.body}`).toBe(401);
  expect(res.headers['www-authenticate'], url).toMatch(/^Bearer\b/);
  expect(res.json()).toEqual({
    error: {
      code: 'unauthorized',
      message: expect.any(String),
      docs: expect.any(String),
      field_errors: {},
      warnings: [],
    },
  });
}

describe('platform bearer on the connect endpoints', () => {
  it('answers 401 with a Bearer challenge for a missing, malformed or unknown token', async () => {
    for (const [url, body] of await validBodies()) {
      expectUnauthorized(await t.call('POST', url, { body }), url);
      expectUnauthorized(await t.call('POST', url, { body, token: 'pat_unknown' }), url);
      expectUnauthorized(await t.call('POST', url, { body, headers: { authorization: 'Bearer' } }), url);
      expectUnauthorized(
        await t.call('POST', url, {
          body,
          headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        }),
        url,
      );
    }
    // Nothing was done on the caller's behalf: the attempt, consent and refresh token are untouched.
    expect(await t.ctx.db.selectFrom('consents').selectAll().execute()).toEqual([]);
    expect(await t.ctx.auth.authenticate(user.accessToken)).not.toBeNull();
  });

  it('answers 401 before looking at the body: an unauthenticated bad request learns nothing', async () => {
    for (const url of ENDPOINTS) {
      expectUnauthorized(await t.call('POST', url, { body: {} }), url);
      expectUnauthorized(
        await t.call('POST', url, { body: { email: 'x', code: 'y'.repeat(40) }, token: 'nope' }),
        url,
      );
      expectUnauthorized(await t.call('POST', url), url);
    }
  });

  it('answers 401 for an expired platform token', async () => {
    const expiring = await t.platformToken(org.sandbox);
    const bodies = await validBodies();
    t.clock.advance(3600_000);
    sandbox = await t.platformToken(org.sandbox);
    for (const [url, body] of bodies) {
      expectUnauthorized(await t.call('POST', url, { body, token: expiring }), url);
    }
  });

  it("answers 401 once the client's credentials are revoked", async () => {
    const extra = await t.ctx.orgs.createClient(org.organization_id, {
      mode: 'sandbox',
      type: 'confidential',
    });
    const token = await t.platformToken({
      client_id: extra.client_id,
      client_secret: extra.client_secret!,
      api_key: '',
    });
    expect(
      (await t.call('POST', '/api/v2/connect/start', { token, body: { email: uniqueEmail() } })).statusCode,
    ).toBe(201);
    await t.ctx.orgs.revokeClient(extra.client_id);
    expectUnauthorized(
      await t.call('POST', '/api/v2/connect/start', { token, body: { email: uniqueEmail() } }),
      'start',
    );
  });

  it('answers 403 access_denied while the organization is suspended', async () => {
    const other = await t.createOrg('Suspended Co');
    const token = await t.platformToken(other.sandbox);
    await t.ctx.orgs.updateOrganization(other.organization_id, { status: 'suspended' });
    try {
      for (const url of ENDPOINTS) {
        expectError(await t.call('POST', url, { token, body: {} }), 403, 'access_denied');
      }
    } finally {
      await t.ctx.orgs.updateOrganization(other.organization_id, { status: 'active' });
    }
  });

  it('refuses a connection access token with client_credentials_required, on every connect endpoint and GET /api/v2', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    for (const [url, body] of await validBodies()) {
      expectError(
        await t.call('POST', url, { body, token: c.accessToken }),
        400,
        'client_credentials_required',
      );
    }
    expectError(await t.call('GET', '/api/v2', { token: c.accessToken }), 400, 'client_credentials_required');
    // The refresh token is not a bearer at all.
    expectUnauthorized(await t.call('GET', '/api/v2', { token: c.refreshToken }), '/api/v2');
    // A refreshed connection token is still not a platform token.
    const next = await t.call('POST', '/api/v2/connect/refresh', {
      token: sandbox,
      body: { refresh_token: c.refreshToken },
    });
    expectError(
      await t.call('POST', '/api/v2/connect/start', {
        body: { email: uniqueEmail() },
        token: next.json().access_token,
      }),
      400,
      'client_credentials_required',
    );
    // Nothing was consumed by the refused calls: the original verify's tokens still work.
    expect(await t.ctx.auth.authenticate(next.json().access_token)).not.toBeNull();
  });
});
