import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../src/core/clock.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { expectError, uniqueEmail } from '../connect/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

let t: TestApp;
let org: CreatedOrganization;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
});
// Tests move the clock by hours: a fresh platform token for each.
beforeEach(async () => {
  token = await t.platformToken(org.sandbox);
});
afterAll(() => t.close());

const start = (body: Record<string, unknown>, key?: string, bearer = token) =>
  t.call('POST', '/api/v2/connect/start', {
    token: bearer,
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

const attempts = async (email: string) =>
  (await t.ctx.db.selectFrom('connect_attempts').select('id').where('email', '=', email).execute()).length;

describe('Idempotency-Key on POST', () => {
  it('acts once: a retry with the same key and request replays the first answer', async () => {
    const email = uniqueEmail();
    const first = await start({ email }, 'key-acts-once');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await start({ email }, 'key-acts-once');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await attempts(email)).toBe(1);
    // Without a key, every POST acts (once the connect/start resend cooldown has passed).
    t.clock.advance(30_000);
    await start({ email });
    expect(await attempts(email)).toBe(2);
  });

  it('lets exactly one of ten concurrent requests with one key act', async () => {
    const email = uniqueEmail();
    const answers = await Promise.all(Array.from({ length: 10 }, () => start({ email }, 'key-concurrent')));
    expect(await attempts(email)).toBe(1);
    for (const answer of answers) expect([201, 409]).toContain(answer.statusCode);
    const ids = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().id));
    expect(ids.size).toBe(1);
  });

  it('refuses the same key with another request (400 idempotency_key_reused), acting on nothing', async () => {
    const email = uniqueEmail();
    await start({ email }, 'key-reused');
    const other = uniqueEmail();
    expectError(await start({ email: other }, 'key-reused'), 400, 'idempotency_key_reused');
    expect(await attempts(other)).toBe(0);
  });

  it('replays a 4xx the request earned, and keeps nothing for a request refused before it ran', async () => {
    const attempt = (await start({ email: uniqueEmail() })).json().id as string;
    const verify = (code: string) =>
      t.call('POST', '/api/v2/connect/verify', {
        token,
        body: { connect_id: attempt, code },
        headers: { 'idempotency-key': `verify-${code}` },
      });
    expectError(await verify('000000'), 401, 'invalid_code');
    const replayed = await verify('000000');
    expectError(replayed, 401, 'invalid_code');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    // One wrong code was counted, not two.
    const row = await t.ctx.db
      .selectFrom('connect_attempts')
      .select('failed_attempts')
      .where('id', '=', attempt)
      .executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(1);
    // A request refused by its schema never runs: the key stays free.
    expectError(await start({ email: 42 }, 'key-after-invalid'), 400, 'invalid_request');
    expect((await start({ email: uniqueEmail() }, 'key-after-invalid')).statusCode).toBe(201);
  });

  it('keeps keys per organization and mode', async () => {
    const production = await t.platformToken(org.production);
    const other = await t.platformToken((await t.createOrg('Other')).sandbox);
    const email = uniqueEmail();
    for (const bearer of [token, production, other]) {
      const res = await start({ email }, 'key-scoped', bearer);
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('answers 409 idempotency_key_in_use while the first request runs, and lets a retry take over a dead one', async () => {
    const email = uniqueEmail();
    // A first request that claimed the key and has not answered (here: its process died).
    const body = { email };
    const claimed = await start(body, 'key-in-use');
    await t.ctx.db
      .updateTable('idempotency_keys')
      .set({ status_code: null, response: null, locked_until: t.clock.now() + MINUTE })
      .where('key', '=', 'key-in-use')
      .execute();
    const busy = await start(body, 'key-in-use');
    expectError(busy, 409, 'idempotency_key_in_use');
    expect(busy.headers['retry-after']).toBe('1');
    t.clock.advance(MINUTE + 1);
    const retaken = await start(body, 'key-in-use');
    expect(retaken.statusCode).toBe(201);
    expect(retaken.headers['idempotent-replayed']).toBeUndefined();
    expect(retaken.json().id).not.toBe(claimed.json().id);
  });

  it('forgets a key after 24 hours (and the retention sweep deletes it)', async () => {
    const email = uniqueEmail();
    await start({ email }, 'key-forgotten');
    t.clock.advance(24 * HOUR + 1);
    token = await t.platformToken(org.sandbox);
    const fresh = await start({ email }, 'key-forgotten');
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await attempts(email)).toBe(2);
    t.clock.advance(24 * HOUR + 1);
    await new Worker(t.ctx, { info: () => {}, error: () => {} }).runOnce();
    const left = await t.ctx.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', 'key-forgotten')
      .execute();
    expect(left).toEqual([]);
  });

  it('keeps answers sealed: a replayed connection keeps its tokens out of the stored row', async () => {
    const attempt = (await start({ email: uniqueEmail() })).json().id as string;
    const body = { connect_id: attempt, code: '111111' };
    const headers = { 'idempotency-key': 'key-sealed' };
    const first = await t.call('POST', '/api/v2/connect/verify', { token, body, headers });
    expect(first.statusCode).toBe(200);
    const again = await t.call('POST', '/api/v2/connect/verify', { token, body, headers });
    expect(again.json()).toEqual(first.json());
    const stored = JSON.stringify(await t.ctx.db.selectFrom('idempotency_keys').selectAll().execute());
    expect(stored).not.toContain(first.json().access_token);
    expect(stored).not.toContain(first.json().refresh_token);
  });

  it('refuses a malformed key with 400 invalid_request and works on v1 endpoints too', async () => {
    expectError(await start({ email: uniqueEmail() }, 'x'.repeat(256)), 400, 'invalid_request');
    const create = () =>
      t.call('POST', '/api/v1/webhook_endpoints', {
        token: org.sandbox.api_key,
        body: { url: 'http://localhost:9/hook', enabled_events: ['*'] },
        headers: { 'idempotency-key': 'v1-endpoint' },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const again = await create();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    const list = await t.call('GET', '/api/v1/webhook_endpoints', { token: org.sandbox.api_key });
    expect(list.json().data).toHaveLength(1);
  });
});
