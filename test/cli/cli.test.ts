import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, onPostgres } from '../helpers/harness.ts';
import { exited, purser, startServer } from './process.ts';

let database: ReturnType<typeof freshDatabaseUrl>;
let env: Record<string, string>;

beforeAll(() => {
  database = freshDatabaseUrl();
  // PostgreSQL needs a configured key; SQLite keeps the zero-configuration start.
  const key: Record<string, string> = onPostgres
    ? { ENCRYPTION_KEY: randomBytes(32).toString('base64') }
    : {};
  env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', ...key };
});
afterAll(() => database.drop());

async function token(url: string, clientId: string, clientSecret: string) {
  return fetch(`${url}/api/v2/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
}

describe('operator CLI', { timeout: 120_000 }, () => {
  it('migrates, then reports the database up to date', async () => {
    const first = await purser(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Applied: 0001_foundation/);
    const again = await purser(['migrate'], env);
    expect(again.stdout).toMatch(/up to date/);
  });

  it('creates organizations and manages clients and keys, with --json, against a running server', async () => {
    const created = await purser(
      ['org', 'create', '--name', 'Acme', '--billing-email', 'billing@acme.test', '--json'],
      env,
    );
    expect(created.code).toBe(0);
    const org = JSON.parse(created.stdout);
    expect(Object.keys(org).sort()).toEqual(['organization_id', 'production', 'sandbox']);
    for (const mode of ['sandbox', 'production']) {
      expect(Object.keys(org[mode]).sort()).toEqual(['api_key', 'client_id', 'client_secret']);
    }
    expect(org.sandbox.api_key).toMatch(/^sk_test_/);
    expect(org.production.api_key).toMatch(/^sk_live_/);

    const server = await startServer(env);
    try {
      const sandbox = await token(server.url, org.sandbox.client_id, org.sandbox.client_secret);
      expect(sandbox.status).toBe(200);
      const introspection = await fetch(`${server.url}/api/v2`, {
        headers: { authorization: `Bearer ${(await sandbox.json()).access_token}` },
      });
      expect(await introspection.json()).toMatchObject({
        organization_id: org.organization_id,
        test_mode: true,
      });

      const started = await fetch(`${server.url}/api/v2/connect/start`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${(await (await token(server.url, org.sandbox.client_id, org.sandbox.client_secret)).json()).access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email: 'outbox@acme.test' }),
      });
      expect(started.status).toBe(201);
      const outbox = JSON.parse((await purser(['outbox', '--json'], env)).stdout);
      expect(outbox[0]).toMatchObject({ channel: 'email', recipient: 'outbox@acme.test', livemode: 0 });
      expect(outbox[0].body).toContain('111111');
      expect((await purser(['outbox'], env)).stdout).toMatch(/email to outbox@acme\.test\s+\(sandbox\)/);

      const suspend = await purser(
        ['org', 'update', org.organization_id, '--status', 'suspended', '--json'],
        env,
      );
      expect(suspend.code).toBe(0);
      expect(JSON.parse(suspend.stdout)).toMatchObject({ status: 'suspended', subscription: 'none' });
      expect((await token(server.url, org.sandbox.client_id, org.sandbox.client_secret)).status).toBe(403);
      await purser(
        ['org', 'update', org.organization_id, '--status', 'active', '--subscription', 'active'],
        env,
      );
      expect((await token(server.url, org.sandbox.client_id, org.sandbox.client_secret)).status).toBe(200);

      const rotated = JSON.parse(
        (await purser(['client', 'rotate-secret', org.production.client_id, '--json'], env)).stdout,
      );
      expect((await token(server.url, org.production.client_id, org.production.client_secret)).status).toBe(
        401,
      );
      expect((await token(server.url, org.production.client_id, rotated.client_secret)).status).toBe(200);

      const publicClient = JSON.parse(
        (
          await purser(
            ['client', 'create', org.organization_id, '--mode', 'sandbox', '--public', '--json'],
            env,
          )
        ).stdout,
      );
      expect(publicClient).toMatchObject({ client_secret: null, type: 'public', mode: 'sandbox' });
      const confidential = JSON.parse(
        (await purser(['client', 'create', org.organization_id, '--mode', 'production', '--json'], env))
          .stdout,
      );
      expect((await token(server.url, confidential.client_id, confidential.client_secret)).status).toBe(200);
      const revoked = await purser(['client', 'revoke', confidential.client_id, '--json'], env);
      expect(JSON.parse(revoked.stdout)).toEqual({ client_id: confidential.client_id, status: 'revoked' });
      expect((await token(server.url, confidential.client_id, confidential.client_secret)).status).toBe(401);

      const key = JSON.parse(
        (await purser(['key', 'create', org.organization_id, '--mode', 'sandbox', '--json'], env)).stdout,
      );
      expect(key.api_key).toMatch(/^sk_test_/);
      const rotatedKey = JSON.parse(
        (await purser(['key', 'rotate', org.organization_id, '--mode', 'production', '--json'], env)).stdout,
      );
      expect(rotatedKey.api_key).toMatch(/^sk_live_/);
      expect(rotatedKey.api_key).not.toBe(org.production.api_key);
    } finally {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
  });

  it('refuses bad usage with exit code 2 and a message', async () => {
    const missing = await purser(['org', 'create', '--name', 'No email'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--billing-email is required/);
    const badStatus = await purser(['org', 'update', 'org_x', '--status', 'paused'], env);
    expect(badStatus.code).toBe(2);
    const unknownOrg = await purser(['org', 'update', 'org_missing', '--status', 'active'], env);
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stderr).toMatch(/No organization/);
  });
});

describe('purser serve', { timeout: 120_000 }, () => {
  it.skipIf(onPostgres)(
    'creates a demo organization on an empty database and prints its sandbox credentials once',
    async () => {
      const fresh = freshDatabaseUrl();
      const freshEnv = { DATABASE_URL: fresh.url, LOG_LEVEL: 'info' };
      try {
        const first = await startServer(freshEnv);
        const printed = first.output();
        const clientId = /client_id:\s+(\S+)/.exec(printed)?.[1] as string;
        const clientSecret = /client_secret:\s+(\S+)/.exec(printed)?.[1] as string;
        expect(clientId).toMatch(/^cli_/);
        expect(printed).toMatch(/api_key:\s+sk_test_/);
        const minted = await token(first.url, clientId, clientSecret);
        expect(minted.status).toBe(200);
        first.child.kill('SIGTERM');
        expect(await exited(first.child)).toBe(0);

        const second = await startServer(freshEnv);
        expect(second.output()).not.toMatch(/client_secret/);
        second.child.kill('SIGTERM');
        await exited(second.child);
      } finally {
        await fresh.drop();
      }
    },
  );

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const server = await startServer(env);
    const org = JSON.parse(
      (await purser(['org', 'create', '--name', 'Drain', '--billing-email', 'd@d.test', '--json'], env))
        .stdout,
    );
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: org.sandbox.client_id,
      client_secret: org.sandbox.client_secret,
    }).toString();
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk;
    });
    // Half the request, then the signal, then the rest: the request is in flight during shutdown.
    socket.write(
      `POST /api/v2/oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write(body.slice(10));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(response).toContain('"token_type":"Bearer"');
    expect(await exited(server.child)).toBe(0);
  });
});
