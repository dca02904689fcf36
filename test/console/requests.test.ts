import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useOrgApp } from '../helpers/fixtures.ts';
import { consoleSteps } from './helpers.ts';

/**
 * The console's API request log: the organization's last 1,000 requests of this mode (time,
 * credential, method, path, status, latency, request id), filtered by status and path; never a body,
 * a query value or a secret; nothing of another mode or organization.
 */
const f = useOrgApp();
const { member, get, page } = consoleSteps(f);

/** The rows of the requests table: [credential title, method, path, status, request id title]. */
function rows(html: string): string[][] {
  const table = /<table id="requests" class="log stack">[\s\S]*?<\/table>/.exec(html)![0];
  return [
    ...table.matchAll(
      /<tr><td>[^<]*<\/td><td><code title="([^"]+)">[\s\S]*?<\/td><td>([A-Z]+)<\/td><td><code>([^<]*)<\/code><\/td><td class="num status">(\d+)<\/td><td class="num">\d+ ms<\/td><td><code title="([^"]+)">/g,
    ),
  ].map((m) => [m[1]!, m[2]!, m[3]!, m[4]!, m[5]!]);
}

describe('the API request log', () => {
  it('shows each request of the mode with its credential, status and request id; filters by status and path', async () => {
    const owner = await member('owner');
    const introspected = await f.t.call('GET', '/api/v2', { token: f.sandbox });
    expect(introspected.statusCode).toBe(200);
    // A second apart: the log's order is the order of time.
    f.t.clock.advance(1_000);
    const missing = await f.t.call('GET', '/api/v2/cards/card_unknown?expand=secret_query_value', {
      token: f.sandbox,
    });
    expect(missing.statusCode).toBe(404);
    f.t.clock.advance(1_000);
    const created = await f.t.call('POST', '/api/v1/webhook_endpoints', {
      token: f.org.sandbox.api_key,
      body: { url: 'https://example.com/hooks', enabled_events: ['*'], description: 'body_secret_marker' },
    });
    expect(created.statusCode).toBe(201);
    f.t.clock.advance(1_000);
    // Not this page's: production, another organization, and a request with no credential.
    await f.t.call('GET', '/api/v2', { token: f.production });
    const stranger = await f.t.createOrg('Stranger');
    await f.t.call('GET', '/api/v2', { token: await f.t.platformToken(stranger.sandbox) });
    await f.t.call('GET', '/api/v2');

    const shown = await get(page('requests'), owner.cookie);
    expect(shown.statusCode).toBe(200);
    const sandboxClient = f.org.sandbox.client_id;
    expect(rows(shown.body)).toEqual([
      [
        expect.stringMatching(/\S/),
        'POST',
        '/api/v1/webhook_endpoints',
        '201',
        created.headers['x-request-id'],
      ],
      [sandboxClient, 'GET', '/api/v2/cards/card_unknown', '404', missing.headers['x-request-id']],
      [sandboxClient, 'GET', '/api/v2', '200', introspected.headers['x-request-id']],
    ]);
    // Never a body, a query value or a secret.
    for (const secret of [
      'body_secret_marker',
      'secret_query_value',
      f.sandbox,
      f.org.sandbox.api_key,
      f.org.sandbox.client_secret,
      created.json().secret,
    ]) {
      expect(shown.body).not.toContain(secret);
    }

    const failed = await get(`${page('requests')}?status=4xx`, owner.cookie);
    expect(rows(failed.body).map((r) => r[3])).toEqual(['404']);
    const exact = await get(`${page('requests')}?status=201`, owner.cookie);
    expect(rows(exact.body).map((r) => r[2])).toEqual(['/api/v1/webhook_endpoints']);
    const v1 = await get(`${page('requests')}?path=${encodeURIComponent('/api/v1')}`, owner.cookie);
    expect(rows(v1.body).map((r) => r[2])).toEqual(['/api/v1/webhook_endpoints']);
    expect((await get(`${page('requests')}?status=bad`, owner.cookie)).statusCode).toBe(400);

    const production = await get(page('requests', 'production'), owner.cookie);
    expect(rows(production.body)).toHaveLength(1);
  });

  it('keeps the newest 1,000 of the organization and mode', async () => {
    const owner = await member('viewer');
    for (let i = 0; i < 1_005; i++) await f.t.call('GET', '/api/v2', { token: f.sandbox });
    await f.t.ctx.requestLog.flush();
    const kept = await f.t.ctx.db
      .selectFrom('api_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', f.org.organization_id)
      .where('livemode', '=', 0)
      .executeTakeFirstOrThrow();
    expect(Number(kept.n)).toBe(1_000);
    const shown = await get(page('requests'), owner.cookie);
    expect(rows(shown.body)).toHaveLength(1_000);
    // The production request of the first test is still there: each mode keeps its own 1,000.
    expect(rows((await get(page('requests', 'production'), owner.cookie)).body)).toHaveLength(1);
  });

  it('logs each request when a client sends one X-Request-Id twice (a retry)', async () => {
    const owner = await member('viewer');
    const headers = { 'x-request-id': 'retry-7f3a' };
    const first = await f.t.call('GET', '/api/v2', { token: f.sandbox, headers });
    f.t.clock.advance(1_000);
    const retry = await f.t.call('GET', '/api/v2/cards/card_unknown', { token: f.sandbox, headers });
    expect([first.headers['x-request-id'], retry.headers['x-request-id']]).toEqual([
      'retry-7f3a',
      'retry-7f3a',
    ]);
    const shown = rows((await get(page('requests'), owner.cookie)).body);
    const client = f.org.sandbox.client_id;
    expect(shown.slice(0, 2)).toEqual([
      [client, 'GET', '/api/v2/cards/card_unknown', '404', 'retry-7f3a'],
      [client, 'GET', '/api/v2', '200', 'retry-7f3a'],
    ]);
  });
});

describe('the request log under a busy client', () => {
  /** A request of the organization's sandbox platform token as it ends, numbered by its request id. */
  const ended = (organizationId: string, n: number) =>
    ({
      principal: { kind: 'platform', organizationId, clientId: 'cli_busy', livemode: false },
      apiKey: null,
      method: 'GET',
      url: '/api/v2',
      id: `req_${String(n).padStart(5, '0')}`,
    }) as unknown as FastifyRequest;
  const sandboxOf = (organizationId: string) => ({ organizationId, livemode: false });
  const requestIds = async (organizationId: string) =>
    (await f.t.ctx.requestLog.recent(sandboxOf(organizationId), {})).map((row) => row.request_id).reverse();
  const numbered = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `req_${String(from + i).padStart(5, '0')}`);

  it('keeps the newest 1,000 of an owner with more than that in one batch, and every row of the others', async () => {
    const busy = await f.t.createOrg('Busy');
    const quiet = await f.t.createOrg('Quiet');
    const log = f.t.ctx.requestLog;
    // Faster than the log writes (nothing is written by time meanwhile): the buffer fills again and again.
    for (let n = 1; n <= 5_000; n++) {
      log.observe(ended(busy.organization_id, n), 200, 1);
      if (n === 4_600 || n === 4_900) log.observe(ended(quiet.organization_id, n), 200, 1);
      f.t.clock.advance(1);
    }
    await log.flush();
    expect(await requestIds(busy.organization_id)).toEqual(numbered(4_001, 5_000));
    expect(await requestIds(quiet.organization_id)).toEqual(['req_04600', 'req_04900']);
    // A full buffer of one owner's requests, written only when asked.
    const burst = await f.t.createOrg('Burst');
    for (let n = 1; n <= 2_000; n++) log.observe(ended(burst.organization_id, n), 200, 1);
    await log.flush();
    expect(await requestIds(burst.organization_id)).toEqual(numbered(1_001, 2_000));
  });

  it('keeps the newest by time when the clock stepped back within the batch', async () => {
    const busy = await f.t.createOrg('Stepped back');
    const log = f.t.ctx.requestLog;
    const start = f.t.clock.now();
    for (let n = 1; n <= 1_200; n++) {
      // The first 600 end a minute later than the 600 after them.
      f.t.clock.set(n <= 600 ? start + 60_000 : start);
      log.observe(ended(busy.organization_id, n), 200, 1);
    }
    f.t.clock.set(start + 60_000);
    await log.flush();
    // Newest first by (time, id): the first 600, then the last 400 of those after them.
    expect(await requestIds(busy.organization_id)).toEqual([...numbered(801, 1_200), ...numbered(1, 600)]);
  });
});
