import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { EVENT_TYPES } from '../../src/domains/events/catalog.ts';
import { useOrgApp } from '../helpers/fixtures.ts';
import { testEncryptionKey } from './receiver.ts';

const f = useOrgApp({ env: { ENCRYPTION_KEY: testEncryptionKey() } });

const create = (enabled_events: unknown, apiKey = f.org.sandbox.api_key) =>
  f.t.call('POST', '/api/v1/webhook_endpoints', {
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
    // Misspelt by case, spacing, punctuation or wildcard form: the same refusal, never accepted.
    ['Card.created', 'card.created'],
    ['CARD.CREATED', 'card.created'],
    [' card.created', 'card.created'],
    ['card.created\t', 'card.created'],
    ['card..created', 'card.created'],
    ['card.', 'card.*'],
    ['card*', 'card.*'],
    ['card.**', 'card.*'],
    ['*.created', null],
    ['**', null],
    ['', null],
  ])('refuses %s with invalid_event_type naming the closest known type', async (bad, closest) => {
    for (const apiKey of [f.org.sandbox.api_key, f.org.production.api_key]) {
      const res = await create(['card.created', bad], apiKey);
      expect(res.statusCode).toBe(400);
      const { error } = res.json();
      expect(error.code).toBe('invalid_event_type');
      expect(error.message).toContain(JSON.stringify(bad));
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
        f.t.ctx,
        [
          'webhook',
          'create',
          f.org.organization_id,
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
    const res = await f.t.call('PATCH', `/api/v1/webhook_endpoints/${endpoint.id}`, {
      token: f.org.sandbox.api_key,
      body: { enabled_events: ['card.updated', 'card.updatd'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'invalid_event_type' });
    expect(res.json().error.message).toContain('"card.updated"');
    const after = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}`, {
      token: f.org.sandbox.api_key,
    });
    expect(after.json().enabled_events).toEqual(['card.created']);
  });
});

describe('test events', () => {
  const sendTest = async (apiKey: string, body?: unknown) => {
    const endpoint = (await create(['card.created'], apiKey)).json();
    return f.t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, { token: apiKey, body });
  };

  it('production sends only the test type: a real type is refused', async () => {
    for (const type of ['card.created', 'transaction.authorized', 'transfer.completed', 'card.craeted']) {
      const res = await sendTest(f.org.production.api_key, { type });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().error.field_errors).toHaveProperty('type');
    }
    for (const body of [undefined, {}, { type: 'webhook_endpoint.test' }]) {
      const res = await sendTest(f.org.production.api_key, body);
      expect(res.statusCode).toBe(202);
      const event = await f.t.ctx.events.getEvent(
        { organizationId: f.org.organization_id, livemode: true },
        res.json().event_id,
      );
      expect(event.type).toBe('webhook_endpoint.test');
    }
  });

  it('sandbox sends any one type; a pattern is refused as one, not matched to itself', async () => {
    for (const type of ['card.*', '*']) {
      const res = await sendTest(f.org.sandbox.api_key, { type });
      expect(res.statusCode, type).toBe(400);
      expect(res.json().error.code).toBe('invalid_event_type');
      expect(res.json().error.field_errors).toEqual({
        type: 'must be one event type, such as card.created, not a pattern',
      });
    }
    expect((await sendTest(f.org.sandbox.api_key, { type: 'card.created' })).statusCode).toBe(202);
  });

  it('refuses a test event to a destination the rules no longer allow', async () => {
    f.t.ctx.config.outbound.allowPrivateDestinations = { production: false, sandbox: true };
    const endpoint = (
      await f.t.call('POST', '/api/v1/webhook_endpoints', {
        token: f.org.sandbox.api_key,
        body: { url: 'http://127.0.0.1:9/x', enabled_events: ['*'] },
      })
    ).json();
    f.t.ctx.config.outbound.allowPrivateDestinations = { production: false, sandbox: false };
    const res = await f.t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, {
      token: f.org.sandbox.api_key,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.field_errors.url).toMatch(/loopback/);
  });

  it('sandbox sends any known type, and refuses unknown ones with the closest', async () => {
    const ok = await sendTest(f.org.sandbox.api_key, { type: 'transaction.cleared' });
    expect(ok.statusCode).toBe(202);
    const events = await f.t.call('GET', `/api/v2/events/${ok.json().event_id}`, { token: f.sandbox });
    expect(events.json().type).toBe('transaction.cleared');
    const bad = await sendTest(f.org.sandbox.api_key, { type: 'transaction.clered' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_event_type' });
    expect(bad.json().error.message).toContain('transaction.cleared');
    expect((await sendTest(f.org.sandbox.api_key, { type: 'card.*' })).statusCode).toBe(400);
  });
});

describe('path ids', () => {
  it('an empty, malformed or foreign-prefix id is 404 on every events and webhook route', async () => {
    const endpoint = (await create(['*'])).json();
    await f.t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/test`, { token: f.org.sandbox.api_key });
    // The logs are not empty, so "no filter" would show up as a 200 list.
    const ids = [
      '',
      '%20',
      'x',
      'wh_',
      'wh_!!',
      `${endpoint.id}x'`,
      f.org.organization_id,
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
        const res = await f.t.call(method, url, { token: f.org.sandbox.api_key, body });
        // An empty last segment may be the collection itself (list: 200, create: 400); never a list of deliveries.
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      if (id !== '') {
        const get = await f.t.call('GET', `/api/v1/webhook_endpoints/${id}`, {
          token: f.org.sandbox.api_key,
        });
        expect(get.statusCode, id).toBe(404);
      }
    }
    for (const id of ['', '%20', 'x', 'evt_', 'evt_!!', endpoint.id, 'whd_abc']) {
      const deliveries = await f.t.call('GET', `/api/v1/events/${id}/deliveries`, {
        token: f.org.sandbox.api_key,
      });
      expect(deliveries.statusCode, id).toBe(404);
      if (id !== '') {
        const event = await f.t.call('GET', `/api/v2/events/${id}`, { token: f.sandbox });
        expect(event.statusCode, id).toBe(404);
      }
    }
  });
});
