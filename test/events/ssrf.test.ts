import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { classifyAddress, refusalFor, urlProblem } from '../../src/domains/events/ssrf.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { Receiver, testEncryptionKey } from './receiver.ts';

describe('address classification', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['not-an-ip', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('production allows only public addresses; sandbox adds loopback; metadata is never allowed', () => {
    const production = { livemode: true, allowPrivate: false };
    const sandbox = { livemode: false, allowPrivate: false };
    const onPrem = { livemode: true, allowPrivate: true };
    expect(refusalFor('public', production)).toBeNull();
    expect(refusalFor('loopback', production)).not.toBeNull();
    expect(refusalFor('loopback', sandbox)).toBeNull();
    expect(refusalFor('private', sandbox)).not.toBeNull();
    expect(refusalFor('link_local', sandbox)).not.toBeNull();
    expect(refusalFor('private', onPrem)).toBeNull();
    expect(refusalFor('metadata', onPrem)).not.toBeNull();
    expect(refusalFor('metadata', sandbox)).not.toBeNull();
  });

  it('checks the URL itself at registration', () => {
    const production = { livemode: true, allowPrivate: false };
    expect(urlProblem('https://hooks.example.com/x', production)).toBeNull();
    expect(urlProblem('http://hooks.example.com/x', production)).toMatch(/https/);
    expect(urlProblem('https://[::1]/x', production)).toMatch(/loopback/);
    expect(urlProblem('http://localhost:3000/x', { livemode: false, allowPrivate: false })).toBeNull();
  });
});

describe('destinations through the API and at delivery time', () => {
  let t: TestApp;
  let org: CreatedOrganization;
  let receiver: Receiver;
  let worker: Worker;

  beforeAll(async () => {
    t = await startTestApp({ ENCRYPTION_KEY: testEncryptionKey() });
    org = await t.createOrg();
    receiver = await Receiver.start();
    worker = new Worker(t.ctx, { info: () => {}, error: () => {} });
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('production refuses http and internal IP literals when the endpoint is created', async () => {
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://10.1.2.3/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[fe80::1]/x',
      'https://0.0.0.0/x',
    ]) {
      const res = await t.call('POST', '/api/v1/webhook_endpoints', {
        token: org.production.api_key,
        body: { url, enabled_events: ['*'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.field_errors).toHaveProperty('url');
    }
    const patch = await t.call('POST', '/api/v1/webhook_endpoints', {
      token: org.production.api_key,
      body: { url: 'https://hooks.example.com/x', enabled_events: ['*'] },
    });
    expect(patch.statusCode).toBe(201);
    const moved = await t.call('PATCH', `/api/v1/webhook_endpoints/${patch.json().id}`, {
      token: org.production.api_key,
      body: { url: 'https://127.0.0.1/x' },
    });
    expect(moved.statusCode).toBe(400);
  });

  it('sandbox allows http://localhost but not private, link-local or metadata addresses', async () => {
    for (const [url, status] of [
      [`http://localhost:${receiver.port}/x`, 201],
      [`http://127.0.0.1:${receiver.port}/x`, 201],
      ['http://10.0.0.8/x', 400],
      ['http://169.254.169.254/latest', 400],
      ['http://[fe80::1]/x', 400],
    ] as const) {
      const res = await t.call('POST', '/api/v1/webhook_endpoints', {
        token: org.sandbox.api_key,
        body: { url, enabled_events: ['card.none'] },
      });
      expect(res.statusCode, url).toBe(status);
    }
  });

  it('production checks the resolved address at delivery: a name resolving to loopback is never reached', async () => {
    // Registration cannot know what a name resolves to; delivery does, and refuses.
    const res = await t.call('POST', '/api/v1/webhook_endpoints', {
      token: org.production.api_key,
      body: { url: `https://localhost:${receiver.port}/x`, enabled_events: ['card.created'] },
    });
    expect(res.statusCode).toBe(201);
    const endpoint = res.json();
    const start = receiver.received.length;
    await t.ctx.db.transaction().execute((trx) =>
      t.ctx.events.emit(trx, {
        organizationId: org.organization_id,
        livemode: true,
        type: 'card.created',
        data: {},
      }),
    );
    await worker.runOnce();
    expect(receiver.received.length).toBe(start);
    const log = await t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}/deliveries`, {
      token: org.production.api_key,
    });
    const [delivery] = log.json().data;
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null });
    expect(delivery.attempts[0].error).toMatch(
      /destination refused: localhost resolves to a loopback address/,
    );
  });

  it('sandbox resolves localhost and delivers to it', async () => {
    const res = await t.call('POST', '/api/v1/webhook_endpoints', {
      token: org.sandbox.api_key,
      body: { url: `http://localhost:${receiver.port}/dev`, enabled_events: ['card.updated'] },
    });
    expect(res.statusCode).toBe(201);
    const start = receiver.received.length;
    await t.ctx.db.transaction().execute((trx) =>
      t.ctx.events.emit(trx, {
        organizationId: org.organization_id,
        livemode: false,
        type: 'card.updated',
        data: {},
      }),
    );
    await worker.runOnce();
    expect(receiver.received.length).toBe(start + 1);
  });
});

describe('webhook settings', () => {
  it('defaults to the spec: 10 s timeout, 5 attempts at about 1m, 5m, 30m, 60m, 7 days to disable', () => {
    const { webhooks } = loadConfig({});
    expect(webhooks).toMatchObject({
      timeoutMs: 10_000,
      retryScheduleSeconds: [60, 300, 1800, 3600],
      retryJitterPercent: 10,
      disableAfterMs: 7 * 24 * 3_600_000,
      eventRetentionDays: 30,
      allowPrivateDestinations: false,
    });
  });

  it('refuses nonsense', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '60,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ EVENT_RETENTION_DAYS: '7' })).toThrow(/EVENT_RETENTION_DAYS/);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '20000', WEBHOOK_LEASE_MS: '10000' })).toThrow(/LEASE/);
  });
});
