import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { EVENT_TYPES } from '../../src/domains/events/catalog.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { testEncryptionKey } from './receiver.ts';

let t: TestApp;
let org: CreatedOrganization;
let platform: string;

beforeAll(async () => {
  t = await startTestApp({ ENCRYPTION_KEY: testEncryptionKey() });
  org = await t.createOrg();
  platform = await t.platformToken(org.sandbox);
});
afterAll(async () => {
  await t.close();
});

const create = (enabled_events: unknown, apiKey = org.sandbox.api_key) =>
  t.call('POST', '/api/v1/webhook_endpoints', {
    token: apiKey,
    body: { url: 'https://hooks.example.com/x', enabled_events },
  });

describe('subscriptions name known event types', () => {
  it('accepts every catalog type, *, and prefixes of known families', async () => {
    const res = await create([
      ...EVENT_TYPES,
      '*',
      'card.*',
      'transaction.*',
      'wallet.*',
      'wallet.balance.*',
    ]);
    expect(res.statusCode, res.body).toBe(201);
    for (const type of [
      'transfer.released',
      'wallet.funded',
      'identity.verification.updated',
      'identity.*',
    ]) {
      expect((await create([type])).statusCode, type).toBe(201);
    }
  });

  it.each([
    ['card.craeted', 'card.created'],
    ['card.create', 'card.created'],
    ['transaction.authorised', 'transaction.authorized'],
    ['cards.*', 'card.*'],
    ['wallet.balance.lo', 'wallet.balance.low'],
    ['transfers.completed', 'transfer.completed'],
    ['card.created.*', 'card.created'],
    ['kyc.updated', null],
    ['wallet.balance.low.*', null],
  ])('refuses %s with invalid_event_type naming the closest known type', async (bad, closest) => {
    for (const apiKey of [org.sandbox.api_key, org.production.api_key]) {
      const res = await create(['card.created', bad], apiKey);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('invalid_event_type');
      expect(error.message).toContain(`"${bad}"`);
      expect(error.field_errors).toHaveProperty('enabled_events');
      if (closest) {
        expect(error.message).toContain(`"${closest}"`);
        expect(error.field_errors.enabled_events).toContain(closest);
      }
    }
  });

  it('the CLI refuses an unknown type the same way', async () => {
    const run = (events: string) =>
      runCommand(
        t.ctx,
        [
          'webhook',
          'create',
          org.organization_id,
          '--mode',
          'sandbox',
          '--url',
          'https://hooks.example.com/c',
          '--events',
          events,
        ],
        () => {},
      );
    await expect(run('card.created,card.clossed')).rejects.toMatchObject({
      code: 'invalid_event_type',
      message: expect.stringContaining('"card.closed"'),
    });
    await expect(run('card.created, transfer.*')).resolves.not.toThrow();
  });

  it('refuses an unknown type on update too, and changes nothing', async () => {
    const endpoint = (await create(['card.created'])).json();
    const res = await t.call('PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, {
      token: org.sandbox.api_key,
      body: { enabled_events: ['card.updated', 'card.updatd'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_event_type' });
    expect(res.json().error.message).toContain('"card.updated"');
    const after = await t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}`, {
      token: org.sandbox.api_key,
    });
    expect(after.json().enabled_events).toEqual(['card.created']);
  });
});

describe('test events', () => {
  const sendTest = async (apiKey: string, body?: unknown) => {
    const endpoint = (await create(['card.created'], apiKey)).json();
    return t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, { token: apiKey, body });
  };

  it('production sends only the test type: a real type is refused', async () => {
    for (const type of ['card.created', 'transaction.authorized', 'transfer.completed', 'card.craeted']) {
      const res = await sendTest(org.production.api_key, { type });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().error.field_errors).toHaveProperty('type');
    }
    for (const body of [undefined, {}, { type: 'webhook_endpoint.test' }]) {
      const res = await sendTest(org.production.api_key, body);
      expect(res.statusCode).toBe(202);
      const event = await t.ctx.events.getEvent(
        { organizationId: org.organization_id, livemode: true },
        res.json().event_id,
      );
      expect(event.type).toBe('webhook_endpoint.test');
    }
  });

  it('refuses a test event to a destination the rules no longer allow', async () => {
    t.ctx.config.webhooks.allowPrivateDestinations = { production: false, sandbox: true };
    const endpoint = (
      await t.call('POST', '/api/v1/webhook_endpoints', {
        token: org.sandbox.api_key,
        body: { url: 'http://127.0.0.1:9/x', enabled_events: ['*'] },
      })
    ).json();
    t.ctx.config.webhooks.allowPrivateDestinations = { production: false, sandbox: false };
    const res = await t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, {
      token: org.sandbox.api_key,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.field_errors.url).toMatch(/loopback/);
  });

  it('sandbox sends any known type, and refuses unknown ones with the closest', async () => {
    const ok = await sendTest(org.sandbox.api_key, { type: 'transaction.cleared' });
    expect(ok.statusCode).toBe(202);
    const events = await t.call('GET', `/api/v2/events/${ok.json().event_id}`, { token: platform });
    expect(events.json().type).toBe('transaction.cleared');
    const bad = await sendTest(org.sandbox.api_key, { type: 'transaction.clered' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_event_type' });
    expect(bad.json().error.message).toContain('transaction.cleared');
    expect((await sendTest(org.sandbox.api_key, { type: 'card.*' })).statusCode).toBe(400);
  });
});

describe('path ids', () => {
  it('an empty, malformed or foreign-prefix id is 404 on every events and webhook route', async () => {
    const endpoint = (await create(['*'])).json();
    await t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, { token: org.sandbox.api_key });
    // The logs are not empty, so "no filter" would show up as a 200 list.
    const ids = [
      '',
      '%20',
      'x',
      'wh_',
      'wh_!!',
      `${endpoint.id}x'`,
      org.organization_id,
      'evt_abc',
      'whd_abc',
      '..',
    ];
    for (const id of ids) {
      for (const [method, url, body] of [
        ['GET', `/api/v1/webhook_endpoints/${id}/deliveries`],
        ['POST', `/api/v1/webhook_endpoints/${id}/test`, {}],
        ['POST', `/api/v1/webhook_endpoints/${id}/roll_secret`],
        ['POST', `/api/v1/webhook_endpoints/${id}/resend`, { event_id: 'evt_abc' }],
        ['PATCH', `/api/v1/webhook_endpoints/${id}`, { description: 'x' }],
        ['DELETE', `/api/v1/webhook_endpoints/${id}`],
      ] as const) {
        const res = await t.call(method, url, { token: org.sandbox.api_key, body });
        // An empty last segment may be the collection itself (list: 200, create: 400); never a list of deliveries.
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      if (id !== '') {
        const get = await t.call('GET', `/api/v1/webhook_endpoints/${id}`, { token: org.sandbox.api_key });
        expect(get.statusCode, id).toBe(404);
      }
    }
    for (const id of ['', '%20', 'x', 'evt_', 'evt_!!', endpoint.id, 'whd_abc']) {
      const deliveries = await t.call('GET', `/api/v1/events/${id}/deliveries`, {
        token: org.sandbox.api_key,
      });
      expect(deliveries.statusCode, id).toBe(404);
      if (id !== '') {
        const event = await t.call('GET', `/api/v2/events/${id}`, { token: platform });
        expect(event.statusCode, id).toBe(404);
      }
    }
  });
});
