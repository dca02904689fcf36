import { describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../../src/core/clock.ts';
import { useWebhookApp } from '../events/helpers.ts';
import { consoleSteps } from './helpers.ts';

/** The console's overview: 30 days of transactions and webhook success, as SVG and as a table. */
const f = useWebhookApp({
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1',
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
});
const { member, get, page } = consoleSteps(f);

describe('the overview', () => {
  it('counts webhook deliveries that succeeded and failed per day, drawn server-side with the figures beside', async () => {
    const owner = await member('viewer');
    const scope = { organizationId: f.org.organization_id, livemode: false };
    const endpoint = await f.t.ctx.events.createEndpoint(scope, {
      url: f.receiver.url,
      enabled_events: ['*'],
    });
    // Yesterday: one failure. Today: three successes and one failure.
    f.t.clock.advance(-DAY);
    f.receiver.answer = () => ({ status: 500 });
    await f.t.ctx.events.sendTestEvent(scope, endpoint.id, undefined);
    await f.worker.runOnce();
    f.t.clock.advance(SECOND);
    await f.worker.runOnce();
    f.t.clock.advance(DAY);
    await f.t.ctx.events.sendTestEvent(scope, endpoint.id, undefined);
    await f.worker.runOnce();
    f.t.clock.advance(SECOND);
    await f.worker.runOnce();
    f.receiver.answer = () => ({ status: 200, body: 'ok' });
    for (let i = 0; i < 3; i++) await f.t.ctx.events.sendTestEvent(scope, endpoint.id, undefined);
    await f.worker.runOnce();

    const shown = await get(page('overview'), owner.cookie);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain('<script');
    expect(shown.body).toContain('<svg id="chart-transactions"');
    expect(shown.body).toContain('<svg id="chart-webhooks"');
    expect(/id="webhook-rate">([^<]+)</.exec(shown.body)?.[1]).toBe('60.0 %');
    const table = /<table id="overview">[\s\S]*?<\/table>/.exec(shown.body)![0];
    const rows = [...table.matchAll(/<tr><td>([\d-]+)<\/td>((?:<td class="num">[^<]*<\/td>)+)<\/tr>/g)].map(
      (m) => [m[1], ...[...m[2]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((c) => c[1])],
    );
    expect(rows).toHaveLength(30);
    const today = new Date(f.t.clock.now()).toISOString().slice(0, 10);
    const yesterday = new Date(f.t.clock.now() - DAY).toISOString().slice(0, 10);
    expect(rows[0]).toEqual([today, '0', '0', '3', '1', '75 %']);
    expect(rows[1]).toEqual([yesterday, '0', '0', '0', '1', '0 %']);
    expect(rows[2]![5]).toBe('—');
    // The chart has a bar for each day with deliveries, titled with its figure.
    expect(shown.body).toContain(`<title>${today}: 75 %</title>`);
    // Another mode sees none of it.
    const live = await get(page('overview', 'production'), owner.cookie);
    expect(/id="webhook-rate">([^<]+)</.exec(live.body)?.[1]).toBe('—');
  });
});
