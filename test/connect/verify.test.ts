import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import {
  connectUser,
  expectError,
  outboxCode,
  SANDBOX_CODE,
  startAttempt,
  uniqueEmail,
  verify,
} from './helpers.ts';

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

/** A wrong six-digit code for this right one. */
const wrong = (code: string) => (code === '000000' ? '000001' : '000000');

describe('POST /api/v2/connect/verify', () => {
  it('answers 200 with exactly the connection fields and the user (email user: phone null)', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, sandbox, { email });
    const res = await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'expires_in',
      'object',
      'refresh_token',
      'token_type',
      'user',
    ]);
    expect(body).toEqual({
      object: 'connection',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      user: { id: expect.any(String), email, phone: null },
    });
    expect(body.access_token).not.toBe(body.refresh_token);
    // The access token acts for that user, under the calling client and mode.
    const principal = await t.ctx.auth.authenticate(body.access_token);
    expect(principal).toMatchObject({
      kind: 'connection',
      organizationId: org.organization_id,
      clientId: org.sandbox.client_id,
      livemode: false,
      userId: body.user.id,
    });
  });

  it('returns email null and the E.164 phone for a phone user', async () => {
    const { body } = await connectUser(t, sandbox, { phone: '+442079460018' });
    expect(body.user).toEqual({ id: expect.any(String), email: null, phone: '+442079460018' });
  });

  it('verifies a production attempt only with the random code that was sent', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, production, { email });
    const code = await outboxCode(t, email);
    expect(code).toMatch(/^\d{6}$/);
    if (code !== SANDBOX_CODE) {
      expectError(
        await verify(t, production, { connect_id: connectId, code: SANDBOX_CODE }),
        401,
        'invalid_code',
      );
    }
    const res = await verify(t, production, { connect_id: connectId, code });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(email);
    expect((await t.ctx.auth.authenticate(res.json().access_token))?.livemode).toBe(true);
  });

  it('stores codes only as digests', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, production, { email });
    const code = await outboxCode(t, email);
    const row = await t.ctx.db
      .selectFrom('connect_attempts')
      .selectAll()
      .where('id', '=', connectId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.code_digest).not.toContain(code);
    expect(row.code_digest.length).toBeGreaterThanOrEqual(32);
    // Tokens handed out at verify are not stored in plaintext either.
    const res = await verify(t, production, { connect_id: connectId, code });
    const dump = JSON.stringify([
      await t.ctx.db.selectFrom('connect_attempts').selectAll().execute(),
      await t.ctx.db.selectFrom('access_tokens').selectAll().execute(),
      await t.ctx.db.selectFrom('refresh_tokens').selectAll().execute(),
    ]);
    expect(dump).not.toContain(res.json().access_token);
    expect(dump).not.toContain(res.json().refresh_token);
  });

  it('verifies a code once: a second verify is invalid_connect_attempt', async () => {
    const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
    expect((await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);
    expectError(
      await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE }),
      400,
      'invalid_connect_attempt',
    );
    expectError(
      await verify(t, sandbox, { connect_id: connectId, code: '000000' }),
      400,
      'invalid_connect_attempt',
    );
  });

  it('answers invalid_code (401) for a wrong code and still accepts the right one after 4 of them', async () => {
    const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
    for (const code of ['000000', '11111', '1111111', 'abcdef']) {
      expectError(await verify(t, sandbox, { connect_id: connectId, code }), 401, 'invalid_code');
    }
    expect((await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);
  });

  it('accepts the code until 10 minutes have passed, then answers invalid_code', async () => {
    const early = await startAttempt(t, sandbox, { email: uniqueEmail() });
    const late = await startAttempt(t, sandbox, { email: uniqueEmail() });
    t.clock.advance(10 * 60_000 - 1);
    expect((await verify(t, sandbox, { connect_id: early, code: SANDBOX_CODE })).statusCode).toBe(200);
    t.clock.advance(1);
    expectError(await verify(t, sandbox, { connect_id: late, code: SANDBOX_CODE }), 401, 'invalid_code');
  });

  it('locks the attempt after 5 wrong codes: even the right code is then invalid_connect_attempt', async () => {
    const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
    for (let i = 0; i < 5; i++) {
      expectError(await verify(t, sandbox, { connect_id: connectId, code: '000000' }), 401, 'invalid_code');
    }
    expectError(
      await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE }),
      400,
      'invalid_connect_attempt',
    );
  });

  it('still accepts the right code after 4 wrong ones', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, production, { email });
    const code = await outboxCode(t, email);
    for (let i = 0; i < 4; i++) {
      expectError(
        await verify(t, production, { connect_id: connectId, code: wrong(code) }),
        401,
        'invalid_code',
      );
    }
    expect((await verify(t, production, { connect_id: connectId, code })).statusCode).toBe(200);
  });

  it('answers invalid_connect_attempt for an unknown connect_id', async () => {
    for (const connectId of ['ca_doesnotexist', 'x', 'ca_' + 'A'.repeat(22)]) {
      expectError(
        await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE }),
        400,
        'invalid_connect_attempt',
      );
    }
  });

  it("refuses another organization's, another mode's or another client's attempt, without spending it", async () => {
    const other = await t.createOrg('Other Co');
    const otherOrg = await t.platformToken(other.sandbox);
    const extra = await t.ctx.orgs.createClient(org.organization_id, {
      mode: 'sandbox',
      type: 'confidential',
    });
    const otherClient = await t.platformToken({
      client_id: extra.client_id,
      client_secret: extra.client_secret!,
      api_key: '',
    });

    const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
    const unknown = expectError(
      await verify(t, sandbox, { connect_id: 'ca_doesnotexist', code: SANDBOX_CODE }),
      400,
      'invalid_connect_attempt',
    );
    // Six tries in all: more than the five wrong codes allowed, so none of them may count.
    for (const token of [otherOrg, production, otherClient, otherOrg, production, otherClient]) {
      const error = expectError(
        await verify(t, token, { connect_id: connectId, code: SANDBOX_CODE }),
        400,
        'invalid_connect_attempt',
      );
      // Indistinguishable from an unknown id: nothing says the attempt exists elsewhere.
      expect(error).toEqual(unknown);
    }
    expect((await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);

    // And the other way round: a production attempt is not visible to the sandbox client.
    const email = uniqueEmail();
    const live = await startAttempt(t, production, { email });
    const code = await outboxCode(t, email);
    expectError(await verify(t, sandbox, { connect_id: live, code }), 400, 'invalid_connect_attempt');
    expect((await verify(t, production, { connect_id: live, code })).statusCode).toBe(200);
  });

  it('refuses a code of 13 characters with invalid_request, and checks one of 12', async () => {
    const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
    const error = expectError(
      await verify(t, sandbox, { connect_id: connectId, code: '1'.repeat(13) }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toHaveProperty('code');
    expectError(
      await verify(t, sandbox, { connect_id: connectId, code: '1'.repeat(12) }),
      401,
      'invalid_code',
    );
    expect((await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);
  });

  it('answers invalid_request naming the missing connect_id or code', async () => {
    const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
    const cases: [unknown, string[]][] = [
      [{ code: SANDBOX_CODE }, ['connect_id']],
      [{ connect_id: connectId }, ['code']],
      [{}, ['connect_id', 'code']],
      [{ connect_id: '', code: SANDBOX_CODE }, ['connect_id']],
      [{ connect_id: connectId, code: '' }, ['code']],
    ];
    for (const [body, fields] of cases) {
      const error = expectError(await verify(t, sandbox, body), 400, 'invalid_request');
      expect(Object.keys(error.field_errors)).toEqual(expect.arrayContaining(fields));
    }
    // None of that spent the attempt.
    expect((await verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })).statusCode).toBe(200);
  });

  it('finds the same user for the same email in any letter case, per mode and per organization', async () => {
    const local = `Case.${Math.random().toString(36).slice(2)}`;
    const lower = `${local.toLowerCase()}@example.com`;
    const first = await connectUser(t, sandbox, { email: lower });
    const second = await connectUser(t, sandbox, { email: `${local.toUpperCase()}@EXAMPLE.COM` });
    const third = await connectUser(t, sandbox, { email: `${local}@Example.com` });
    expect(second.userId).toBe(first.userId);
    expect(third.userId).toBe(first.userId);
    expect(second.body.user).toEqual({ id: first.userId, email: lower, phone: null });

    const live = await connectUser(t, production, { email: lower }, { production: true });
    expect(live.userId).not.toBe(first.userId);
    const liveAgain = await connectUser(t, production, { email: lower.toUpperCase() }, { production: true });
    expect(liveAgain.userId).toBe(live.userId);

    const other = await t.createOrg('Elsewhere');
    const elsewhere = await connectUser(t, await t.platformToken(other.sandbox), { email: lower });
    expect(elsewhere.userId).not.toBe(first.userId);
    expect(elsewhere.userId).not.toBe(live.userId);
  });

  it('finds the same user for the same phone, and a different one for an email', async () => {
    const a = await connectUser(t, sandbox, { phone: '+33612345678' });
    const b = await connectUser(t, sandbox, { phone: '+33612345678' });
    expect(b.userId).toBe(a.userId);
    const c = await connectUser(t, sandbox, { phone: '+33612345679' });
    expect(c.userId).not.toBe(a.userId);
  });

  it('issues a fresh token pair on every verify, each working on its own', async () => {
    const email = uniqueEmail();
    const a = await connectUser(t, sandbox, { email });
    const b = await connectUser(t, sandbox, { email });
    expect(b.accessToken).not.toBe(a.accessToken);
    expect(b.refreshToken).not.toBe(a.refreshToken);
    expect((await t.ctx.auth.authenticate(a.accessToken))?.userId).toBe(a.userId);
    expect((await t.ctx.auth.authenticate(b.accessToken))?.userId).toBe(a.userId);
  });
});
