import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE, SECOND } from '../../src/core/clock.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { startTestApp } from '../helpers/harness.ts';
import { useWebhookApp } from './helpers.ts';
import { testEncryptionKey } from './receiver.ts';

const f = useWebhookApp({
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
  WEBHOOK_LEASE_MS: '30000',
  // The receivers listen on 127.0.0.1: a private destination, allowed here explicitly.
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
});

const key = () => f.org.sandbox.api_key;

async function create(url: string, enabled_events = ['*'], apiKey = key()) {
  const res = await f.t.call('POST', '/api/v1/webhook_endpoints', {
    token: apiKey,
    body: { url, enabled_events },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function emit(type = 'card.created', livemode = false) {
  return f.t.ctx.db
    .transaction()
    .execute((trx) =>
      f.t.ctx.events.emit(trx, { organizationId: f.org.organization_id, livemode, type, data: {} }),
    );
}

const endpointOf = async (id: string) =>
  (await f.t.call('GET', `/api/v1/webhook_endpoints/${id}`, { token: key() })).json();

/** Runs passes over `ms` of clock time, a pass every hour (so every retry falls due). */
async function runFor(ms: number) {
  const end = f.t.clock.now() + ms;
  while (f.t.clock.now() < end) {
    f.t.clock.advance(Math.min(HOUR, end - f.t.clock.now()));
    await f.worker.runOnce();
  }
}

describe('auto-disable after 7 days of total failure', () => {
  it('disables the endpoint, emails the billing address, and PATCH status active re-enables it', async () => {
    const path = `http://127.0.0.1:${f.receiver.port}/auto-disable`;
    f.receiver.answer = (r) =>
      r.headers['service-delivery-id'] && failing ? { status: 500 } : { status: 200 };
    let failing = true;
    const endpoint = await create(path, ['card.*']);
    await emit();
    await f.worker.runOnce();
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

    const mail = (await f.t.ctx.notifications.sentMessages(1000)).filter(
      (m) => m.channel === 'email' && m.body.includes(endpoint.id),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ recipient: 'billing@acme.test', organization_id: f.org.organization_id });
    expect(mail[0]!.subject).toContain('disabled');
    // And the operator sees a warning in the app's log, naming the endpoint but not its URL.
    const warning = f.t.logs.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.endpoint_id === endpoint.id && l.level === 40);
    expect(warning?.msg).toBe('webhook endpoint disabled after repeated failures');
    expect(JSON.stringify(warning)).not.toContain('127.0.0.1');

    // Disabled: nothing new is owed to it, and test/resend are refused.
    const seen = f.receiver.received.length;
    await emit();
    await runFor(2 * HOUR);
    expect(f.receiver.received.length).toBe(seen);
    const test = await f.t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, { token: key() });
    expect(test.statusCode).toBe(409);
    expect(test.json().error.code).toBe('endpoint_disabled');

    failing = false;
    const enabled = await f.t.call('PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, {
      token: key(),
      body: { status: 'active' },
    });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json()).toMatchObject({ status: 'active', failure_count: 0, disabled_at: null });
    const { id } = await emit();
    await f.worker.runOnce();
    expect(f.receiver.eventIds().at(-1)).toBe(id);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('a success in between resets the clock', async () => {
    let failing = true;
    f.receiver.answer = () => (failing ? { status: 500 } : { status: 200 });
    const endpoint = await create(`http://127.0.0.1:${f.receiver.port}/reset`, ['card.*']);
    await emit();
    await f.worker.runOnce();
    await runFor(4 * DAY);
    failing = false;
    await emit();
    await f.worker.runOnce();
    expect((await endpointOf(endpoint.id)).failure_count).toBe(0);
    failing = true;
    // Day 4 to day 10: six days of failure since the success, though nine since the first failure.
    for (let day = 0; day < 6; day++) {
      await emit();
      await runFor(DAY);
    }
    expect((await endpointOf(endpoint.id)).status).toBe('active');
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
    f.receiver.answer = () => ({ status: 200 });
  });
});

describe('at-least-once with leases', () => {
  it('a delivery claimed by a worker that died is claimed again after the lease; the stale worker cannot overwrite', async () => {
    f.receiver.answer = () => ({ status: 200 });
    const endpoint = await create(f.receiver.url, ['card.updated']);
    const { id } = await emit('card.updated');
    // A worker claims and dies before attempting.
    const [stale] = await f.t.ctx.events.deliveries.claim(10);
    expect(stale?.event_id).toBe(id);
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    expect(f.receiver.received.length).toBe(start);
    f.t.clock.advance(30 * SECOND);
    await f.worker.runOnce();
    expect(f.receiver.eventIds().slice(start)).toEqual([id]);
    // The "dead" worker comes back and attempts with its old lease: the receiver may see a duplicate
    // (at-least-once), but the record belongs to the current holder only.
    expect(await f.t.ctx.events.deliveries.attempt(stale!)).toBe('lost');
    const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: key(),
    });
    // The claim that died counted as attempt 1, its outcome unknown; the resend was attempt 2.
    expect(log.json().data[0]).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(log.json().data[0].attempts).toMatchObject([
      {
        attempt: 1,
        outcome: 'unknown',
        succeeded: false,
        status_code: null,
        error: expect.stringMatching(/interrupted/),
      },
      { attempt: 2, outcome: 'succeeded', succeeded: true, status_code: 200 },
    ]);
    expect(f.receiver.received[start]?.headers['service-delivery-attempt']).toBe('2');
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('concurrent claims never hand out the same delivery twice', async () => {
    const endpoint = await create(f.receiver.url, ['card.closed']);
    for (let i = 0; i < 12; i++) await emit('card.closed');
    const claims = await Promise.all([1, 2, 3, 4].map(() => f.t.ctx.events.deliveries.claim(5)));
    const ids = claims.flat().map((c) => c.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    f.t.clock.advance(30 * SECOND);
    await f.worker.runOnce();
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('a claim of more deliveries than one statement lists: each sent once and recorded once', async () => {
    f.receiver.answer = () => ({ status: 200 });
    const endpoint = await create(f.receiver.url, ['transaction.cleared']);
    const emitted: string[] = [];
    for (let i = 0; i < 101; i++) emitted.push((await emit('transaction.cleared')).id);
    const start = f.receiver.received.length;
    const claimed = await f.t.ctx.events.deliveries.claim(101);
    expect(claimed.map((c) => c.event_id).sort()).toEqual([...emitted].sort());
    // Recorded together: one flush settles all 101 under one lease and inserts their attempts.
    const outcomes = await Promise.all(claimed.map((c) => f.t.ctx.events.deliveries.attempt(c)));
    expect(outcomes.every((outcome) => outcome === 'succeeded')).toBe(true);
    expect(f.receiver.eventIds().slice(start).sort()).toEqual([...emitted].sort());
    const rows = await f.t.ctx.db
      .selectFrom('webhook_deliveries as d')
      .leftJoin('webhook_attempts as a', 'a.delivery_id', 'd.id')
      .select(['d.status', 'd.attempts', 'd.lease_token', 'a.attempt', 'a.succeeded'])
      .where('d.endpoint_id', '=', endpoint.id)
      .execute();
    expect(rows).toHaveLength(101);
    expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1 && r.lease_token === null)).toBe(
      true,
    );
    expect(rows.every((r) => r.attempt === 1 && r.succeeded === 1)).toBe(true);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('the worker loop delivers on its own, and stop() waits for attempts in flight', async () => {
    const endpoint = await create(f.receiver.url, ['transaction.authorized']);
    f.receiver.answer = () => ({ status: 200, delayMs: 200 });
    const loop = new Worker(f.t.ctx, { info: () => {}, error: () => {} });
    loop.start();
    const start = f.receiver.received.length;
    const emitted = [];
    for (let i = 0; i < 5; i++) emitted.push((await emit('transaction.authorized')).id);
    await f.receiver.waitFor(start + 5);
    await loop.stop();
    expect(f.receiver.eventIds().slice(start).sort()).toEqual(emitted.sort());
    const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: key(),
    });
    expect(log.json().data.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
    f.receiver.answer = () => ({ status: 200 });
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
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
    expect(f.t.ctx.config.webhooks).toMatchObject({ retryScheduleSeconds: [60, 300, 1800, 3600] });
    expect(MINUTE).toBe(60_000);
  });
});
