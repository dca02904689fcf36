import { describe, expect, it } from 'vitest';
import { SECOND } from '../../src/core/clock.ts';
import { writeTransaction } from '../../src/db/write-transaction.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { useCards } from '../cards/helpers.ts';
import { Receiver } from '../events/receiver.ts';
import { quiet } from '../helpers/fixtures.ts';
import { onPostgres, startTestApp } from '../helpers/harness.ts';

/** The value of one series in a Prometheus text exposition (undefined: absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * Issue 25: what an operator watches, on /metrics: the webhook backlog and its oldest due age,
 * attempts by outcome, card authorization decisions and their latency, the worker's chores, the
 * database pool (PostgreSQL) and Redis.
 */
describe('/metrics for operators', () => {
  const f = useCards();

  const scrape = async () => (await f.t.call('GET', '/metrics')).body;

  it('card authorizations by decision, with a latency histogram', async () => {
    const userId = await f.approvedUser(1_000);
    const card = await f.createCard(userId, 500);
    await f.authorize(card.id as string, 200);
    await f.authorize(card.id as string, 200);
    await f.authorize(card.id as string, 5_000);
    const text = await scrape();
    expect(sample(text, 'purser_card_authorizations_total{decision="approved"}')).toBe(2);
    expect(sample(text, 'purser_card_authorizations_total{decision="declined"}')).toBe(1);
    expect(sample(text, 'purser_card_authorization_duration_seconds_count{decision="approved"}')).toBe(2);
    expect(
      sample(text, 'purser_card_authorization_duration_seconds_bucket{le="+Inf",decision="declined"}'),
    ).toBe(1);
  });

  it('the webhook backlog, its oldest due age and attempts by outcome', async () => {
    const receiver = await Receiver.start();
    try {
      const t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' });
      try {
        const org = await t.createOrg();
        const scope = { organizationId: org.organization_id, livemode: false };
        await t.ctx.events.createEndpoint(scope, { url: receiver.url, enabled_events: ['card.*'] });
        for (let i = 0; i < 3; i++)
          await writeTransaction(t.ctx, (trx) =>
            t.ctx.events.emit(trx, { ...scope, type: 'card.created', data: {} }),
          );
        t.clock.advance(7 * SECOND);
        const worker = new Worker(t.ctx, quiet);
        const before = (await t.call('GET', '/metrics')).body;
        expect(sample(before, 'purser_webhook_backlog{state="due"}')).toBe(3);
        expect(sample(before, 'purser_webhook_oldest_due_age_seconds')).toBe(7);

        // The first attempt fails (a retry is scheduled), the others succeed.
        let calls = 0;
        receiver.answer = () => ({ status: ++calls === 1 ? 500 : 200 });
        await worker.runOnce();
        const after = (await t.call('GET', '/metrics')).body;
        expect(sample(after, 'purser_webhook_backlog{state="due"}')).toBe(0);
        expect(sample(after, 'purser_webhook_backlog{state="scheduled"}')).toBe(1);
        expect(sample(after, 'purser_webhook_oldest_due_age_seconds')).toBe(0);
        expect(sample(after, 'purser_webhook_deliveries_total{outcome="succeeded"}')).toBe(2);
        expect(sample(after, 'purser_webhook_deliveries_total{outcome="retrying"}')).toBe(1);
      } finally {
        await t.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it('the database pool on PostgreSQL, and Redis off without REDIS_URL', async () => {
    const text = await scrape();
    expect(sample(text, 'purser_db_up')).toBe(1);
    if (onPostgres) {
      expect(sample(text, 'purser_db_pool_max')).toBe(10);
      expect(sample(text, 'purser_db_pool_size')).toBeGreaterThan(0);
      expect(sample(text, 'purser_db_pool_waiting')).toBe(0);
    } else expect(sample(text, 'purser_db_pool_max')).toBeUndefined();
    expect(sample(text, 'purser_redis_up')).toBeUndefined();
  });
});
