import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { expectError, outboxCode, start, startAttempt, uniqueEmail, verify } from './helpers.ts';

// Throttles of POST /api/v2/connect/start (docs/decisions.md, Connect): 30 s resend cooldown while an
// attempt is open, 5 codes per destination per 15 minutes (both where codes reach real inboxes),
// 300 starts per client per minute.

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

const attemptsTo = async (column: 'email' | 'phone', value: string) =>
  (await t.ctx.db.selectFrom('connect_attempts').select('id').where(column, '=', value).execute()).length;
const outboxTo = async (recipient: string) =>
  (await t.ctx.notifications.sentMessages(1000)).filter((m) => m.recipient === recipient).length;

function expectThrottled(response: Awaited<ReturnType<typeof start>>, retryAfter: number) {
  expectError(response, 429, 'rate_limited');
  expect(response.headers['retry-after']).toBe(String(retryAfter));
}

let phoneCounter = 0;
/** A valid US number no other test in this file uses. */
function uniquePhone(): string {
  phoneCounter += 1;
  return `+1415555${String(1000 + phoneCounter).slice(-4)}`;
}

describe('resend cooldown', () => {
  it('refuses a second code to the same open destination for 30 s, creating and sending nothing', async () => {
    const email = uniqueEmail();
    await startAttempt(t, production, { email });
    t.clock.advance(12_000);
    expectThrottled(await start(t, production, { email }), 18);
    // The same address in other cases is the same destination.
    expectThrottled(await start(t, production, { email: email.toUpperCase() }), 18);
    expect(await attemptsTo('email', email)).toBe(1);
    expect(await outboxTo(email)).toBe(1);
    t.clock.advance(17_999);
    expectThrottled(await start(t, production, { email }), 1);
    t.clock.advance(1);
    await startAttempt(t, production, { email });
    expect(await outboxTo(email)).toBe(2);
  });

  it('holds no sandbox destination back: its codes reach only the local outbox', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 7; i++) await startAttempt(t, sandbox, { email });
    expect(await attemptsTo('email', email)).toBe(7);
  });

  it('applies to phones compared in E.164', async () => {
    const phone = uniquePhone();
    await startAttempt(t, production, { phone });
    expectThrottled(await start(t, production, { phone: ` ${phone} ` }), 30);
    expect(await attemptsTo('phone', phone)).toBe(1);
  });

  it('does not hold back a destination whose last attempt was verified', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, production, { email });
    const code = await outboxCode(t, email);
    expect((await verify(t, production, { connect_id: connectId, code })).statusCode).toBe(200);
    await startAttempt(t, production, { email });
  });

  it('is per organization and mode: another organization or mode is not held back', async () => {
    const email = uniqueEmail();
    await startAttempt(t, production, { email });
    await startAttempt(t, sandbox, { email });
    const other = await t.createOrg('Other');
    await startAttempt(t, await t.platformToken(other.production), { email });
  });
});

describe('per-destination cap', () => {
  it('sends at most 5 codes to one destination in 15 minutes, then 429 until the oldest is 15 minutes old', async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 5; i++) {
      await startAttempt(t, production, { phone });
      t.clock.advance(30_000);
    }
    // The first code went out 150 s ago: a slot frees 750 s from now.
    expectThrottled(await start(t, production, { phone }), 750);
    expect(await attemptsTo('phone', phone)).toBe(5);
    t.clock.advance(749_999);
    expectThrottled(await start(t, production, { phone }), 1);
    t.clock.advance(1);
    await startAttempt(t, production, { phone });
    // Verified attempts count too: codes were sent.
    expect(await attemptsTo('phone', phone)).toBe(6);
  });

  it('25 parallel starts to one number send exactly one code', async () => {
    const phone = uniquePhone();
    const responses = await Promise.all(Array.from({ length: 25 }, () => start(t, production, { phone })));
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const res of responses.filter((r) => r.statusCode !== 201)) expectThrottled(res, 30);
    expect(await attemptsTo('phone', phone)).toBe(1);
    expect(await outboxTo(phone)).toBe(1);
  });

  it('logs a warn line per refusal with the destination masked, never the address or a code', async () => {
    const email = uniqueEmail('masked');
    await startAttempt(t, production, { email });
    expectThrottled(await start(t, production, { email }), 30);
    const lines = t.logs.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'rate limited: connect start');
    const mine = lines.filter((line) => line.destination === `m***@example.com`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.at(-1)).toMatchObject({
      level: 40,
      rate_limit: 'connect_start:resend_cooldown',
      client_id: org.production.client_id,
      retry_after: 30,
    });
    expect(t.logs.text).not.toContain(email);
    const phone = uniquePhone();
    await startAttempt(t, production, { phone });
    await start(t, production, { phone });
    expect(t.logs.text).not.toContain(phone);
    expect(t.logs.text).toContain(`"destination":"+1********${phone.slice(-2)}"`);
  });
});

describe('per-client cap', () => {
  it('admits CONNECT_CLIENT_RATE_LIMIT starts per window per client, counting only admitted ones', async () => {
    const small = await startTestApp({
      CONNECT_CLIENT_RATE_LIMIT: '3',
      CONNECT_CLIENT_RATE_WINDOW_SECONDS: '60',
    });
    try {
      const o = await small.createOrg();
      const token = await small.platformToken(o.sandbox);
      for (let i = 0; i < 3; i++) await startAttempt(small, token, { email: uniqueEmail() });
      small.clock.advance(20_000);
      for (let i = 0; i < 5; i++) {
        const res = await start(small, token, { email: uniqueEmail() });
        expectError(res, 429, 'rate_limited');
        expect(res.headers['retry-after']).toBe('40');
      }
      expect(await small.ctx.db.selectFrom('connect_attempts').select('id').execute()).toHaveLength(3);
      // Another client of the organization has its own budget.
      await startAttempt(small, await small.platformToken(o.production), { email: uniqueEmail() });
      // Refusals were not counted: the whole budget is back once the first three leave the window.
      small.clock.advance(40_000);
      for (let i = 0; i < 3; i++) await startAttempt(small, token, { email: uniqueEmail() });
      expectError(await start(small, token, { email: uniqueEmail() }), 429, 'rate_limited');
    } finally {
      await small.close();
    }
  });

  it('answers with the longest wait when several throttles refuse', async () => {
    const small = await startTestApp({
      CONNECT_CLIENT_RATE_LIMIT: '1',
      CONNECT_CLIENT_RATE_WINDOW_SECONDS: '120',
    });
    try {
      const o = await small.createOrg();
      const token = await small.platformToken(o.production);
      const email = uniqueEmail();
      await startAttempt(small, token, { email });
      // Cooldown says 30 s, the client cap 120 s.
      const res = await start(small, token, { email });
      expectError(res, 429, 'rate_limited');
      expect(res.headers['retry-after']).toBe('120');
    } finally {
      await small.close();
    }
  });
});
