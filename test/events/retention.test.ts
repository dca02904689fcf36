import { describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../src/core/clock.ts';
import { useWebhookApp } from './helpers.ts';

const f = useWebhookApp({
  // The receiver listens on 127.0.0.1: a private destination, allowed here explicitly.
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
});

async function emit(type: string) {
  const { id } = await f.t.ctx.db
    .transaction()
    .execute((trx) =>
      f.t.ctx.events.emit(trx, { organizationId: f.org.organization_id, livemode: false, type, data: {} }),
    );
  return id;
}

/** What the tables hold of these events: the events, their deliveries' statuses, their attempts. */
async function stored(eventIds: string[]) {
  const { db } = f.t.ctx;
  const events = await db.selectFrom('events').select('id').where('id', 'in', eventIds).execute();
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status'])
    .where('event_id', 'in', eventIds)
    .execute();
  const attempts =
    deliveries.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .select('delivery_id')
          .where(
            'delivery_id',
            'in',
            deliveries.map((d) => d.id),
          )
          .execute();
  const of = (eventId: string) => {
    const mine = deliveries.filter((d) => d.event_id === eventId);
    return {
      event: events.some((e) => e.id === eventId),
      deliveries: mine.map((d) => d.status),
      attempts: attempts.filter((a) => mine.some((d) => d.id === a.delivery_id)).length,
    };
  };
  return Object.fromEntries(eventIds.map((id) => [id, of(id)]));
}

describe('retention sweep', () => {
  it('removes expired events with their finished deliveries and attempts, keeps what is owed or recent', async () => {
    const res = await f.t.call('POST', '/api/v1/webhook_endpoints', {
      token: f.org.sandbox.api_key,
      body: { url: f.receiver.url, enabled_events: ['card.created', 'card.updated'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    // card.updated fails at the receiver: its delivery stays owed (retrying).
    f.receiver.answer = (request) =>
      JSON.parse(request.body).type === 'card.updated' ? { status: 503 } : { status: 200, body: 'ok' };

    const delivered = await emit('card.created');
    await f.worker.runOnce();
    // Not attempted until the worker runs next, 29 days later: failing then, it is still owed (a
    // failure run shorter than the 7 days that disable an endpoint) when the first three expire.
    const owed = await emit('card.updated');
    const unsubscribed = await emit('user.updated');
    // Later, a resend of the delivered event (a recent delivery of an old event) and a new event.
    f.t.clock.advance(29 * DAY);
    const owner = { organizationId: f.org.organization_id, livemode: false };
    await f.t.ctx.events.resend(owner, res.json().id as string, delivered);
    const recent = await emit('card.created');
    await f.worker.runOnce();

    const before = await stored([delivered, owed, unsubscribed, recent]);
    expect(before[delivered]).toEqual({ event: true, deliveries: ['succeeded', 'succeeded'], attempts: 2 });
    expect(before[owed]).toEqual({ event: true, deliveries: ['pending'], attempts: 1 });
    expect(before[unsubscribed]).toEqual({ event: true, deliveries: [], attempts: 0 });
    expect(before[recent]).toEqual({ event: true, deliveries: ['succeeded'], attempts: 1 });

    // Thirty days and a minute since the first three: of the delivered event, the first delivery and
    // its attempt go, the resend (a day old) stays and keeps its event; the owed one keeps all; the
    // event nobody subscribed to goes.
    f.t.clock.advance(DAY + MINUTE);
    expect(await f.t.ctx.events.pruneExpired()).toBe(1);
    const after = await stored([delivered, owed, unsubscribed, recent]);
    expect(after[delivered]).toEqual({ event: true, deliveries: ['succeeded'], attempts: 1 });
    expect(after[owed]).toEqual(before[owed]);
    expect(after[unsubscribed]).toEqual({ event: false, deliveries: [], attempts: 0 });
    expect(after[recent]).toEqual(before[recent]);

    // The owed delivery settles on its next attempt, and the worker's own hourly sweep removes it,
    // its two attempts and its event.
    f.receiver.answer = () => ({ status: 200, body: 'ok' });
    f.t.clock.advance(HOUR);
    await f.worker.runOnce();
    const gone = { event: false, deliveries: [], attempts: 0 };
    expect((await stored([owed]))[owed]).toEqual(gone);

    // Once the resend and the recent event have aged too, both events go with all of theirs.
    f.t.clock.advance(31 * DAY);
    expect(await f.t.ctx.events.pruneExpired()).toBe(2);
    expect(await stored([delivered, recent])).toEqual({ [delivered]: gone, [recent]: gone });
  });
});
