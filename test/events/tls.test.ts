import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { BIN, exited } from '../cli/process.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { expectedSignatures, testEncryptionKey } from './receiver.ts';

/** A receiver over TLS with a certificate of its own making (openssl), for `localhost`. */
let dir: string;
let server: https.Server;
let url: string;
const received: { headers: Record<string, unknown>; body: string }[] = [];

let ctx: AppContext;
let database: ReturnType<typeof freshDatabaseUrl>;
const env: Record<string, string> = {};
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'purser-tls-'));
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ]);
  server = https.createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://localhost:${(server.address() as AddressInfo).port}/hooks`;

  database = freshDatabaseUrl();
  Object.assign(env, {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: testEncryptionKey(),
    BASE_URL: 'http://purser.test',
    // The receivers listen on 127.0.0.1: a private destination, allowed here explicitly.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    LOG_LEVEL: 'warn',
    WEBHOOK_POLL_INTERVAL_MS: '50',
  });
  ctx = await createContext(loadConfig(env));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function endpointAndEvent() {
  const org = await ctx.orgs.createOrganization({ name: 'TLS', billingEmail: 'billing@tls.test' });
  const owner = { organizationId: org.organization_id, livemode: false };
  const endpoint = await ctx.events.createEndpoint(owner, { url, enabled_events: ['*'] });
  const { id } = await ctx.db
    .transaction()
    .execute((trx) => ctx.events.emit(trx, { ...owner, type: 'card.created', data: { id: 'card_tls' } }));
  return { owner, endpoint, eventId: id };
}

describe('delivery over TLS', () => {
  it('refuses a receiver whose certificate it cannot verify, and records why', async () => {
    const { owner, endpoint, eventId } = await endpointAndEvent();
    const before = received.length;
    await new Worker(ctx, { info: () => {}, error: () => {} }).runOnce();
    expect(received.length).toBe(before);
    const log = await ctx.events.listDeliveries(owner, { endpointId: endpoint.id, eventId }, {});
    expect(log.data[0]).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null });
    expect(log.data[0]?.attempts[0]?.error).toMatch(/SELF_SIGNED/);
  });

  it('delivers, signed, to a receiver whose certificate the worker trusts (NODE_EXTRA_CA_CERTS)', async () => {
    const { endpoint, eventId } = await endpointAndEvent();
    const child = spawn(process.execPath, [BIN, 'worker'], {
      env: { ...process.env, ...env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') },
      stdio: 'ignore',
    });
    children.push(child);
    const deadline = Date.now() + 20_000;
    while (!received.some((r) => JSON.parse(r.body).id === eventId) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const request = received.find((r) => JSON.parse(r.body).id === eventId);
    expect(request).toBeDefined();
    const t = Number(/^t=(\d+),/.exec(String(request!.headers['service-signature']))?.[1]);
    expect(request!.headers['service-signature']).toBe(
      expectedSignatures(endpoint.secret!, request!.body, t).current,
    );
    child.kill('SIGTERM');
    await exited(child);
  });
});
