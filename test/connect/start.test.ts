import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { connectUser, expectError, outboxCode, SANDBOX_CODE, start, uniqueEmail } from './helpers.ts';

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

describe('connect bodies', () => {
  it('name only the spec fields: an unknown one is 400 invalid_request naming it, and nothing happens', async () => {
    const before = await t.ctx.db.selectFrom('connect_attempts').select('id').execute();
    for (const [path, body] of [
      ['/api/v2/connect/start', { email: uniqueEmail(), nickname: 'x' }],
      ['/api/v2/connect/verify', { connect_id: 'ca_x', code: '111111', nickname: 'x' }],
      ['/api/v2/connect/consent', { user_id: 'usr_x', nickname: 'x' }],
      ['/api/v2/connect/refresh', { refresh_token: 'crt_x', nickname: 'x' }],
    ] as const) {
      const res = await t.call('POST', path, { token: sandbox, body });
      expectError(res, 400, 'invalid_request');
      expect(res.json().error.field_errors, path).toEqual({ nickname: 'is not a recognised field' });
    }
    expect(await t.ctx.db.selectFrom('connect_attempts').select('id').execute()).toEqual(before);
  });
});

describe('POST /api/v2/connect/start', () => {
  it('answers 201 with exactly the connect attempt fields, valid for 10 minutes (email)', async () => {
    const now = t.clock.now();
    const res = await start(t, sandbox, { email: uniqueEmail() });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['channel', 'expires_at', 'id', 'object']);
    expect(body).toEqual({
      object: 'connect_attempt',
      id: expect.any(String),
      channel: 'email',
      expires_at: new Date(now + 10 * 60_000).toISOString(),
    });
    expect(body.id.length).toBeGreaterThanOrEqual(16);
  });

  it('reports channel phone for a phone number and sends the code by SMS', async () => {
    const now = t.clock.now();
    const res = await start(t, sandbox, { phone: '+14155552671' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      object: 'connect_attempt',
      id: expect.any(String),
      channel: 'phone',
      expires_at: new Date(now + 10 * 60_000).toISOString(),
    });
    const sms = (await t.ctx.notifications.sentMessages(1000)).find((m) => m.recipient === '+14155552671');
    expect(sms?.channel).toBe('sms');
    expect(sms?.body).toContain(SANDBOX_CODE);
  });

  it('gives every attempt its own id', async () => {
    const email = uniqueEmail();
    const a = await start(t, sandbox, { email });
    const b = await start(t, sandbox, { email });
    expect(a.json().id).not.toBe(b.json().id);
  });

  it('refuses neither and both of email and phone with invalid_request naming the fields', async () => {
    for (const body of [{}, { external_user_id: 'u1' }, { email: uniqueEmail(), phone: '+14155552671' }]) {
      const error = expectError(await start(t, sandbox, body), 400, 'invalid_request');
      expect(Object.keys(error.field_errors)).toEqual(expect.arrayContaining(['email', 'phone']));
    }
  });

  it('refuses a malformed email with invalid_request on the email field', async () => {
    for (const email of ['not-an-email', 'a@', '@example.com', '', 'two words@example.com']) {
      const error = expectError(await start(t, sandbox, { email }), 400, 'invalid_request');
      expect(error.field_errors).toHaveProperty('email');
    }
  });

  it('refuses a non-string email or phone with invalid_request', async () => {
    expectError(await start(t, sandbox, { email: { a: 1 } }), 400, 'invalid_request');
    expectError(await start(t, sandbox, { phone: ['+14155552671', '+14155552672'] }), 400, 'invalid_request');
  });

  it('refuses numbers that are not valid E.164 with invalid_phone', async () => {
    const invalid = [
      '12345', // no leading +
      '+1555', // too short for the plan
      '+999123', // unassigned country code
      '+44 20 7946 0018', // spaces: not E.164
      '+1 (415) 555-2671', // formatting: not E.164
      '0014155552671', // international prefix instead of +
      '+14155552671x', // trailing garbage
      '+0123456789', // country codes never start with 0
      '+447700900123', // right length, but not a valid UK number
    ];
    for (const phone of invalid) {
      const res = await start(t, sandbox, { phone });
      const error = expectError(res, 400, 'invalid_phone');
      expect(error.field_errors, phone).toHaveProperty('phone');
    }
  });

  it('accepts valid E.164 numbers of several countries', async () => {
    // Earlier tests may have sent codes to these numbers: let their throttles lapse.
    t.clock.advance(15 * 60_000);
    for (const phone of ['+14155552671', '+442079460018', '+33612345678', '+4915123456789', '+61491570156']) {
      const res = await start(t, sandbox, { phone });
      expect(res.statusCode, `${phone}: ${res.body}`).toBe(201);
    }
  });

  it('accepts external_user_id up to 255 characters and refuses 256 naming the field', async () => {
    expect(
      (await start(t, sandbox, { email: uniqueEmail(), external_user_id: 'x'.repeat(255) })).statusCode,
    ).toBe(201);
    const error = expectError(
      await start(t, sandbox, { email: uniqueEmail(), external_user_id: 'x'.repeat(256) }),
      400,
      'invalid_request',
    );
    expect(error.field_errors).toHaveProperty('external_user_id');
  });

  it('stores external_user_id on the attempt and, once verified, on the connection', async () => {
    const external = `ext-${Math.random().toString(36).slice(2)}`;
    const connected = await connectUser(t, sandbox, { email: uniqueEmail(), external_user_id: external });
    const attempt = await t.ctx.db
      .selectFrom('connect_attempts')
      .selectAll()
      .where('id', '=', connected.connectId)
      .executeTakeFirstOrThrow();
    expect(attempt.external_user_id).toBe(external);
    const connection = await t.ctx.db
      .selectFrom('connections')
      .selectAll()
      .where('user_id', '=', connected.userId)
      .executeTakeFirstOrThrow();
    expect(connection.external_user_id).toBe(external);
  });

  it('sends the sandbox constant in sandbox and a random six-digit code in production', async () => {
    const sandboxEmail = uniqueEmail('sbx');
    await start(t, sandbox, { email: sandboxEmail });
    expect(await outboxCode(t, sandboxEmail)).toBe(SANDBOX_CODE);

    const codes = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const email = uniqueEmail('live');
      expect((await start(t, production, { email })).statusCode).toBe(201);
      const code = await outboxCode(t, email);
      expect(code).toMatch(/^\d{6}$/);
      codes.add(code);
    }
    // Three independent random codes; all three equal has probability 1e-10.
    expect(codes.size).toBeGreaterThan(1);
  });
});
