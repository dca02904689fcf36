import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { classifyAddress, refusalFor, urlProblem } from '../../src/core/http/ssrf.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { Receiver, testEncryptionKey } from './receiver.ts';

describe('address classification (IANA special-purpose registries)', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['172.32.0.1', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2002:808:808::1', 'public'],
    // loopback, however spelt
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['127.1', 'loopback'],
    ['127.0.0.1.', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::FFFF:7F00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // Teredo, client 127.0.0.1 inverted
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated (SIIT)
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['0::ffff:127.0.0.1', 'loopback'],
    ['::0:ffff:7f00:0001', 'loopback'],
    ['64:ff9b:0:0:0:0:127.0.0.1', 'loopback'],
    ['fe80::1%eth0', 'link_local'],
    // private
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['fec0::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::c0a8:101', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:a00:1::', 'private'],
    ['::ffff:0:a00:1', 'private'],
    // link-local and metadata
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['FE80::ABCD', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['0xa9fea9fe', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    // everything else special-purpose
    ['0.0.0.0', 'reserved'],
    ['0.1.2.3', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['239.255.255.250', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'reserved'],
    ['::ffff:0.0.0.0', 'reserved'],
    ['64:ff9b:1::a00:1', 'reserved'],
    ['100::1', 'reserved'],
    ['100:0:0:1::1', 'reserved'], // dummy prefix, RFC 9780
    ['::ffff:0:8.8.8.8', 'reserved'], // a translator form, not a route to the public address
    ['2620:4f:8000::1', 'reserved'], // AS112-v6
    ['2001:4:112::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['not-an-ip', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('refuses metadata and special-purpose addresses always, private ones unless allowed', () => {
    const strict = { livemode: true, allowPrivate: false, allowedPrivateHosts: [] };
    const allowed = { livemode: false, allowPrivate: true, allowedPrivateHosts: [] };
    expect(refusalFor('public', strict, 'hooks.example')).toBeNull();
    for (const kind of ['loopback', 'private', 'link_local'] as const) {
      expect(refusalFor(kind, strict, 'hooks.example')).not.toBeNull();
      expect(refusalFor(kind, allowed, 'hooks.example')).toBeNull();
    }
    expect(refusalFor('metadata', allowed, 'hooks.example')).not.toBeNull();
    expect(refusalFor('reserved', allowed, 'hooks.example')).not.toBeNull();
  });

  it('a host the operator named (OUTBOUND_ALLOWED_PRIVATE_HOSTS) may be private; metadata and reserved stay refused', () => {
    const named = { livemode: true, allowPrivate: false, allowedPrivateHosts: ['sms.internal', '10.1.2.3'] };
    for (const kind of ['loopback', 'private', 'link_local'] as const) {
      expect(refusalFor(kind, named, 'sms.internal'), kind).toBeNull();
      expect(refusalFor(kind, named, 'SMS.Internal.'), kind).toBeNull();
      expect(refusalFor(kind, named, 'other.internal'), kind).not.toBeNull();
      expect(refusalFor(kind, named, 'sms.internal.evil.example'), kind).not.toBeNull();
    }
    expect(refusalFor('metadata', named, 'sms.internal')).not.toBeNull();
    expect(refusalFor('reserved', named, 'sms.internal')).not.toBeNull();
    expect(urlProblem('https://10.1.2.3/x', named)).toBeNull();
    expect(urlProblem('https://10.1.2.4/x', named)).toMatch(/private address/);
  });

  it('checks the URL itself at registration, localhost names included', () => {
    const production = { livemode: true, allowPrivate: false, allowedPrivateHosts: [] };
    expect(urlProblem('https://hooks.example.com/x', production)).toBeNull();
    expect(urlProblem('http://hooks.example.com/x', production)).toMatch(/https/);
    expect(urlProblem('https://[::1]/x', production)).toMatch(/loopback/);
    expect(urlProblem('https://LOCALHOST./x', production)).toMatch(/loopback/);
    expect(urlProblem('https://api.localhost/x', production)).toMatch(/loopback/);
    expect(
      urlProblem('http://localhost:3000/x', { livemode: false, allowPrivate: true, allowedPrivateHosts: [] }),
    ).toBeNull();
  });
});

/** Spellings of internal addresses in a URL: every one refused in production when registered. */
const internalUrls = [
  'https://127.0.0.1/x',
  'https://127.1/x',
  'https://0x7f.0.0.1/x',
  'https://0x7f000001/x',
  'https://2130706433/x',
  'https://0177.0.0.1/x',
  'https://127.0.0.1./x',
  'https://localhost/x',
  'https://LocalHost./x',
  'https://a.b.localhost/x',
  'https://10.1.2.3/x',
  'https://192.168.0.10/x',
  'https://172.16.0.1/x',
  'https://100.64.1.1/x',
  'https://169.254.169.254/latest/meta-data',
  'https://0xa9fea9fe/latest',
  'https://169.254.1.1/x',
  'https://0.0.0.0/x',
  'https://0/x',
  'https://192.0.2.1/x',
  'https://198.18.0.1/x',
  'https://224.0.0.1/x',
  'https://255.255.255.255/x',
  'https://[::1]/x',
  'https://[0:0:0:0:0:0:0:1]/x',
  'https://[::]/x',
  'https://[::127.0.0.1]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://[::FFFF:7F00:1]/x',
  'https://[0:0:0:0:0:ffff:127.0.0.1]/x',
  'https://[::ffff:0:7f00:1]/x',
  'https://[::ffff:0:127.0.0.1]/x',
  'https://[::ffff:10.0.0.1]/x',
  'https://[::ffff:169.254.169.254]/x',
  'https://[64:ff9b::127.0.0.1]/x',
  'https://[64:ff9b::a00:1]/x',
  'https://[64:ff9b:1::a00:1]/x',
  'https://[2002:7f00:1::]/x',
  'https://[2002:a9fe:a9fe::]/x',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x',
  'https://[2001:db8::1]/x',
  'https://[100::1]/x',
  'https://[fc00::1]/x',
  'https://[fd00:ec2::254]/x',
  'https://[fec0::1]/x',
  'https://[fe80::1]/x',
  'https://[ff02::1]/x',
];

describe('destinations through the API and at delivery time', () => {
  let t: TestApp;
  let org: CreatedOrganization;
  let receiver: Receiver;
  let worker: Worker;
  /** Names the injected resolver answers, as DNS would at delivery time. */
  const dns = new Map<string, string[]>();

  beforeAll(async () => {
    // BASE_URL is not loopback and the setting is unset: private destinations are refused in both modes.
    t = await startTestApp({ ENCRYPTION_KEY: testEncryptionKey() });
    t.ctx.config.outbound.resolveHost = async (host) => {
      const answers = dns.get(host);
      if (!answers) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    org = await t.createOrg();
    receiver = await Receiver.start();
    worker = new Worker(t.ctx, { info: () => {}, error: () => {} });
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });
  beforeEach(() => {
    t.ctx.config.outbound.allowPrivateDestinations = { production: false, sandbox: false };
  });

  const create = (apiKey: string, url: string, events = ['card.created']) =>
    t.call('POST', '/api/v1/webhook_endpoints', { token: apiKey, body: { url, enabled_events: events } });

  async function emit(livemode: boolean, type = 'card.created') {
    await t.ctx.db
      .transaction()
      .execute((trx) =>
        t.ctx.events.emit(trx, { organizationId: org.organization_id, livemode, type, data: {} }),
      );
  }

  async function lastAttempt(apiKey: string, endpointId: string) {
    const log = await t.call('GET', `/api/v1/webhook_endpoints/${endpointId}/deliveries`, { token: apiKey });
    return log.json().data[0].attempts.at(-1);
  }

  it('production refuses http and every spelling of an internal address, on create and update', async () => {
    for (const url of ['http://hooks.example.com/x', ...internalUrls]) {
      const res = await create(org.production.api_key, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.field_errors, url).toHaveProperty('url');
    }
    const ok = await create(org.production.api_key, 'https://hooks.example.com/x');
    expect(ok.statusCode).toBe(201);
    for (const url of internalUrls) {
      const moved = await t.call('PATCH', `/api/v1/webhook_endpoints/${ok.json().id}`, {
        token: org.production.api_key,
        body: { url },
      });
      expect(moved.statusCode, url).toBe(400);
    }
    const after = await t.call('GET', `/api/v1/webhook_endpoints/${ok.json().id}`, {
      token: org.production.api_key,
    });
    expect(after.json().url).toBe('https://hooks.example.com/x');
  });

  it('sandbox refuses private destinations unless the operator allows them; metadata and reserved never', async () => {
    for (const url of [
      `http://localhost:${receiver.port}/x`,
      `http://127.0.0.1:${receiver.port}/x`,
      'http://10.0.0.8/x',
    ]) {
      expect((await create(org.sandbox.api_key, url)).statusCode, url).toBe(400);
    }
    t.ctx.config.outbound.allowPrivateDestinations = { production: false, sandbox: true };
    for (const [url, status] of [
      [`http://localhost:${receiver.port}/x`, 201],
      [`http://127.0.0.1:${receiver.port}/x`, 201],
      ['http://10.0.0.8/x', 201],
      ['http://[fe80::1]/x', 201],
      ['http://169.254.169.254/latest', 400],
      ['http://[::ffff:a9fe:a9fe]/latest', 400],
      ['http://[fd00:ec2::254]/latest', 400],
      ['http://0.0.0.0/x', 400],
      ['http://192.0.2.1/x', 400],
      ['http://[2001:db8::1]/x', 400],
    ] as const) {
      expect((await create(org.sandbox.api_key, url, ['card.closed'])).statusCode, url).toBe(status);
    }
    // The setting is per mode: production still refuses.
    expect((await create(org.production.api_key, 'https://127.0.0.1/x')).statusCode).toBe(400);
  });

  it.each([
    ['127.0.0.1'],
    ['::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:7f00:1'],
    ['0:0:0:0:0:ffff:7f00:1'],
    ['::127.0.0.1'],
    ['64:ff9b::7f00:1'],
    ['2002:7f00:1::'],
    ['10.0.0.5'],
    ['::ffff:192.168.0.1'],
    ['fd00::1'],
    ['fec0::1'],
    ['169.254.169.254'],
    ['fd00:ec2::254'],
    ['0.0.0.0'],
    ['192.0.2.10'],
  ])('production refuses at delivery a name that now resolves to %s, and logs a warning', async (address) => {
    const host = `hooks-${Math.random().toString(36).slice(2)}.example.com`;
    dns.set(host, ['93.184.215.14']);
    const res = await create(org.production.api_key, `https://${host}/x`);
    expect(res.statusCode).toBe(201);
    // DNS rebinding: the name answers an internal address when the delivery is made.
    dns.set(host, ['93.184.215.14', address]);
    const start = receiver.received.length;
    await emit(true);
    await worker.runOnce();
    expect(receiver.received.length).toBe(start);
    const attempt = await lastAttempt(org.production.api_key, res.json().id);
    expect(attempt).toMatchObject({ status_code: null, succeeded: false, response_excerpt: null });
    expect(attempt.error).toMatch(new RegExp(`destination refused: ${host} resolves to a .*address`));
    const warning = t.logs.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.endpoint_id === res.json().id && l.msg === 'webhook destination refused at delivery');
    expect(warning?.level).toBe(40);
  });

  it('re-checks stored literal destinations at delivery: turning the setting off stops them', async () => {
    t.ctx.config.outbound.allowPrivateDestinations = { production: false, sandbox: true };
    const res = await create(org.sandbox.api_key, `http://[::ffff:127.0.0.1]:${receiver.port}/x`, [
      'card.updated',
    ]);
    expect(res.statusCode).toBe(201);
    t.ctx.config.outbound.allowPrivateDestinations = { production: false, sandbox: false };
    const start = receiver.received.length;
    await emit(false, 'card.updated');
    await worker.runOnce();
    expect(receiver.received.length).toBe(start);
    expect((await lastAttempt(org.sandbox.api_key, res.json().id)).error).toMatch(/loopback address/);
  });

  it('production: localhost resolves to loopback at delivery and is never reached', async () => {
    // A stored row from before this rule (or a changed resolver): the delivery-time check still refuses.
    dns.set('localhost', ['127.0.0.1']);
    const res = await create(org.production.api_key, 'https://hooks.example.com/x', ['card.closed']);
    await t.ctx.db
      .updateTable('webhook_endpoints')
      .set({ url: `https://localhost:${receiver.port}/x` })
      .where('id', '=', res.json().id)
      .execute();
    const start = receiver.received.length;
    await emit(true, 'card.closed');
    await worker.runOnce();
    expect(receiver.received.length).toBe(start);
    expect((await lastAttempt(org.production.api_key, res.json().id)).error).toMatch(
      /destination refused: localhost resolves to a loopback address/,
    );
  });

  it('a host named in OUTBOUND_ALLOWED_PRIVATE_HOSTS is reached at its private address, without the development setting; no other name is', async () => {
    t.ctx.config.outbound.allowedPrivateHosts = ['hooks.internal'];
    dns.set('hooks.internal', ['127.0.0.1']);
    dns.set('other.internal', ['127.0.0.1']);
    receiver.answer = () => ({ status: 200, body: 'internal page' });
    try {
      const named = await create(org.sandbox.api_key, `http://hooks.internal:${receiver.port}/x`, [
        'balance.low',
      ]);
      const other = await create(org.sandbox.api_key, `http://other.internal:${receiver.port}/x`, [
        'balance.low',
      ]);
      expect([named.statusCode, other.statusCode]).toEqual([201, 201]);
      const start = receiver.received.length;
      await emit(false, 'balance.low');
      await worker.runOnce();
      expect(receiver.received.length).toBe(start + 1);
      // Its answer is still not kept: the address is private, named or not.
      expect(await lastAttempt(org.sandbox.api_key, named.json().id)).toMatchObject({
        status_code: 200,
        succeeded: true,
        response_excerpt: null,
      });
      expect((await lastAttempt(org.sandbox.api_key, other.json().id)).error).toMatch(
        /destination refused: other\.internal resolves to a loopback address/,
      );
      // A literal private address is refused at registration unless it is the one named.
      expect((await create(org.production.api_key, 'https://10.9.8.7/x')).statusCode).toBe(400);
      t.ctx.config.outbound.allowedPrivateHosts = ['hooks.internal', '10.9.8.7'];
      expect((await create(org.production.api_key, 'https://10.9.8.7/x')).statusCode).toBe(201);
    } finally {
      t.ctx.config.outbound.allowedPrivateHosts = [];
      receiver.answer = () => ({ status: 200, body: 'ok' });
    }
  });

  it('sandbox, when allowed, delivers to a private destination but never keeps its response body', async () => {
    t.ctx.config.outbound.allowPrivateDestinations = { production: false, sandbox: true };
    dns.set('dev.example.test', ['127.0.0.1']);
    receiver.answer = () => ({ status: 200, body: 'secret internal page' });
    try {
      for (const url of [
        `http://127.0.0.1:${receiver.port}/dev`,
        `http://dev.example.test:${receiver.port}/dev`,
      ]) {
        const res = await create(org.sandbox.api_key, url, ['transfer.completed']);
        expect(res.statusCode).toBe(201);
        const start = receiver.received.length;
        await emit(false, 'transfer.completed');
        await worker.runOnce();
        expect(receiver.received.length).toBeGreaterThan(start);
        const attempt = await lastAttempt(org.sandbox.api_key, res.json().id);
        expect(attempt).toMatchObject({ status_code: 200, succeeded: true, response_excerpt: null });
        await t.call('DELETE', `/api/v1/webhook_endpoints/${res.json().id}`, { token: org.sandbox.api_key });
      }
    } finally {
      receiver.answer = () => ({ status: 200, body: 'ok' });
    }
  });

  it('logs a refused destination as a warning with its host, never its credentials or path', async () => {
    const res = await create(org.production.api_key, 'https://[::ffff:10.0.0.1]/hook?token=s3cr3t');
    expect(res.statusCode).toBe(400);
    const warning = t.logs.lines
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'webhook destination refused')
      .at(-1);
    expect(warning).toMatchObject({
      level: 40,
      host: '[::ffff:a00:1]',
      organization_id: org.organization_id,
    });
    expect(t.logs.text).not.toContain('s3cr3t');
  });
});

describe('private destinations setting', () => {
  it('defaults to sandbox only, and only when BASE_URL is a loopback address', () => {
    const of = (env: Record<string, string>) => loadConfig(env).outbound.allowPrivateDestinations;
    for (const base of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      'http://app.localhost',
    ]) {
      expect(of({ BASE_URL: base }), base).toEqual({ production: false, sandbox: true });
    }
    expect(of({})).toEqual({ production: false, sandbox: true });
    for (const base of ['https://api.example.com', 'http://10.0.0.1:3000', 'http://purser.test']) {
      expect(of({ BASE_URL: base }), base).toEqual({ production: false, sandbox: false });
    }
    expect(of({ BASE_URL: 'https://api.example.com', WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' })).toEqual({
      production: true,
      sandbox: true,
    });
    expect(of({ BASE_URL: 'http://localhost:3000', WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'false' })).toEqual({
      production: false,
      sandbox: false,
    });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'maybe' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_DESTINATIONS/,
    );
  });

  it('is for local development: refused in production, where the private hosts are named instead', () => {
    const production = { NODE_ENV: 'production', ENCRYPTION_KEY: testEncryptionKey() };
    expect(() => loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=true is for local development and is refused in production.*OUTBOUND_ALLOWED_PRIVATE_HOSTS/,
    );
    expect(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'false' }).outbound).toMatchObject(
      {
        allowPrivateDestinations: { production: false, sandbox: false },
      },
    );
    // Production on a loopback BASE_URL is still production: no private destination by default.
    expect(
      loadConfig({ ...production, BASE_URL: 'http://localhost:3000' }).outbound.allowPrivateDestinations,
    ).toEqual({ production: false, sandbox: false });
    expect(
      loadConfig({
        ...production,
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: ' SMS.internal. , 10.0.0.7,[fd00::7],llm.corp',
      }).outbound.allowedPrivateHosts,
    ).toEqual(['sms.internal', '10.0.0.7', 'fd00::7', 'llm.corp']);
    expect(loadConfig({}).outbound.allowedPrivateHosts).toEqual([]);
  });

  it.each([
    ['https://sms.internal', /no scheme, port, path or wildcard/],
    ['sms.internal:8080', /no scheme, port, path or wildcard/],
    ['*.internal', /no scheme, port, path or wildcard/],
    ['169.254.169.254', /cloud metadata address, never reachable/],
    ['0.0.0.0', /special-purpose address, never reachable/],
  ])('OUTBOUND_ALLOWED_PRIVATE_HOSTS refuses %s', (entry, message) => {
    expect(() => loadConfig({ OUTBOUND_ALLOWED_PRIVATE_HOSTS: `ok.internal,${entry}` })).toThrow(message);
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
    });
  });

  it('refuses nonsense', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '60,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ EVENT_RETENTION_DAYS: '7' })).toThrow(/EVENT_RETENTION_DAYS/);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '20000', WEBHOOK_LEASE_MS: '10000' })).toThrow(/LEASE/);
  });
});
