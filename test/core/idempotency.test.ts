import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../src/core/clock.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { connectUser, expectError, uniqueEmail } from '../connect/helpers.ts';
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

  it('refuses the same key with another body or query (422 idempotency_key_reused), acting on nothing', async () => {
    const email = uniqueEmail();
    await start({ email }, 'key-reused');
    const other = uniqueEmail();
    expectError(await start({ email: other }, 'key-reused'), 422, 'idempotency_key_reused');
    expect(await attempts(other)).toBe(0);
    const withQuery = await t.call('POST', '/api/v2/connect/start?again=1', {
      token,
      body: { email },
      headers: { 'idempotency-key': 'key-reused' },
    });
    expectError(withQuery, 422, 'idempotency_key_reused');
    expect(await attempts(email)).toBe(1);
    // The first answer is still there for the true retry.
    expect((await start({ email }, 'key-reused')).headers['idempotent-replayed']).toBe('true');
  });

  it('compares parameters, not bytes: key order and spacing are the same request; any change is a reuse', async () => {
    const email = uniqueEmail();
    const send = (payload: string) =>
      t.request({
        method: 'POST',
        url: '/api/v2/connect/start',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': 'key-order',
        },
        payload,
      });
    const first = await send(JSON.stringify({ email, external_user_id: 'u-1' }));
    expect(first.statusCode).toBe(201);
    for (const same of [
      JSON.stringify({ external_user_id: 'u-1', email }),
      `{ "email" : ${JSON.stringify(email)},\n "external_user_id":"u-1" }`,
    ]) {
      const again = await send(same);
      expect(again.headers['idempotent-replayed'], same).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    for (const changed of [
      { email, external_user_id: 'u-2' },
      { email },
      { email, external_user_id: 'u-1', phone: '+14155550100' },
      { email: email.toUpperCase(), external_user_id: 'u-1' },
    ]) {
      expectError(await send(JSON.stringify(changed)), 422, 'idempotency_key_reused');
    }
    expect(await attempts(email)).toBe(1);
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
        body: { url: 'https://hooks.example.com/hook', enabled_events: ['*'] },
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

describe('Idempotency-Key scope: the credential that sent it, the method and the path', () => {
  const isReplay = (res: { headers: Record<string, unknown> }) =>
    res.headers['idempotent-replayed'] === 'true';

  /** Another confidential client of the same organization and mode, and a token for it. */
  const secondClientToken = async (mode: 'sandbox' | 'production' = 'sandbox') => {
    const client = await t.ctx.orgs.createClient(org.organization_id, { mode, type: 'confidential' });
    return t.platformToken({
      client_id: client.client_id,
      client_secret: client.client_secret!,
      api_key: '',
    });
  };

  it("never replays one client's answer to another client of the same organization", async () => {
    const other = await secondClientToken();
    const email = uniqueEmail();
    const first = await start({ email }, 'key-two-clients');
    // Past the resend cooldown of the destination (connect/start throttles), so the second acts.
    t.clock.advance(31_000);
    const second = await start({ email }, 'key-two-clients', other);
    expect(second.statusCode).toBe(201);
    expect(isReplay(second)).toBe(false);
    expect(second.json().id).not.toBe(first.json().id);
    expect(await attempts(email)).toBe(2);
    // Each client's own retry gets its own answer.
    expect((await start({ email }, 'key-two-clients', other)).json()).toEqual(second.json());
    expect((await start({ email }, 'key-two-clients')).json()).toEqual(first.json());

    // The case: a user connected through one client is unknown to another (404); with the
    // same key, that other client must get its own 404, not the first client's consent.
    const user = await connectUser(t, token, { email: uniqueEmail() });
    const consent = (bearer: string) =>
      t.call('POST', '/api/v2/connect/consent', {
        token: bearer,
        body: { user_id: user.userId, terms_version: '2026-01' },
        headers: { 'idempotency-key': 'key-consent' },
      });
    expect(isReplay(await consent(token))).toBe(false);
    const theirs = await consent(other);
    expectError(theirs, 404, 'connection_not_found');
    expect(isReplay(theirs)).toBe(false);
  });

  it('shares keys between the platform tokens of one client: the client is the credential', async () => {
    const email = uniqueEmail();
    const first = await start({ email }, 'key-one-client');
    const later = await t.platformToken(org.sandbox);
    expect(later).not.toBe(token);
    const again = await start({ email }, 'key-one-client', later);
    expect(isReplay(again)).toBe(true);
    expect(again.json()).toEqual(first.json());
    expectError(
      await start({ email: uniqueEmail() }, 'key-one-client', later),
      422,
      'idempotency_key_reused',
    );
    expect(await attempts(email)).toBe(1);
  });

  it('keeps keys apart across organizations and modes', async () => {
    const production = await t.platformToken(org.production);
    const other = await t.platformToken((await t.createOrg('Other')).sandbox);
    const email = uniqueEmail();
    for (const bearer of [token, production, other]) {
      const res = await start({ email }, 'key-scoped', bearer);
      expect(res.statusCode).toBe(201);
      expect(isReplay(res)).toBe(false);
    }
    expect(await attempts(email)).toBe(3);
  });

  it('keeps API keys apart from each other and from platform tokens', async () => {
    const second = await t.ctx.orgs.createApiKey(org.organization_id, 'sandbox');
    const create = (apiKey: string) =>
      t.call('POST', '/api/v1/webhook_endpoints', {
        token: apiKey,
        body: { url: 'https://hooks.example.com/hook', enabled_events: ['*'] },
        headers: { 'idempotency-key': 'key-credentials' },
      });
    // The platform token of the same organization and mode used the key first, elsewhere.
    expect((await start({ email: uniqueEmail() }, 'key-credentials')).statusCode).toBe(201);
    const first = await create(org.sandbox.api_key);
    expect(first.statusCode).toBe(201);
    expect(isReplay(first)).toBe(false);
    const other = await create(second.api_key);
    expect(other.statusCode).toBe(201);
    expect(isReplay(other)).toBe(false);
    expect(other.json().id).not.toBe(first.json().id);
    expect(isReplay(await create(org.sandbox.api_key))).toBe(true);
  });

  it('keeps a key per path and per method: the same key elsewhere acts, and is not a reuse', async () => {
    const email = uniqueEmail();
    const attempt = (await start({ email }, 'key-everywhere')).json().id as string;
    const verified = await t.call('POST', '/api/v2/connect/verify', {
      token,
      body: { connect_id: attempt, code: '111111' },
      headers: { 'idempotency-key': 'key-everywhere' },
    });
    expect(verified.statusCode).toBe(200);
    expect(isReplay(verified)).toBe(false);

    const apiKey = org.sandbox.api_key;
    const endpoint = (
      await t.call('POST', '/api/v1/webhook_endpoints', {
        token: apiKey,
        body: { url: 'https://hooks.example.com/hook', enabled_events: ['*'] },
      })
    ).json().id as string;
    const headers = { 'idempotency-key': 'key-methods' };
    const path = `/api/v1/webhook_endpoints/${endpoint}`;
    const patch = () => t.call('PATCH', path, { token: apiKey, body: { description: 'renamed' }, headers });
    expect(isReplay(await patch())).toBe(false);
    expect(isReplay(await patch())).toBe(true);
    // DELETE on the same path with the same key: another scope, so it acts.
    const deleted = await t.call('DELETE', path, { token: apiKey, headers });
    expect(deleted.statusCode).toBe(200);
    expect(isReplay(deleted)).toBe(false);
    // Its retry gets the first answer again rather than a 404.
    const retried = await t.call('DELETE', path, { token: apiKey, headers });
    expect(retried.statusCode).toBe(200);
    expect(isReplay(retried)).toBe(true);
    expect(retried.json()).toEqual(deleted.json());
    expect((await t.call('DELETE', path, { token: apiKey })).statusCode).toBe(404);
    // Safe methods ignore the header.
    const read = await t.call('GET', '/api/v1/webhook_endpoints', { token: apiKey, headers });
    expect(read.statusCode).toBe(200);
    expect(isReplay(read)).toBe(false);
  });
});

describe('Idempotency-Key answers that carry secrets', () => {
  /** Every secret-looking token the service issues, by prefix (signing secrets are base64). */
  const SECRET = /(whsec_|cs_test_|cs_live_|sk_test_|sk_live_|pat_|cat_|crt_)[A-Za-z0-9_+/=-]{16,}/;
  const SEALED = /^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;

  it('replays a rolled signing secret to the credential that rolled it, and to no other', async () => {
    const apiKey = org.sandbox.api_key;
    const endpoint = (
      await t.call('POST', '/api/v1/webhook_endpoints', {
        token: apiKey,
        body: { url: 'https://hooks.example.com/hook', enabled_events: ['*'] },
        headers: { 'idempotency-key': 'key-create-endpoint' },
      })
    ).json();
    const roll = (bearer: string) =>
      t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/roll_secret`, {
        token: bearer,
        headers: { 'idempotency-key': 'key-roll' },
      });
    const rolled = await roll(apiKey);
    expect(rolled.statusCode).toBe(200);
    expect(rolled.json().secret).toMatch(/^whsec_/);
    // The caller lost the answer: its retry is the only way to learn the new secret.
    const again = await roll(apiKey);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().secret).toBe(rolled.json().secret);
    // Another API key of the same organization and mode cannot read it: its request acts anew.
    const other = await t.ctx.orgs.createApiKey(org.organization_id, 'sandbox');
    const theirs = await roll(other.api_key);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().secret).not.toBe(rolled.json().secret);

    // Nothing in the table holds a secret in clear: the answers are sealed, the rest names no secret.
    const attempt = (await start({ email: uniqueEmail() })).json().id as string;
    const connected = await t.call('POST', '/api/v2/connect/verify', {
      token,
      body: { connect_id: attempt, code: '111111' },
      headers: { 'idempotency-key': 'key-verify-secrets' },
    });
    const { access_token, refresh_token } = connected.json();
    const secrets = [
      endpoint.secret,
      rolled.json().secret,
      theirs.json().secret,
      access_token,
      refresh_token,
    ];
    for (const secret of secrets) expect(secret).toMatch(SECRET);
    const rows = await t.ctx.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const raw = JSON.stringify(rows);
    for (const secret of secrets) expect(raw).not.toContain(secret);
    for (const row of rows) {
      expect(row.response).toMatch(SEALED);
      const { response: _sealed, ...rest } = row;
      expect(JSON.stringify(rest)).not.toMatch(SECRET);
    }
  });
});
