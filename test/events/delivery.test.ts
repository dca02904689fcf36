import { afterEach, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../src/core/clock.ts';
import { useWebhookApp } from './helpers.ts';
import { expectedSignatures, Receiver } from './receiver.ts';

const f = useWebhookApp({
  // The receivers listen on 127.0.0.1: a private destination, allowed here explicitly.
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_LEASE_MS: '5000',
});
afterEach(() => {
  f.receiver.answer = () => ({ status: 200, body: 'ok' });
});

const key = () => f.org.sandbox.api_key;

async function createEndpoint(body: Record<string, unknown>, apiKey = key()) {
  const res = await f.t.call('POST', '/api/v1/webhook_endpoints', { token: apiKey, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; status: string };
}

async function emit(type: string, data: Record<string, unknown> = {}, livemode = false) {
  return f.t.ctx.db
    .transaction()
    .execute((trx) =>
      f.t.ctx.events.emit(trx, { organizationId: f.org.organization_id, livemode, type, data }),
    );
}

describe('webhook delivery', () => {
  it('POSTs the raw envelope signed with Service-Signature and the legacy header', async () => {
    const endpoint = await createEndpoint({ url: f.receiver.url, enabled_events: ['card.created'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const { id } = await emit('card.created', { id: 'card_1', last4: '4242' });
    const before = f.receiver.received.length;
    await f.worker.runOnce();
    expect(f.receiver.received.length).toBe(before + 1);
    const request = f.receiver.received.at(-1)!;
    const envelope = JSON.parse(request.body);
    expect(envelope).toEqual({
      id,
      type: 'card.created',
      created: Math.floor(f.t.clock.now() / 1000),
      livemode: false,
      data: { id: 'card_1', last4: '4242' },
    });
    expect(Object.keys(envelope)).toEqual(['id', 'type', 'created', 'livemode', 'data']);
    const t0 = Number(/^t=(\d+),/.exec(String(request.headers['service-signature']))![1]);
    expect(t0).toBe(Math.floor(f.t.clock.now() / 1000));
    const expected = expectedSignatures(endpoint.secret, request.body, t0);
    expect(request.headers['service-signature']).toBe(expected.current);
    expect(request.headers['x-service-signature']).toBe(expected.legacy);
    expect(request.headers['service-event-id']).toBe(id);
    expect(request.headers['service-delivery-attempt']).toBe('1');
    expect(request.headers['content-type']).toBe('application/json');
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('retries failures on the backoff schedule, up to 5 attempts, then gives up', async () => {
    const endpoint = await createEndpoint({ url: f.receiver.url, enabled_events: ['card.updated'] });
    f.receiver.answer = () => ({ status: 503, body: 'down for maintenance' });
    const { id } = await emit('card.updated');
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    expect(f.receiver.received.length - start).toBe(1);
    // Default schedule 1m, 5m, 30m, 60m: nothing is due a second early, each is due on time.
    for (const wait of [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 60 * MINUTE]) {
      const seen = f.receiver.received.length;
      f.t.clock.advance(wait - SECOND);
      await f.worker.runOnce();
      expect(f.receiver.received.length).toBe(seen);
      f.t.clock.advance(SECOND);
      await f.worker.runOnce();
      expect(f.receiver.received.length).toBe(seen + 1);
    }
    const attempts = f.receiver.received.slice(start).map((r) => r.headers['service-delivery-attempt']);
    expect(attempts).toEqual(['1', '2', '3', '4', '5']);
    expect(new Set(f.receiver.eventIds().slice(start))).toEqual(new Set([id]));
    f.t.clock.advance(24 * 60 * MINUTE);
    await f.worker.runOnce();
    expect(f.receiver.received.length - start).toBe(5);

    const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: key(),
    });
    expect(log.statusCode).toBe(200);
    const [delivery] = log.json().data;
    expect(delivery).toMatchObject({
      event_id: id,
      status: 'failed',
      attempt_count: 5,
      last_status_code: 503,
    });
    expect(delivery.attempts).toHaveLength(5);
    expect(delivery.attempts[0]).toMatchObject({
      attempt: 1,
      status_code: 503,
      succeeded: false,
      // The receiver is on 127.0.0.1: no body is kept from a private destination.
      response_excerpt: null,
    });
    expect(delivery.attempts[0].duration_ms).toEqual(expect.any(Number));
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('acknowledges on any 2xx and stops retrying', async () => {
    const endpoint = await createEndpoint({ url: f.receiver.url, enabled_events: ['*'] });
    // A receiver that takes 5 s to answer: the attempt is logged at when it began.
    f.receiver.answer = () => {
      f.t.clock.advance(5 * SECOND);
      return { status: 204 };
    };
    await emit('card.closed');
    const start = f.receiver.received.length;
    const began = Math.floor(f.t.clock.now() / 1000);
    await f.worker.runOnce();
    f.receiver.answer = () => ({ status: 204 });
    f.t.clock.advance(2 * 60 * MINUTE);
    await f.worker.runOnce();
    expect(f.receiver.received.length - start).toBe(1);
    const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: key(),
    });
    expect(log.json().data[0]).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
      last_status_code: 204,
    });
    expect(log.json().data[0].attempts[0].attempted_at).toBe(began);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('spec §6 Delivery 1: any 2xx acknowledges; every other status is a failure, redirects never followed', async () => {
    const endpoint = await createEndpoint({ url: f.receiver.url, enabled_events: ['card.updated'] });
    const elsewhere = await Receiver.start();
    try {
      const table: [number, 'succeeded' | 'pending'][] = [
        [200, 'succeeded'],
        [201, 'succeeded'],
        [202, 'succeeded'],
        [204, 'succeeded'],
        [299, 'succeeded'],
        [300, 'pending'],
        [301, 'pending'],
        [302, 'pending'],
        [303, 'pending'],
        [304, 'pending'],
        [307, 'pending'],
        [308, 'pending'],
        [400, 'pending'],
        [401, 'pending'],
        [404, 'pending'],
        [409, 'pending'],
        [410, 'pending'],
        [429, 'pending'],
        [500, 'pending'],
        [502, 'pending'],
        [503, 'pending'],
      ];
      for (const [status, outcome] of table) {
        // A redirect points at a receiver that would acknowledge: following it would hide the failure.
        f.receiver.answer = () => ({ status, headers: { location: elsewhere.url } });
        const { id } = await emit('card.updated');
        await f.worker.runOnce();
        const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
          token: key(),
        });
        const delivery = log.json().data.find((d: { event_id: string }) => d.event_id === id);
        expect(delivery, `HTTP ${status}`).toMatchObject({
          status: outcome,
          attempt_count: 1,
          last_status_code: status,
        });
        expect(delivery.attempts[0].succeeded, `HTTP ${status}`).toBe(outcome === 'succeeded');
      }
      expect(elsewhere.received).toHaveLength(0);
    } finally {
      await elsewhere.close();
      await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
    }
  });

  it('counts a receiver that does not answer within the timeout as a failure, then retries', async () => {
    const endpoint = await createEndpoint({ url: f.receiver.url, enabled_events: ['balance.low'] });
    f.receiver.answer = () => 'hang';
    await emit('balance.low');
    // The receiver never answers: this pass returns only because the attempt timed out.
    await f.worker.runOnce();
    const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: key(),
    });
    const [delivery] = log.json().data;
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null });
    expect(delivery.attempts[0].error).toMatch(/timeout/);
    f.receiver.answer = () => ({ status: 200 });
    f.t.clock.advance(MINUTE);
    await f.worker.runOnce();
    const after = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: key(),
    });
    expect(after.json().data[0]).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('records a network error (nothing listening) as a failed attempt', async () => {
    const closed = await Receiver.start();
    const url = closed.url;
    await closed.close();
    const endpoint = await createEndpoint({ url, enabled_events: ['card.created'] });
    await emit('card.created');
    await f.worker.runOnce();
    const log = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: key(),
    });
    expect(log.json().data[0].attempts[0].error).toMatch(/network error: ECONNREFUSED/);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('writes the event with the transaction that causes it: a rollback leaves no event and no delivery', async () => {
    const endpoint = await createEndpoint({ url: f.receiver.url, enabled_events: ['*'] });
    let emitted = '';
    await expect(
      f.t.ctx.db.transaction().execute(async (trx) => {
        emitted = (
          await f.t.ctx.events.emit(trx, {
            organizationId: f.org.organization_id,
            livemode: false,
            type: 'cardholder.created',
            data: {},
          })
        ).id;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(emitted).toMatch(/^evt_/);
    const token = await f.t.platformToken(f.org.sandbox);
    expect((await f.t.call('GET', `/api/v2/events/${emitted}`, { token })).statusCode).toBe(404);
    const start = f.receiver.received.length;
    await f.worker.runOnce();
    expect(f.receiver.received.length).toBe(start);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('owes each event to the endpoints matching it when it is emitted, as they change between emits', async () => {
    const first = await createEndpoint({ url: f.receiver.url, enabled_events: ['card.*'] });
    let second: typeof first | undefined;
    /** Which endpoints the event went to, told apart by the secret that signed each request. */
    const owedTo = async (type: string) => {
      const { id } = await emit(type);
      const start = f.receiver.received.length;
      await f.worker.runOnce();
      return f.receiver.received
        .slice(start)
        .filter((r) => JSON.parse(r.body).id === id)
        .map((r) => {
          const signature = String(r.headers['service-signature']);
          const t0 = Number(/^t=(\d+),/.exec(signature)![1]);
          const signedBy = (e: typeof first) =>
            expectedSignatures(e.secret, r.body, t0).current === signature;
          return signedBy(first) ? 'first' : second && signedBy(second) ? 'second' : 'unknown';
        })
        .sort();
    };
    expect(await owedTo('card.created')).toEqual(['first']);
    second = await createEndpoint({ url: f.receiver.url, enabled_events: ['*'] });
    expect(await owedTo('card.created')).toEqual(['first', 'second']);
    expect(await owedTo('balance.low')).toEqual(['second']);
    const disabled = await f.t.call('PATCH', `/api/v1/webhook_endpoints/${first.id}`, {
      token: key(),
      body: { status: 'disabled' },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(await owedTo('card.created')).toEqual(['second']);
    for (const { id } of [first, second])
      await f.t.call('DELETE', `/api/v1/webhook_endpoints/${id}`, { token: key() });
  });
});
