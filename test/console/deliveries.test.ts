import { describe, expect, it } from 'vitest';
import { SECOND } from '../../src/core/clock.ts';
import { useWebhookApp } from '../events/helpers.ts';
import { consoleSteps } from './helpers.ts';

/** A destination's page in the console: its delivery log, and recovering what failed. */
const f = useWebhookApp({
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1',
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
});
const { member, get, post, page } = consoleSteps(f);
const scope = () => ({ organizationId: f.org.organization_id, livemode: false });

describe('the delivery log of a destination', () => {
  it('dates an attempt at the moment it was made, not in 1970', async () => {
    const owner = await member('owner');
    const endpoint = await f.t.ctx.events.createEndpoint(scope(), {
      url: f.receiver.url,
      enabled_events: ['*'],
    });
    await f.t.ctx.events.sendTestEvent(scope(), endpoint.id, undefined);
    await f.worker.runOnce();
    expect(f.receiver.received).toHaveLength(1);
    const shown = await get(`${page('webhooks')}/${endpoint.id}`, owner.cookie);
    expect(shown.statusCode).toBe(200);
    const deliveries = /<table id="deliveries">[\s\S]*?<\/table>/.exec(shown.body)![0];
    const second = Math.floor(f.t.clock.now() / 1000) * 1000;
    expect(deliveries).toContain(`#1 ${new Date(second).toISOString().replace('T', ' ').slice(0, 19)} → 200`);
  });
});

describe('recovering from the console', () => {
  it('queues again what failed, says how many, and records it in the audit log; viewers may not', async () => {
    const owner = await member('owner');
    const endpoint = await f.t.ctx.events.createEndpoint(scope(), {
      url: f.receiver.url,
      enabled_events: ['*'],
    });
    f.receiver.answer = () => ({ status: 503 });
    for (let i = 0; i < 2; i++) await f.t.ctx.events.sendTestEvent(scope(), endpoint.id, undefined);
    await f.worker.runOnce();
    f.t.clock.advance(SECOND);
    await f.worker.runOnce();
    f.receiver.answer = () => ({ status: 200, body: 'ok' });

    const url = `${page('webhooks')}/${endpoint.id}`;
    const shown = await get(url, owner.cookie);
    expect(shown.body).toContain('id="recover"');
    const viewer = await member('viewer');
    const refused = await post(page('webhooks'), viewer.cookie, {
      csrf: viewer.csrf,
      action: 'recover',
      endpoint_id: endpoint.id,
      since: '86400',
    });
    expect(refused.statusCode).toBe(403);
    const odd = await post(page('webhooks'), owner.cookie, {
      csrf: owner.csrf,
      action: 'recover',
      endpoint_id: endpoint.id,
      since: '99999999',
    });
    expect(odd.statusCode).toBe(400);

    const recovered = await post(page('webhooks'), owner.cookie, {
      csrf: owner.csrf,
      action: 'recover',
      endpoint_id: endpoint.id,
      since: '86400',
    });
    expect(recovered.statusCode, recovered.body).toBe(303);
    expect(recovered.headers.location).toBe(`${url}?done=recovered&count=2`);
    const landed = await get(recovered.headers.location as string, owner.cookie);
    expect(landed.body).toContain('2 failed or cancelled deliveries queued again.');
    const seen = f.receiver.received.length;
    await f.worker.runOnce();
    expect(f.receiver.received.length - seen).toBe(2);

    const audit = await get(page('audit'), owner.cookie);
    expect(audit.body).toContain('webhook_endpoint.recovered');
  });

  it('creates a destination signed with Standard Webhooks and switches it back', async () => {
    const owner = await member('developer');
    const created = await post(page('webhooks'), owner.cookie, {
      csrf: owner.csrf,
      action: 'create',
      url: f.receiver.url,
      signature_scheme: 'standard_webhooks',
      events: 'card.created',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = /Destination (wh_\w+) created/.exec(created.body)![1]!;
    expect((await f.t.ctx.events.getEndpoint(scope(), id)).signature_scheme).toBe('standard_webhooks');
    const detail = await get(`${page('webhooks')}/${id}`, owner.cookie);
    expect(detail.body).toContain('signed Standard Webhooks');
    const edited = await post(page('webhooks'), owner.cookie, {
      csrf: owner.csrf,
      action: 'edit',
      endpoint_id: id,
      url: f.receiver.url,
      signature_scheme: 'purser',
      events: 'card.created',
    });
    expect(edited.statusCode, edited.body).toBe(303);
    expect((await f.t.ctx.events.getEndpoint(scope(), id)).signature_scheme).toBe('purser');
  });
});
