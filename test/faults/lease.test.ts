import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { writeTransaction } from '../../src/db/write-transaction.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { exited, startServer } from '../cli/process.ts';
import { Receiver, testEncryptionKey } from '../events/receiver.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { until } from './helpers.ts';

/**
 * Issue 25: a worker killed while its receiver holds an attempt. The attempt was counted when its
 * lease was taken: the next worker records it as interrupted (outcome unknown) and resends it as
 * attempt 2; the delivery log shows both.
 */
describe('a worker crash mid-delivery', () => {
  let database: ReturnType<typeof freshDatabaseUrl>;
  let ctx: AppContext;
  let org: CreatedOrganization;
  let receiver: Receiver;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = freshDatabaseUrl();
    env = {
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: testEncryptionKey(),
      BASE_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'info',
      PURSER_DEMO: 'off',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_LEASE_MS: '2000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
      HEALTH_PORT: '0',
    };
    ctx = await createContext(loadConfig(env));
    org = await ctx.orgs.createOrganization({ name: 'Lease', billingEmail: 'billing@lease.test' });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await receiver?.close();
    await ctx?.close();
    await database?.drop();
  });

  it('records the interrupted attempt as unknown and resends it as attempt 2', async () => {
    const scope = { organizationId: org.organization_id, livemode: false };
    const endpoint = await ctx.events.createEndpoint(scope, {
      url: receiver.url,
      enabled_events: ['card.*'],
    });
    // The first request is held unanswered; the worker dies while it waits.
    receiver.answer = () => 'hang';
    const event = await writeTransaction(ctx, (trx) =>
      ctx.events.emit(trx, { ...scope, type: 'card.created', data: { id: 'card_lease' } }),
    );

    const first = await startServer(env, ['worker']);
    children.push(first.child);
    await receiver.waitFor(1, 30_000);
    first.child.kill('SIGKILL');
    await exited(first.child);

    receiver.answer = () => ({ status: 200 });
    const second = await startServer(env, ['worker']);
    children.push(second.child);
    await receiver.waitFor(2, 30_000);
    expect(receiver.eventIds()).toEqual([event.id, event.id]);
    expect(receiver.received.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2']);

    await until(async () => {
      const page = await ctx.events.listDeliveries(scope, { endpointId: endpoint.id }, { limit: 10 });
      return page.data[0]?.status === 'succeeded';
    });
    const [delivery] = (await ctx.events.listDeliveries(scope, { endpointId: endpoint.id }, { limit: 10 }))
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
