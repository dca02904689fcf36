import { beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../packages/sdk/src/index.ts';
import { enableGroupCommit, writeTransaction } from '../../src/db/write-transaction.ts';
import { disableEndpoint } from '../../src/domains/events/delivery-store.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { onPostgres } from '../helpers/harness.ts';
import { useWebhookApp } from './helpers.ts';

const f = useWebhookApp({
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
  // The receivers listen on 127.0.0.1: a private destination, allowed here explicitly.
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
});
let other: CreatedOrganization;
beforeAll(async () => {
  other = await f.t.createOrg('Other');
});

const sandboxKey = () => f.org.sandbox.api_key;

async function create(body: Record<string, unknown>, apiKey = sandboxKey()) {
  const res = await f.t.call('POST', '/api/v1/webhook_endpoints', { token: apiKey, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function emit(type: string, livemode = false, organizationId = f.org.organization_id) {
  return f.t.ctx.db
    .transaction()
    .execute((trx) => f.t.ctx.events.emit(trx, { organizationId, livemode, type, data: { n: 1 } }));
}

describe('webhook endpoints (v1, API key)', () => {
  it('refuses calls without a valid API key, and platform tokens, in the v2 error body', async () => {
    const none = await f.t.call('GET', '/api/v1/webhook_endpoints');
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toMatchObject({ code: 'unauthorized', docs: expect.any(String) });
    expect(none.headers['www-authenticate']).toBe('Bearer realm="purser"');
    const wrong = await f.t.call('GET', '/api/v1/webhook_endpoints', { token: 'sk_test_nope' });
    expect(wrong.statusCode).toBe(401);
    const platform = await f.t.platformToken(f.org.sandbox);
    expect((await f.t.call('GET', '/api/v1/webhook_endpoints', { token: platform })).statusCode).toBe(401);
  });

  it('creates (secret shown once), lists, retrieves, updates and deletes', async () => {
    const created = await create({
      url: 'http://localhost:9/hook',
      enabled_events: ['card.*', 'transaction.cleared'],
      description: 'main',
    });
    expect(created).toMatchObject({
      object: 'webhook_endpoint',
      id: expect.stringMatching(/^wh_/),
      url: 'http://localhost:9/hook',
      enabled_events: ['card.*', 'transaction.cleared'],
      description: 'main',
      status: 'active',
      livemode: false,
      failure_count: 0,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const got = await f.t.call('GET', `/api/v1/webhook_endpoints/${created.id}`, { token: sandboxKey() });
    expect(got.statusCode).toBe(200);
    expect(got.json().secret).toBeUndefined();
    expect(got.json().id).toBe(created.id);

    const list = await f.t.call('GET', '/api/v1/webhook_endpoints', { token: sandboxKey() });
    expect(list.json()).toMatchObject({ object: 'list', has_more: false });
    expect(list.json().data.map((e: { id: string }) => e.id)).toContain(created.id);
    expect(list.json().data.every((e: { secret?: string }) => e.secret === undefined)).toBe(true);

    const patched = await f.t.call('PATCH', `/api/v1/webhook_endpoints/${created.id}`, {
      token: sandboxKey(),
      body: { enabled_events: ['*'], description: null },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ enabled_events: ['*'], description: null });
    // A nullable field's own rule is named, not "must be a null".
    const long = await f.t.call('PATCH', `/api/v1/webhook_endpoints/${created.id}`, {
      token: sandboxKey(),
      body: { description: 'd'.repeat(501) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.field_errors).toEqual({ description: 'must be at most 500 characters' });

    const deleted = await f.t.call('DELETE', `/api/v1/webhook_endpoints/${created.id}`, {
      token: sandboxKey(),
    });
    expect(deleted.json()).toEqual({ object: 'webhook_endpoint', id: created.id, deleted: true });
    expect(
      (await f.t.call('GET', `/api/v1/webhook_endpoints/${created.id}`, { token: sandboxKey() })).statusCode,
    ).toBe(404);
  });

  it('validates url and enabled_events with field errors', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ enabled_events: ['*'] }, 'url'],
      [{ url: 'not a url', enabled_events: ['*'] }, 'url'],
      [{ url: 'ftp://example.com/x', enabled_events: ['*'] }, 'url'],
      [{ url: 'https://user:pw@example.com/x', enabled_events: ['*'] }, 'url'],
      [{ url: 'https://example.com/x' }, 'enabled_events'],
      [{ url: 'https://example.com/x', enabled_events: [] }, 'enabled_events'],
      [{ url: 'https://example.com/x', enabled_events: 'card.created' }, 'enabled_events'],
      [{ url: 'https://example.com/x', enabled_events: ['Card Created'] }, 'enabled_events'],
      [{ url: 'https://example.com/x', enabled_events: ['card.*.x'] }, 'enabled_events'],
      [{ url: 'https://example.com/x', enabled_events: ['*'], extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await f.t.call('POST', '/api/v1/webhook_endpoints', { token: sandboxKey(), body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      // A list naming something the catalog does not know is the one code for unknown types.
      const names = body.enabled_events;
      const unknownName = Array.isArray(names) && names.length > 0 && names[0] !== '*';
      expect(res.json().error.code).toBe(unknownName ? 'invalid_event_type' : 'invalid_request');
      expect(Object.keys(res.json().error.field_errors)).toContain(field);
    }
  });

  it("keeps organizations and modes apart: another org's or mode's endpoint is not found", async () => {
    const mine = await create({ url: 'http://localhost:9/a', enabled_events: ['*'] });
    for (const key of [other.sandbox.api_key, f.org.production.api_key]) {
      for (const [method, path] of [
        ['GET', `/api/v1/webhook_endpoints/${mine.id}`],
        ['PATCH', `/api/v1/webhook_endpoints/${mine.id}`],
        ['DELETE', `/api/v1/webhook_endpoints/${mine.id}`],
        ['POST', `/api/v1/webhook_endpoints/${mine.id}/roll_secret`],
        ['POST', `/api/v1/webhook_endpoints/${mine.id}/test`],
        ['GET', `/api/v1/webhook_endpoints/${mine.id}/deliveries`],
      ] as const) {
        const res = await f.t.call(method, path, { token: key, ...(method === 'PATCH' ? { body: {} } : {}) });
        expect(res.statusCode, `${method} ${path}`).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
      const list = await f.t.call('GET', '/api/v1/webhook_endpoints', { token: key });
      expect(list.json().data.map((e: { id: string }) => e.id)).not.toContain(mine.id);
    }
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${mine.id}`, { token: sandboxKey() });
  });

  it('pages endpoints newest first with limit and starting_after', async () => {
    const fresh = await f.t.createOrg('Pager');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (await create({ url: `http://localhost:9/${i}`, enabled_events: ['*'] }, fresh.sandbox.api_key)).id,
      );
      f.t.clock.advance(1000);
    }
    const first = await f.t.call('GET', '/api/v1/webhook_endpoints?limit=2', {
      token: fresh.sandbox.api_key,
    });
    expect(first.json().data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.json()).toEqual({ object: 'list', data: expect.any(Array), has_more: true });
    const rest = await f.t.call('GET', `/api/v1/webhook_endpoints?limit=10&starting_after=${ids[3]}`, {
      token: fresh.sandbox.api_key,
    });
    expect(rest.json().data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.json()).toMatchObject({ has_more: false });
  });
});

describe('subscriptions and modes', () => {
  it('delivers exact names, * and prefixes (also to types that did not exist), nothing else', async () => {
    const base = `http://127.0.0.1:${f.receiver.port}`;
    const exact = await create({ url: `${base}/exact`, enabled_events: ['card.created'] });
    const all = await create({ url: `${base}/all`, enabled_events: ['*'] });
    const prefix = await create({ url: `${base}/prefix`, enabled_events: ['card.*'] });
    const deep = await create({ url: `${base}/deep`, enabled_events: ['wallet.*'] });
    for (const type of [
      'card.created',
      'card.brand_new_type',
      'card_flow.started',
      'wallet.balance.low',
      'cards.x',
    ]) {
      await emit(type);
    }
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    const typesOf = async (endpointId: string) => {
      const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`, {
        token: sandboxKey(),
      });
      return log
        .json()
        .data.filter((d: { status: string }) => d.status === 'succeeded')
        .map((d: { event_type: string }) => d.event_type)
        .sort();
    };
    expect(await typesOf(exact.id)).toEqual(['card.created']);
    expect(await typesOf(prefix.id)).toEqual(['card.brand_new_type', 'card.created']);
    expect(await typesOf(deep.id)).toEqual(['wallet.balance.low']);
    expect(await typesOf(all.id)).toEqual(
      ['card.brand_new_type', 'card.created', 'card_flow.started', 'cards.x', 'wallet.balance.low'].sort(),
    );
    expect(f.receiver.received.length - start).toBe(1 + 2 + 1 + 5);
    for (const e of [exact, all, prefix, deep]) {
      await f.t.call('DELETE', `/api/v1/webhook_endpoints/${e.id}`, { token: sandboxKey() });
    }
  });

  it('gives an endpoint only its own mode and organization: livemode events never reach sandbox endpoints', async () => {
    const sandbox = await create({ url: f.receiver.url, enabled_events: ['*'] });
    const production = await create(
      { url: 'https://hooks.example.com/x', enabled_events: ['*'] },
      f.org.production.api_key,
    );
    expect(production.livemode).toBe(true);
    const live = await emit('card.created', true);
    const test = await emit('card.created', false);
    const foreign = await emit('card.created', false, other.organization_id);
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    const seen = f.receiver.eventIds().slice(start);
    expect(seen).toEqual([test.id]);
    expect(seen).not.toContain(live.id);
    expect(seen).not.toContain(foreign.id);
    for (const r of f.receiver.received.slice(start)) expect(JSON.parse(r.body).livemode).toBe(false);
    const prodLog = await f.t.call('GET', `/api/v1/webhook_endpoints/${production.id}/deliveries`, {
      token: f.org.production.api_key,
    });
    expect(prodLog.json().data.map((d: { event_id: string }) => d.event_id)).toEqual([live.id]);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${sandbox.id}`, { token: sandboxKey() });
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${production.id}`, {
      token: f.org.production.api_key,
    });
  });
});

describe('secrets, test events, logs and resend', () => {
  it('roll_secret answers a new secret and the old one stops at once', async () => {
    const endpoint = await create({ url: f.receiver.url, enabled_events: ['card.created'] });
    const rolled = await f.t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/roll_secret`, {
      token: sandboxKey(),
    });
    expect(rolled.statusCode).toBe(200);
    const newSecret = rolled.json().secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    await emit('card.created');
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    const [request] = f.receiver.received.slice(start);
    const now = Math.floor(f.t.clock.now() / 1000);
    const header = String(request!.headers['service-signature']);
    expect(verifySignature(request!.body, header, newSecret, { now })).toBe(true);
    expect(verifySignature(request!.body, header, endpoint.secret, { now })).toBe(false);
    expect(verifySignature(request!.body, header, [endpoint.secret, newSecret], { now })).toBe(true);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: sandboxKey() });
  });

  it('stores the signing secret encrypted, not in clear', async () => {
    const endpoint = await create({ url: f.receiver.url, enabled_events: ['card.created'] });
    const row = await f.t.ctx.db
      .selectFrom('webhook_endpoints')
      .select('secret_ciphertext')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_ciphertext).not.toContain(endpoint.secret.slice(6));
    expect(row.secret_ciphertext).toMatch(/^v1\.[0-9a-f]{8}\./);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: sandboxKey() });
  });

  it('POST /test answers 202 with the event id and delivers a signed test event to that endpoint only', async () => {
    const target = await create({ url: f.receiver.url, enabled_events: ['card.created'] });
    const bystander = await create({ url: f.receiver.url, enabled_events: ['*'] });
    const res = await f.t.call('POST', `/api/v1/webhook_endpoints/${target.id}/test`, {
      token: sandboxKey(),
      body: { type: 'transaction.cleared' },
    });
    expect(res.statusCode).toBe(202);
    const { event_id: eventId } = res.json();
    expect(eventId).toMatch(/^evt_/);
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    const got = f.receiver.received.slice(start);
    expect(got).toHaveLength(1);
    const envelope = JSON.parse(got[0]!.body);
    expect(envelope).toMatchObject({
      id: eventId,
      type: 'transaction.cleared',
      livemode: false,
      data: { test: true },
    });
    expect(
      verifySignature(got[0]!.body, String(got[0]!.headers['service-signature']), target.secret, {
        now: Math.floor(f.t.clock.now() / 1000),
      }),
    ).toBe(true);
    const noBody = await f.t.call('POST', `/api/v1/webhook_endpoints/${target.id}/test`, {
      token: sandboxKey(),
    });
    expect(noBody.statusCode).toBe(202);
    // An empty body sent as JSON is no body too.
    const emptyJson = await f.t.call('POST', `/api/v1/webhook_endpoints/${target.id}/test`, {
      token: sandboxKey(),
      headers: { 'content-type': 'application/json' },
    });
    expect(emptyJson.statusCode, emptyJson.body).toBe(202);
    await f.worker.runOnce();
    expect(JSON.parse(f.receiver.received.at(-1)!.body).type).toBe('webhook_endpoint.test');
    for (const e of [target, bystander])
      await f.t.call('DELETE', `/api/v1/webhook_endpoints/${e.id}`, { token: sandboxKey() });
  });

  it('keeps a delivery log per event across endpoints, and resends one event to one endpoint', async () => {
    const a = await create({ url: f.receiver.url, enabled_events: ['card.updated'] });
    const b = await create({ url: f.receiver.url, enabled_events: ['card.*'] });
    const { id } = await emit('card.updated');
    f.receiver.answer = () => ({ status: 200, body: 'thanks' });
    await f.worker.runOnce();
    const perEvent = await f.t.call('GET', `/api/v1/events/${id}/deliveries`, { token: sandboxKey() });
    expect(perEvent.statusCode).toBe(200);
    expect(
      perEvent
        .json()
        .data.map((d: { endpoint_id: string }) => d.endpoint_id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(perEvent.json().data[0].attempts[0]).toMatchObject({
      status_code: 200,
      // The receiver is on 127.0.0.1: no body is kept from a private destination.
      response_excerpt: null,
    });

    const resend = await f.t.call('POST', `/api/v1/webhook_endpoints/${a.id}/resend`, {
      token: sandboxKey(),
      body: { event_id: id },
    });
    expect(resend.statusCode).toBe(202);
    expect(resend.json()).toMatchObject({
      object: 'webhook_delivery',
      event_id: id,
      endpoint_id: a.id,
      status: 'pending',
    });
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    expect(f.receiver.eventIds().slice(start)).toEqual([id]);
    const filtered = await f.t.call('GET', `/api/v1/webhook_endpoints/${a.id}/deliveries?event_id=${id}`, {
      token: sandboxKey(),
    });
    expect(filtered.json().data).toHaveLength(2);
    expect(filtered.json().data.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);

    const unknown = await f.t.call('POST', `/api/v1/webhook_endpoints/${a.id}/resend`, {
      token: sandboxKey(),
      body: { event_id: 'evt_nope' },
    });
    expect(unknown.statusCode).toBe(404);
    for (const e of [a, b])
      await f.t.call('DELETE', `/api/v1/webhook_endpoints/${e.id}`, { token: sandboxKey() });
  });
});

describe('endpoints changed within one group-commit batch (SQLite)', () => {
  it.skipIf(onPostgres)(
    'an event emitted after a batch member disabled an endpoint owes it nothing',
    async () => {
      const endpoint = await create({ url: 'http://localhost:9/hook', enabled_events: ['*'] });
      const { ctx } = f.t;
      // Batches close by arrival alone here, not 5 ms after they began, which a loaded machine exceeds.
      const group = enableGroupCommit(ctx.db, { maxMembers: 32, maxMilliseconds: 60_000, busyGapMs: 1 });
      const batches = group.stats.batches;
      const emitIn = (type: string) =>
        writeTransaction(ctx, (trx) =>
          ctx.events.emit(trx, { organizationId: f.org.organization_id, livemode: false, type, data: {} }),
        );
      // Held back, the three queue and then run as one batch on one connection, in this order.
      await group.pause();
      const before = emitIn('card.created');
      const disabled = writeTransaction(ctx, (trx) => disableEndpoint(trx, endpoint.id, Date.now()));
      const after = emitIn('card.updated');
      group.resume();
      const [first, , second] = await Promise.all([before, disabled, after]);
      const owed = async (eventId: string) =>
        (
          await ctx.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('event_id', '=', eventId)
            .where('endpoint_id', '=', endpoint.id)
            .execute()
        ).length;
      expect(group.stats.batches).toBe(batches + 1);
      expect(await owed(first.id)).toBe(1);
      expect(await owed(second.id)).toBe(0);
    },
  );
});
