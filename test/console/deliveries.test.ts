import { describe, expect, it } from 'vitest';
import { useWebhookApp } from '../events/helpers.ts';
import { consoleSteps } from './helpers.ts';

/** A destination's page in the console shows each delivery attempt at the time it was made. */
const f = useWebhookApp({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' });
const { member, get, page } = consoleSteps(f);

describe('the delivery log of a destination', () => {
  it('dates an attempt at the moment it was made, not in 1970', async () => {
    const owner = await member('owner');
    const scope = { organizationId: f.org.organization_id, livemode: false };
    const endpoint = await f.t.ctx.events.createEndpoint(scope, {
      url: f.receiver.url,
      enabled_events: ['*'],
    });
    await f.t.ctx.events.sendTestEvent(scope, endpoint.id, undefined);
    await f.worker.runOnce();
    expect(f.receiver.received).toHaveLength(1);
    const shown = await get(`${page('webhooks')}/${endpoint.id}`, owner.cookie);
    expect(shown.statusCode).toBe(200);
    const deliveries = /<table id="deliveries">[\s\S]*?<\/table>/.exec(shown.body)![0];
    const second = Math.floor(f.t.clock.now() / 1000) * 1000;
    expect(deliveries).toContain(`#1 ${new Date(second).toISOString().replace('T', ' ').slice(0, 19)} → 200`);
  });
});
