import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTransaction } from '../../src/db/write-transaction.ts';
import { exited, startServer } from '../cli/process.ts';
import { Receiver } from '../events/receiver.ts';
import { useCrashApp } from '../helpers/crash.ts';
import { until } from './helpers.ts';

/**
 * Issue 25: a worker killed while its receiver holds an attempt. The attempt was counted when its
 * lease was taken: the next worker records it as interrupted (outcome unknown) and resends it as
 * attempt 2; the delivery log shows both.
 */
describe('a worker crash mid-delivery', () => {
  const f = useCrashApp('Lease', {
    LOG_LEVEL: 'info',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_LEASE_MS: '2000',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    HEALTH_PORT: '0',
  });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('records the interrupted attempt as unknown and resends it as attempt 2', async () => {
    const scope = { organizationId: f.org.organization_id, livemode: false };
    const endpoint = await f.ctx.events.createEndpoint(scope, {
      url: receiver.url,
      enabled_events: ['card.*'],
    });
    // The first request is held unanswered; the worker dies while it waits.
    receiver.answer = () => 'hang';
    const event = await writeTransaction(f.ctx, (trx) =>
      f.ctx.events.emit(trx, { ...scope, type: 'card.created', data: { id: 'card_lease' } }),
    );

    const first = await startServer(f.env, ['worker']);
    f.children.push(first.child);
    await receiver.waitFor(1, 30_000);
    first.child.kill('SIGKILL');
    await exited(first.child);

    receiver.answer = () => ({ status: 200 });
    const second = await startServer(f.env, ['worker']);
    f.children.push(second.child);
    await receiver.waitFor(2, 30_000);
    expect(receiver.eventIds()).toEqual([event.id, event.id]);
    expect(receiver.received.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2']);

    await until(async () => {
      const page = await f.ctx.events.listDeliveries(scope, { endpointId: endpoint.id }, { limit: 10 });
      return page.data[0]?.status === 'succeeded';
    });
    const [delivery] = (await f.ctx.events.listDeliveries(scope, { endpointId: endpoint.id }, { limit: 10 }))
      .data;
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(delivery?.attempts).toMatchObject([
      { attempt: 1, outcome: 'unknown', succeeded: false, status_code: null },
      { attempt: 2, outcome: 'succeeded', succeeded: true, status_code: 200 },
    ]);
    // The interrupted attempt began when its lease was taken: before the resend.
    expect(delivery!.attempts[0]!.attempted_at).toBeLessThanOrEqual(delivery!.attempts[1]!.attempted_at);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 120_000);
});
