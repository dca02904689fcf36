import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, SECOND } from '../../src/core/clock.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { Receiver, testEncryptionKey } from './receiver.ts';

let t: TestApp;
let org: CreatedOrganization;
let receiver: Receiver;
let worker: Worker;

beforeAll(async () => {
  t = await startTestApp({
    ENCRYPTION_KEY: testEncryptionKey(),
    WEBHOOK_RETRY_JITTER_PERCENT: '0',
    WEBHOOK_LEASE_MS: '30000',
    // The receivers listen on 127.0.0.1: a private destination, allowed here explicitly.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  });
  org = await t.createOrg();
  receiver = await Receiver.start();
  worker = new Worker(t.ctx, { info: () => {}, error: () => {} });
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const key = () => org.sandbox.api_key;

async function create(url: string, enabled_events = ['*'], apiKey = key()) {
  const res = await t.call('POST', '/api/v1/webhook_endpoints', {
    token: apiKey,
    body: { url, enabled_events },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function emit(type = 'card.created', livemode = false) {
  return t.ctx.db
    .transaction()
    .execute((trx) =>
      t.ctx.events.emit(trx, { organizationId: org.organization_id, livemode, type, data: {} }),
    );
}

const endpointOf = async (id: string) =>
  (await t.call('GET', `/api/v1/webhook_endpoints/${id}`, { token: key() })).json();

/** Runs passes over `ms` of clock time, a pass every hour (so every retry falls due). */
async function runFor(ms: number) {
  const end = t.clock.now() + ms;
  while (t.clock.now() < end) {
    t.clock.advance(Math.min(HOUR, end - t.clock.now()));
    await worker.runOnce();
  }
}

describe('auto-disable after 7 days of total failure', () => {
  it('disables the endpoint, emails the billing address, and PATCH status active re-enables it', async () => {
    const path = `http://127.0.0.1:${receiver.port}/auto-disable`;
    receiver.answer = (r) =>
      r.headers['service-delivery-id'] && failing ? { status: 500 } : { status: 200 };
    let failing = true;
    const endpoint = await create(path, ['card.*']);
    await emit();
    await worker.runOnce();
    // A failing event every day: still active just before the 7 days are up.
    for (let day = 1; day < 7; day++) {
      await runFor(DAY - HOUR);
      await emit();
      await runFor(HOUR);
    }
    await runFor(DAY - 2 * HOUR);
    const before = await endpointOf(endpoint.id);
    expect(before.status).toBe('active');
    expect(before.failure_count).toBeGreaterThan(20);
    await emit();
    await runFor(2 * HOUR);
    const after = await endpointOf(endpoint.id);
    expect(after.status).toBe('disabled');
    expect(after.disabled_at).toEqual(expect.any(Number));

    const mail = (await t.ctx.notifications.outbox(50)).filter(
      (m) => m.channel === 'email' && m.body.includes(endpoint.id),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ recipient: 'billing@acme.test', organization_id: org.organization_id });
    expect(mail[0]!.subject).toContain('disabled');
    // And the operator sees a warning in the app's log, naming the endpoint but not its URL.
    const warning = t.logs.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.endpoint_id === endpoint.id && l.level === 40);
    expect(warning?.msg).toBe('webhook endpoint disabled after repeated failures');
    expect(JSON.stringify(warning)).not.toContain('127.0.0.1');

    // Disabled: nothing new is owed to it, and test/resend are refused.
    const seen = receiver.received.length;
    await emit();
    await runFor(2 * HOUR);
    expect(receiver.received.length).toBe(seen);
    const test = await t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, { token: key() });
    expect(test.statusCode).toBe(409);
    expect(test.json().error.code).toBe('endpoint_disabled');

    failing = false;
    const enabled = await t.call('PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, {
      token: key(),
      body: { status: 'active' },
    });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json()).toMatchObject({ status: 'active', failure_count: 0, disabled_at: null });
    const { id } = await emit();
    await worker.runOnce();
    expect(receiver.eventIds().at(-1)).toBe(id);
    await t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('a success in between resets the clock', async () => {
    let failing = true;
    receiver.answer = () => (failing ? { status: 500 } : { status: 200 });
    const endpoint = await create(`http://127.0.0.1:${receiver.port}/reset`, ['card.*']);
    await emit();
    await worker.runOnce();
    await runFor(4 * DAY);
    failing = false;
    await emit();
    await worker.runOnce();
    expect((await endpointOf(endpoint.id)).failure_count).toBe(0);
    failing = true;
    // Day 4 to day 10: six days of failure since the success, though nine since the first failure.
    for (let day = 0; day < 6; day++) {
      await emit();
      await runFor(DAY);
    }
    expect((await endpointOf(endpoint.id)).status).toBe('active');
    await t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
    receiver.answer = () => ({ status: 200 });
  });
});

describe('at-least-once with leases', () => {
  it('a delivery claimed by a worker that died is claimed again after the lease; the stale worker cannot overwrite', async () => {
    receiver.answer = () => ({ status: 200 });
    const endpoint = await create(receiver.url, ['card.updated']);
    const { id } = await emit('card.updated');
    // A worker claims and dies before attempting.
    const [stale] = await t.ctx.events.deliveries.claim(10);
    expect(stale?.event_id).toBe(id);
    const start = receiver.received.length;
    await worker.runOnce();
    expect(receiver.received.length).toBe(start);
    t.clock.advance(30 * SECOND);
    await worker.runOnce();
    expect(receiver.eventIds().slice(start)).toEqual([id]);
    // The "dead" worker comes back and attempts with its old lease: the receiver may see a duplicate
    // (at-least-once), but the record belongs to the current holder only.
    expect(await t.ctx.events.deliveries.attempt(stale!)).toBe('lost');
    const log = await t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, { token: key() });
    expect(log.json().data[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(log.json().data[0].attempts).toHaveLength(1);
    await t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('concurrent claims never hand out the same delivery twice', async () => {
    const endpoint = await create(receiver.url, ['card.closed']);
    for (let i = 0; i < 12; i++) await emit('card.closed');
    const claims = await Promise.all([1, 2, 3, 4].map(() => t.ctx.events.deliveries.claim(5)));
    const ids = claims.flat().map((c) => c.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    t.clock.advance(30 * SECOND);
    await worker.runOnce();
    await t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('the worker loop delivers on its own, and stop() waits for attempts in flight', async () => {
    const endpoint = await create(receiver.url, ['transaction.authorized']);
    receiver.answer = () => ({ status: 200, delayMs: 200 });
    const loop = new Worker(t.ctx, { info: () => {}, error: () => {} });
    loop.start();
    const start = receiver.received.length;
    const emitted = [];
    for (let i = 0; i < 5; i++) emitted.push((await emit('transaction.authorized')).id);
    await receiver.waitFor(start + 5);
    await loop.stop();
    expect(receiver.eventIds().slice(start).sort()).toEqual(emitted.sort());
    const log = await t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, { token: key() });
    expect(log.json().data.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
    receiver.answer = () => ({ status: 200 });
    await t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('backoff follows the configured schedule with jitter within bounds', async () => {
    const jittery = await startTestApp({
      ENCRYPTION_KEY: testEncryptionKey(),
      WEBHOOK_RETRY_SCHEDULE: '10,20',
      WEBHOOK_RETRY_JITTER_PERCENT: '20',
    });
    try {
      const runner = jittery.ctx.events.deliveries;
      expect(runner.maxAttempts).toBe(3);
      const waits = Array.from({ length: 200 }, () => runner.backoffMs(1));
      expect(Math.min(...waits)).toBeGreaterThanOrEqual(8_000);
      expect(Math.max(...waits)).toBeLessThanOrEqual(12_000);
      expect(new Set(waits).size).toBeGreaterThan(10);
      expect(runner.backoffMs(2)).toBeGreaterThanOrEqual(16_000);
    } finally {
      await jittery.close();
    }
    expect(t.ctx.config.webhooks).toMatchObject({ retryScheduleSeconds: [60, 300, 1800, 3600] });
    expect(MINUTE).toBe(60_000);
  });
});
