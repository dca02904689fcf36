import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { DAY, SECOND } from '../../src/core/clock.ts';
import { useWebhookApp } from './helpers.ts';
import { Receiver } from './receiver.ts';

/**
 * `POST /api/v1/webhook_endpoints/{id}/recover {since}` (issue 29): every event whose delivery to the
 * endpoint failed or was cancelled since `since` is owed to it again, once, in the events' order.
 */
const f = useWebhookApp({
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
  // Two attempts a delivery, a second apart: a failure is final after one retry.
  WEBHOOK_RETRY_SCHEDULE: '1',
  WEBHOOK_TIMEOUT_MS: '1000',
});
/** A second endpoint's receiver: what it is owed must be left alone. */
let healthy: Receiver;
beforeAll(async () => {
  healthy = await Receiver.start();
});
afterAll(async () => {
  await healthy.close();
});

const key = () => f.org.sandbox.api_key;
const nowSeconds = () => Math.floor(f.t.clock.now() / 1000);

async function createEndpoint(url: string, token = key()) {
  const res = await f.t.call('POST', '/api/v1/webhook_endpoints', {
    token,
    body: { url, enabled_events: ['card.*'] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function emit(type: string) {
  const { id } = await f.t.ctx.db.transaction().execute((trx) =>
    f.t.ctx.events.emit(trx, {
      organizationId: f.org.organization_id,
      livemode: false,
      type,
      data: {},
    }),
  );
  // Each event a second after the one before: their order is the order of `created`.
  f.t.clock.advance(SECOND);
  return id;
}

/** Runs the worker through the retry schedule: every delivery due now settles. */
async function deliverAll() {
  await f.worker.runOnce();
  f.t.clock.advance(SECOND);
  await f.worker.runOnce();
}

const recover = (endpointId: string, body: unknown, token = key()) =>
  f.t.call('POST', `/api/v1/webhook_endpoints/${endpointId}/recover`, { token, body });

interface Delivery {
  id: string;
  event_id: string;
  status: string;
}
async function deliveries(endpointId: string): Promise<Delivery[]> {
  const res = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`, {
    token: key(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Delivery[] }).data;
}

const receivedIds = (receiver: Receiver) => receiver.received.map((r) => JSON.parse(r.body).id as string);

describe('recovering failed deliveries', () => {
  let endpointId: string;
  let otherId: string;
  let since: number;

  it('queues again each event that failed or was cancelled since `since`, once each, in order', async () => {
    endpointId = (await createEndpoint(f.receiver.url)).id;
    otherId = (await createEndpoint(healthy.url)).id;
    f.receiver.answer = () => ({ status: 503, body: 'down' });

    // Failed before `since`: it stays failed.
    const old = await emit('card.created');
    await deliverAll();
    f.t.clock.advance(60 * SECOND);
    since = nowSeconds();

    // Since: three failures; then, the receiver back, one success; then one cancelled (the endpoint
    // disabled while it was owed) and one failure already sent again by hand (owed: left alone).
    const [a, b, c] = [await emit('card.created'), await emit('card.updated'), await emit('card.closed')];
    // The other endpoint fails `a` too: recovering the first endpoint leaves that one alone.
    healthy.answer = (request) => (JSON.parse(request.body).id === a ? { status: 503 } : { status: 200 });
    await deliverAll();
    healthy.answer = () => ({ status: 200, body: 'ok' });
    expect((await deliveries(endpointId)).map((d) => d.status)).toEqual(Array(4).fill('failed'));
    f.receiver.answer = () => ({ status: 200, body: 'ok' });
    const delivered = await emit('card.updated');
    await deliverAll();
    const cancelled = await emit('card.created');
    for (const status of ['disabled', 'active']) {
      const res = await f.t.call('PATCH', `/api/v1/webhook_endpoints/${endpointId}`, {
        token: key(),
        body: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const resent = await f.t.call('POST', `/api/v1/webhook_endpoints/${endpointId}/resend`, {
      token: key(),
      body: { event_id: c },
    });
    expect(resent.statusCode, resent.body).toBe(202);
    f.t.clock.advance(SECOND);
    const statusOf = async (eventId: string) =>
      (await deliveries(endpointId)).filter((d) => d.event_id === eventId).map((d) => d.status);
    expect(await statusOf(delivered)).toEqual(['succeeded']);
    expect(await statusOf(cancelled)).toEqual(['cancelled']);
    const otherBefore = await deliveries(otherId);
    expect(otherBefore.filter((d) => d.status === 'failed').map((d) => d.event_id)).toEqual([a]);

    const res = await recover(endpointId, { since });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ object: 'webhook_recovery', endpoint_id: endpointId, since, recovered: 3 });

    // Queued in the events' order: the newest-first log shows them last event first.
    const queued = (await deliveries(endpointId)).filter((d) => d.status === 'pending');
    expect(queued.map((d) => d.event_id)).toEqual([cancelled, b, a, c]);
    // The healthy endpoint got nothing new.
    expect(await deliveries(otherId)).toEqual(otherBefore);

    const seen = f.receiver.received.length;
    await f.worker.runOnce();
    const arrived = receivedIds(f.receiver).slice(seen);
    expect(arrived.sort()).toEqual([a, b, c, cancelled].sort());
    expect(arrived).not.toContain(old);
    expect(arrived).not.toContain(delivered);

    // Once each: a second recover finds everything delivered since.
    const again = await recover(endpointId, { since });
    expect(again.json()).toMatchObject({ recovered: 0 });
  });

  it('recovers what failed again, through the CLI too', async () => {
    f.receiver.answer = () => ({ status: 500 });
    const failed = await emit('card.updated');
    await deliverAll();
    f.receiver.answer = () => ({ status: 200, body: 'ok' });
    const printed: string[] = [];
    await runCommand(
      f.t.ctx,
      ['webhook', 'recover', endpointId, '--since', new Date(since * 1000).toISOString(), '--json'],
      (line) => printed.push(line),
    );
    expect(JSON.parse(printed.join('\n'))).toEqual({
      object: 'webhook_recovery',
      endpoint_id: endpointId,
      since,
      recovered: 1,
    });
    const seen = f.receiver.received.length;
    await f.worker.runOnce();
    expect(receivedIds(f.receiver).slice(seen)).toEqual([failed]);
    // The operator's action is in the organization's audit log, as a member's would be.
    const audited = await f.t.ctx.db
      .selectFrom('audit_log')
      .select(['member_email', 'action', 'object_id', 'livemode'])
      .where('organization_id', '=', f.org.organization_id)
      .execute();
    expect(audited).toContainEqual({
      member_email: 'operator (CLI)',
      action: 'webhook_endpoint.recovered',
      object_id: endpointId,
      livemode: 0,
    });
  });

  it('refuses a `since` more than 14 days ago or in the future, and changes nothing', async () => {
    f.receiver.answer = () => ({ status: 500 });
    await emit('card.updated');
    await deliverAll();
    f.receiver.answer = () => ({ status: 200, body: 'ok' });
    const before = await deliveries(endpointId);

    const tooOld = await recover(endpointId, { since: nowSeconds() - 14 * 86_400 - 1 });
    expect(tooOld.statusCode).toBe(400);
    expect(tooOld.json().error).toMatchObject({ code: 'invalid_request' });
    expect(tooOld.json().error.field_errors).toHaveProperty('since');
    // Milliseconds by mistake: far in the future.
    const future = await recover(endpointId, { since: f.t.clock.now() });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.field_errors).toHaveProperty('since');
    for (const body of [{}, { since: 'yesterday' }, { since: -1 }, { since: nowSeconds(), extra: 1 }]) {
      const res = await recover(endpointId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await deliveries(endpointId)).toEqual(before);

    // Exactly 14 days back is allowed: the failure just now, and the one from before the first `since`.
    const edge = await recover(endpointId, { since: nowSeconds() - 14 * 86_400 });
    expect(edge.statusCode, edge.body).toBe(202);
    expect(edge.json()).toMatchObject({ recovered: 2 });
    await f.worker.runOnce();
  });

  it('refuses a disabled endpoint (409) and answers 404 for another mode or organization', async () => {
    const disabled = await f.t.call('PATCH', `/api/v1/webhook_endpoints/${endpointId}`, {
      token: key(),
      body: { status: 'disabled' },
    });
    expect(disabled.statusCode).toBe(200);
    const refused = await recover(endpointId, { since: nowSeconds() - DAY / 1000 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('endpoint_disabled');
    await f.t.call('PATCH', `/api/v1/webhook_endpoints/${endpointId}`, {
      token: key(),
      body: { status: 'active' },
    });

    const live = await recover(endpointId, { since: nowSeconds() }, f.org.production.api_key);
    expect(live.statusCode).toBe(404);
    const stranger = await f.t.createOrg('Stranger');
    const foreign = await recover(endpointId, { since: nowSeconds() }, stranger.sandbox.api_key);
    expect(foreign.statusCode).toBe(404);
    expect((await recover('wh_nothing', { since: nowSeconds() })).statusCode).toBe(404);
  });
});
