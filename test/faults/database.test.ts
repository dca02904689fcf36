import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startServer } from '../cli/process.ts';
import { Receiver, testEncryptionKey } from '../events/receiver.ts';
import { onPostgres } from '../helpers/harness.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { jsonLines, until } from './helpers.ts';

/**
 * Issue 25: a PostgreSQL connection terminated, the server gone (a restart) or its address
 * unreachable ends no process. Requests answer `503 service_unavailable` (the OAuth body on the token
 * endpoint) with `Retry-After`, `/readyz` names the database, the worker pauses, and everything
 * works again once the database is back, without a restart. The test's own database is the only one
 * whose sessions it terminates: other test files share the server.
 */
describe.skipIf(!onPostgres)('losing the database', () => {
  const base = process.env.TEST_DATABASE_URL ?? '';
  const name = `purser_faults_${randomBytes(6).toString('hex')}`;
  const urlOf = (database: string) => {
    const url = new URL(base || 'postgres://localhost/x');
    url.pathname = `/${database}`;
    return url.toString();
  };
  const databaseUrl = urlOf(name);
  // Databases created empty, that processes started before they could be reached migrate: one named
  // by a plain URL, one by a URL whose `?schema=` the process creates itself.
  const lates = [
    { url: 'a plain URL', database: `${name}_late`, query: '' },
    { url: 'a ?schema= URL', database: `${name}_late_schema`, query: '?schema=purser_late' },
  ];
  const children: ChildProcess[] = [];
  let admin: pg.Client;
  let ctx: AppContext;
  let org: CreatedOrganization;
  let receiver: Receiver;
  let proxy: TcpProxy;
  let env: Record<string, string>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    env = {
      DATABASE_URL: databaseUrl,
      ENCRYPTION_KEY: testEncryptionKey(),
      BASE_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'info',
      PURSER_DEMO: 'off',
      TOKEN_RATE_LIMIT: '100000',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    };
    ctx = await createContext(loadConfig(env));
    org = await ctx.orgs.createOrganization({ name: 'Faults', billingEmail: 'billing@faults.test' });
    receiver = await Receiver.start();
    proxy = await TcpProxy.start(Number(new URL(base).port || 5432), new URL(base).hostname);
  }, 60_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await proxy?.close();
    await receiver?.close();
    await ctx?.close();
    for (const database of [name, ...lates.map((late) => late.database)]) {
      await admin?.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [database],
      );
      await admin?.query(`DROP DATABASE IF EXISTS ${database}`);
    }
    await admin?.end();
  });

  const serve = async (extra: Record<string, string> = {}, args?: string[]) => {
    const server = await startServer({ ...env, ...extra }, args);
    children.push(server.child);
    return server;
  };

  const tokenRequest = (url: string) =>
    fetch(`${url}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: org.sandbox.client_secret,
      }),
    });

  /** Terminates every session of the test's database but the admin's own. */
  const terminateSessions = async () => {
    const { rows } = await admin.query(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [name],
    );
    return rows[0].n as number;
  };

  it('terminated sessions: the process stays up, answers 200 or 503 service_unavailable meanwhile, and recovers', async () => {
    const server = await serve();
    const introspect = () =>
      fetch(`${server.url}/api/v2`, { headers: { authorization: `Bearer ${org.sandbox.api_key}` } });
    // Requests keep coming while every session is terminated, three times over.
    let stop = false;
    const statuses: number[] = [];
    const bodies: unknown[] = [];
    const traffic = (async () => {
      while (!stop) {
        const response = await tokenRequest(server.url);
        statuses.push(response.status);
        const body = await response.json();
        if (response.status !== 200) bodies.push({ body, retryAfter: response.headers.get('retry-after') });
      }
    })();
    let terminated = 0;
    for (let round = 0; round < 3; round++) {
      await until(() => statuses.length > 5 * (round + 1));
      terminated += await terminateSessions();
    }
    await until(() => statuses.length > 20);
    stop = true;
    await traffic;
    expect(terminated).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    for (const status of statuses) expect([200, 503]).toContain(status);
    for (const failed of bodies)
      expect(failed).toMatchObject({
        body: { error: 'service_unavailable' },
        retryAfter: expect.any(String),
      });
    // Recovered: new connections serve every request.
    await until(async () => (await tokenRequest(server.url)).status === 200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect((await introspect()).status).not.toBe(503);
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
  }, 120_000);

  it('a cut network and an unreachable address: 503s with Retry-After, /readyz names the database, the worker pauses, all recover without a restart', async () => {
    const server = await serve({ DATABASE_URL: proxy.url(databaseUrl), WEBHOOK_POLL_INTERVAL_MS: '50' });
    expect((await tokenRequest(server.url)).status).toBe(200);
    const apiKey = { authorization: `Bearer ${org.sandbox.api_key}` };

    for (const mode of ['reset', 'silent'] as const) {
      proxy.cut(mode);
      const token = await tokenRequest(server.url);
      expect(token.status).toBe(503);
      expect(Number(token.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await token.json()).toEqual({
        error: 'service_unavailable',
        error_description: expect.any(String),
      });
      // An API key is looked up anew (the process caches it for a second at most).
      await until(
        async () =>
          (await fetch(`${server.url}/api/v1/webhook_endpoints`, { headers: apiKey })).status === 503,
      );
      const listed = await fetch(`${server.url}/api/v1/webhook_endpoints`, { headers: apiKey });
      expect(listed.status).toBe(503);
      expect(Number(listed.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await listed.json()).error).toMatchObject({
        code: 'service_unavailable',
        docs: expect.any(String),
      });
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(await fetch(`${server.url}/metrics`).then((r) => r.text())).toMatch(/^purser_db_up 0$/m);
      await until(() => server.output().includes('worker paused'));

      proxy.restore();
      await until(async () => (await fetch(`${server.url}/readyz`)).status === 200);
      expect((await tokenRequest(server.url)).status).toBe(200);
      const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
      expect(metrics).toMatch(/^purser_db_up 1$/m);
      expect(metrics).toMatch(/^purser_db_pool_max 10$/m);
      await until(
        () => (server.output().match(/worker resumed/g) ?? []).length === (mode === 'reset' ? 1 : 2),
      );
    }

    // The worker works again: a test event sent now is delivered.
    const created = await fetch(`${server.url}/api/v1/webhook_endpoints`, {
      method: 'POST',
      headers: { ...apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, enabled_events: ['card.*'] }),
    }).then((r) => r.json());
    const sent = await fetch(`${server.url}/api/v1/webhook_endpoints/${created.id}/test`, {
      method: 'POST',
      headers: apiKey,
    });
    expect(sent.status).toBe(202);
    await receiver.waitFor(1, 30_000);

    expect(server.child.exitCode).toBeNull();
    const lines = jsonLines(server.output());
    // One warn line per change of the database's state, not one per failed request.
    const changes = lines.filter((line) => line.dependency === 'database');
    expect(changes.length).toBeGreaterThanOrEqual(4);
    expect(changes.length).toBeLessThan(12);
    for (const line of changes.filter((l) => l.state === 'unavailable')) expect(line.level).toBe(40);
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
  }, 180_000);
  it('Connect during an outage: 503 auth_unavailable, and the outage logged once per change, not at error level per request', async () => {
    // Tokens stay cached through the cut, so the requests reach the Connect routes' own queries.
    const server = await serve({ DATABASE_URL: proxy.url(databaseUrl), AUTH_CACHE_TTL_MS: '60000' });
    const token = (await (await tokenRequest(server.url)).json()).access_token as string;
    const start = () =>
      fetch(`${server.url}/api/v2/connect/start`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `someone-${randomBytes(4).toString('hex')}@example.test` }),
      });
    expect((await start()).status).toBe(201);
    proxy.cut('reset');
    for (let i = 0; i < 5; i++) {
      const refused = await start();
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error.code).toBe('auth_unavailable');
    }
    proxy.restore();
    await until(async () => (await start()).status === 201);

    const lines = jsonLines(server.output());
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(
      lines.filter((line) => line.dependency === 'database').map((line) => [line.level, line.state]),
    ).toEqual([
      [40, 'unavailable'],
      [30, 'ok'],
    ]);
  }, 120_000);

  it.each(lates)(
    'started before its database ($url): stays up, 503 meanwhile, /readyz names the database, ready by itself once it comes (migrations applied once)',
    async ({ database, query }) => {
      await admin.query(`CREATE DATABASE ${database}`);
      proxy.cut('reset');
      const lateEnv = { DATABASE_URL: proxy.url(urlOf(database) + query) };
      const [api, worker] = await Promise.all([
        serve(lateEnv, ['serve', '--role', 'api']),
        serve({ ...lateEnv, HEALTH_PORT: '0' }, ['serve', '--role', 'worker']),
      ]);
      for (const server of [api, worker]) {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
      }
      const introspected = await fetch(`${api.url}/api/v2`, {
        headers: { authorization: 'Bearer sk_test_x' },
      });
      expect(introspected.status).toBe(503);
      expect(Number(introspected.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await introspected.json()).error.code).toBe('service_unavailable');
      const token = await tokenRequest(api.url);
      expect(token.status).toBe(503);
      expect(await token.json()).toEqual({
        error: 'service_unavailable',
        error_description: expect.any(String),
      });

      proxy.restore();
      for (const server of [api, worker])
        await until(async () => (await fetch(`${server.url}/readyz`)).status === 200, 60_000, 'ready');
      // Applied by the processes, once: nothing is left for anyone else to apply.
      const direct = await createContext(loadConfig({ ...env, DATABASE_URL: urlOf(database) + query }), {
        migrate: false,
      });
      try {
        expect(await direct.migrate()).toEqual([]);
        const lateOrg = await direct.orgs.createOrganization({
          name: 'Late',
          billingEmail: 'late@faults.test',
        });
        const answered = await fetch(`${api.url}/api/v1/webhook_endpoints`, {
          headers: { authorization: `Bearer ${lateOrg.sandbox.api_key}` },
        });
        expect(answered.status).toBe(200);
      } finally {
        await direct.close();
      }
      for (const server of [api, worker]) {
        expect(server.child.exitCode).toBeNull();
        const changes = jsonLines(server.output()).filter((line) => line.dependency === 'database');
        expect(changes.map((line) => line.state)).toEqual(['unavailable', 'ok']);
      }
    },
    180_000,
  );
});
