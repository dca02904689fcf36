import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { connectUser, consent, expectError, refresh, uniqueEmail } from './helpers.ts';

const DAY = 24 * 3600_000;

let t: TestApp;
let org: CreatedOrganization;
let sandbox: string;
let production: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
  sandbox = await t.platformToken(org.sandbox);
  production = await t.platformToken(org.production);
});
afterAll(() => t.close());

/** Platform tokens expire after an hour; tests that move the clock far mint fresh ones. */
async function freshTokens(): Promise<void> {
  sandbox = await t.platformToken(org.sandbox);
  production = await t.platformToken(org.production);
}

describe('POST /api/v2/connect/consent', () => {
  it('answers 201 with exactly the consent fields', async () => {
    const { userId } = await connectUser(t, sandbox, { email: uniqueEmail() });
    const res = await consent(t, sandbox, { user_id: userId, terms_version: '2024-06' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['created_at', 'id', 'object', 'terms_version', 'user_id']);
    expect(body).toEqual({
      object: 'consent',
      id: expect.any(String),
      user_id: userId,
      terms_version: '2024-06',
      created_at: new Date(t.clock.now()).toISOString(),
    });
  });

  it('keeps one record per user: a repeat keeps the id and creation time and updates terms_version', async () => {
    const { userId } = await connectUser(t, sandbox, { email: uniqueEmail() });
    const first = (await consent(t, sandbox, { user_id: userId, terms_version: 'v1' })).json();
    t.clock.advance(5_000);
    const again = await consent(t, sandbox, { user_id: userId, terms_version: 'v2' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ ...first, terms_version: 'v2' });
    const rows = await t.ctx.db.selectFrom('consents').selectAll().where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
  });

  it('accepts a consent without terms_version (null)', async () => {
    const { userId } = await connectUser(t, sandbox, { email: uniqueEmail() });
    const res = await consent(t, sandbox, { user_id: userId });
    expect(res.statusCode).toBe(201);
    expect(res.json().terms_version).toBeNull();
  });

  it('accepts terms_version of 64 characters and refuses 65 with invalid_request', async () => {
    const { userId } = await connectUser(t, sandbox, { email: uniqueEmail() });
    expect(
      (await consent(t, sandbox, { user_id: userId, terms_version: 'v'.repeat(64) })).json().terms_version,
    ).toBe('v'.repeat(64));
    const error = expectError(
      await consent(t, sandbox, { user_id: userId, terms_version: 'v'.repeat(65) }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toHaveProperty('terms_version');
  });

  it('answers invalid_request naming a missing user_id', async () => {
    for (const body of [{}, { terms_version: 'v1' }, { user_id: '' }]) {
      const error = expectError(await consent(t, sandbox, body), 400, 'invalid_request');
      expect(error.field_errors).toHaveProperty('user_id');
    }
  });

  it('answers connection_not_found for users not connected to the calling client', async () => {
    const { userId } = await connectUser(t, sandbox, { email: uniqueEmail() });

    // Unknown user.
    const unknown = expectError(
      await consent(t, sandbox, { user_id: 'usr_doesnotexist' }),
      404,
      'connection_not_found',
    );
    // The same organization's other mode.
    expectError(await consent(t, production, { user_id: userId }), 404, 'connection_not_found');
    // Another organization: the same answer as for an unknown user.
    const other = await t.createOrg('Other Co');
    expect(
      expectError(
        await consent(t, await t.platformToken(other.sandbox), { user_id: userId }),
        404,
        'connection_not_found',
      ),
    ).toEqual(unknown);
    // Another client of the same organization and mode.
    const extra = await t.ctx.orgs.createClient(org.organization_id, {
      mode: 'sandbox',
      type: 'confidential',
    });
    const otherClient = await t.platformToken({
      client_id: extra.client_id,
      client_secret: extra.client_secret!,
      api_key: '',
    });
    expectError(await consent(t, otherClient, { user_id: userId }), 404, 'connection_not_found');
    // None of that recorded anything.
    expect(await t.ctx.db.selectFrom('consents').selectAll().where('user_id', '=', userId).execute()).toEqual(
      [],
    );
    // The connected client can.
    expect((await consent(t, sandbox, { user_id: userId })).statusCode).toBe(201);
  });
});

describe('consent across clients', () => {
  it('is one record per user, whichever connected client records it', async () => {
    const extra = await t.ctx.orgs.createClient(org.organization_id, {
      mode: 'sandbox',
      type: 'confidential',
    });
    const otherClient = await t.platformToken({
      client_id: extra.client_id,
      client_secret: extra.client_secret!,
      api_key: '',
    });
    const email = uniqueEmail();
    const viaDefault = await connectUser(t, sandbox, { email });
    const viaExtra = await connectUser(t, otherClient, { email });
    expect(viaExtra.userId).toBe(viaDefault.userId);
    const first = (await consent(t, sandbox, { user_id: viaDefault.userId, terms_version: 'a' })).json();
    const second = await consent(t, otherClient, { user_id: viaDefault.userId, terms_version: 'b' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual({ ...first, terms_version: 'b' });
  });
});

/** The documented retry grace of a rotated refresh token (docs/decisions.md, Connect). */
const REFRESH_GRACE_MS = 10_000;

describe('POST /api/v2/connect/refresh', () => {
  it('answers 200 with a new pair and no user key', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const res = await refresh(t, sandbox, { refresh_token: c.refreshToken });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in',
      'object',
      'refresh_token',
      'token_type',
    ]);
    expect(body).toEqual({
      object: 'connection',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    expect(body.refresh_token).not.toBe(c.refreshToken);
    expect(body.access_token).not.toBe(c.accessToken);
    expect(await t.ctx.auth.authenticate(body.access_token)).toMatchObject({
      kind: 'connection',
      userId: c.userId,
      clientId: org.sandbox.client_id,
      livemode: false,
    });
  });

  it('invalidates the old refresh token at once and chains on the new one', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const next = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    // Past the 10-second retry grace, presenting the old token again is reuse.
    t.clock.advance(REFRESH_GRACE_MS + 1);
    expectError(await refresh(t, sandbox, { refresh_token: c.refreshToken }), 401, 'invalid_refresh_token');
    // That reuse revoked the family, so the chain ends here too (see the next test).
    expectError(
      await refresh(t, sandbox, { refresh_token: next.refresh_token }),
      401,
      'invalid_refresh_token',
    );

    const d = await connectUser(t, sandbox, { email: uniqueEmail() });
    let token = d.refreshToken;
    for (let i = 0; i < 3; i++) {
      const res = await refresh(t, sandbox, { refresh_token: token });
      expect(res.statusCode).toBe(200);
      token = res.json().refresh_token;
    }
  });

  it('revokes the whole family when a rotated-out token is reused, and only that family', async () => {
    const email = uniqueEmail();
    const c = await connectUser(t, sandbox, { email });
    const bystander = await connectUser(t, sandbox, { email }); // same user, its own family
    expect(bystander.userId).toBe(c.userId);

    const second = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    const third = (await refresh(t, sandbox, { refresh_token: second.refresh_token })).json();
    for (const access of [c.accessToken, second.access_token, third.access_token]) {
      expect(await t.ctx.auth.authenticate(access)).not.toBeNull();
    }

    // Replay of a rotated-out token after the retry grace: theft is assumed.
    t.clock.advance(REFRESH_GRACE_MS + 1);
    expectError(await refresh(t, sandbox, { refresh_token: c.refreshToken }), 401, 'invalid_refresh_token');

    expectError(
      await refresh(t, sandbox, { refresh_token: third.refresh_token }),
      401,
      'invalid_refresh_token',
    );
    for (const access of [c.accessToken, second.access_token, third.access_token]) {
      expect(await t.ctx.auth.authenticate(access)).toBeNull();
    }
    // The other verify of the same user is a different family and keeps working.
    expect(await t.ctx.auth.authenticate(bystander.accessToken)).not.toBeNull();
    expect((await refresh(t, sandbox, { refresh_token: bystander.refreshToken })).statusCode).toBe(200);
  });

  it('answers invalid_refresh_token for an unknown token and invalid_request for a missing one', async () => {
    for (const token of ['crt_unknown', 'x', 'A'.repeat(600)]) {
      expectError(await refresh(t, sandbox, { refresh_token: token }), 401, 'invalid_refresh_token');
    }
    for (const body of [{}, { refresh_token: '' }, { token: 'x' }]) {
      const error = expectError(await refresh(t, sandbox, body), 400, 'invalid_request');
      expect(error.field_errors).toHaveProperty('refresh_token');
    }
  });

  it("answers invalid_refresh_token for another client's, mode's or organization's token, without revoking it", async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const other = await t.createOrg('Other Co');
    const extra = await t.ctx.orgs.createClient(org.organization_id, {
      mode: 'sandbox',
      type: 'confidential',
    });
    const otherClient = await t.platformToken({
      client_id: extra.client_id,
      client_secret: extra.client_secret!,
      api_key: '',
    });
    for (const token of [otherClient, production, await t.platformToken(other.sandbox)]) {
      expectError(await refresh(t, token, { refresh_token: c.refreshToken }), 401, 'invalid_refresh_token');
    }
    // The owner's token is untouched by those attempts.
    expect(await t.ctx.auth.authenticate(c.accessToken)).not.toBeNull();
    expect((await refresh(t, sandbox, { refresh_token: c.refreshToken })).statusCode).toBe(200);
  });

  it('expires refresh tokens after REFRESH_TOKEN_TTL_DAYS (default 30)', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const d = await connectUser(t, sandbox, { email: uniqueEmail() });
    t.clock.advance(30 * DAY - 1);
    await freshTokens();
    expect((await refresh(t, sandbox, { refresh_token: c.refreshToken })).statusCode).toBe(200);
    t.clock.advance(1);
    await freshTokens();
    expectError(await refresh(t, sandbox, { refresh_token: d.refreshToken }), 401, 'invalid_refresh_token');
  });

  it('honours a configured REFRESH_TOKEN_TTL_DAYS, from each rotation', async () => {
    const short = await startTestApp({ REFRESH_TOKEN_TTL_DAYS: '2' });
    try {
      const o = await short.createOrg();
      let token = await short.platformToken(o.sandbox);
      const c = await connectUser(short, token, { email: uniqueEmail() });
      short.clock.advance(2 * DAY - 1);
      token = await short.platformToken(o.sandbox);
      const next = await refresh(short, token, { refresh_token: c.refreshToken });
      expect(next.statusCode).toBe(200);
      // The new token has its own two days.
      short.clock.advance(2 * DAY - 1);
      token = await short.platformToken(o.sandbox);
      const after = await refresh(short, token, { refresh_token: next.json().refresh_token });
      expect(after.statusCode).toBe(200);
      short.clock.advance(2 * DAY);
      token = await short.platformToken(o.sandbox);
      expectError(
        await refresh(short, token, { refresh_token: after.json().refresh_token }),
        401,
        'invalid_refresh_token',
      );
    } finally {
      await short.close();
    }
  });
});

describe('connection access tokens', () => {
  it('expire after 3600 seconds, from verify and from refresh alike', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const r = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    t.clock.advance(3600_000 - 1);
    expect(await t.ctx.auth.authenticate(c.accessToken)).not.toBeNull();
    expect(await t.ctx.auth.authenticate(r.access_token)).not.toBeNull();
    t.clock.advance(1);
    expect(await t.ctx.auth.authenticate(c.accessToken)).toBeNull();
    expect(await t.ctx.auth.authenticate(r.access_token)).toBeNull();
    await freshTokens();
  });
});
