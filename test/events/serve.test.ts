import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../packages/sdk/src/index.ts';
import { runCommand } from '../../src/cli/commands.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { exited } from '../cli/process.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { Receiver, testEncryptionKey } from './receiver.ts';

let ctx: AppContext;
let database: ReturnType<typeof freshDatabaseUrl>;
let receiver: Receiver;
const env: Record<string, string> = {};

beforeAll(async () => {
  database = freshDatabaseUrl();
  // vitest sets BASE_URL=/ for its own use; the service needs a real one.
  Object.assign(env, {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: testEncryptionKey(),
    BASE_URL: 'http://purser.test',
    // The receivers listen on 127.0.0.1: a private destination, allowed here explicitly.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  });
  ctx = await createContext(loadConfig(env));
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
  await database.drop();
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('purser serve', () => {
  it('runs the worker beside the API: a test event sent over HTTP is delivered, and SIGTERM exits cleanly', async () => {
    const org = await ctx.orgs.createOrganization({ name: 'Serve', billingEmail: 'billing@serve.test' });
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ['bin/purser.js', 'serve'], {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      // Starting takes seconds on a loaded machine: wait up to a minute for the health check.
      for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
        if (
          await fetch(`${base}/healthz`)
            .then((r) => r.ok)
            .catch(() => false)
        )
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const headers = { authorization: `Bearer ${org.sandbox.api_key}`, 'content-type': 'application/json' };
      const created = await fetch(`${base}/api/v1/webhook_endpoints`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url, enabled_events: ['card.*'] }),
      }).then((r) => r.json());
      const test = await fetch(`${base}/api/v1/webhook_endpoints/${created.id}/test`, {
        method: 'POST',
        headers,
      });
      expect(test.status).toBe(202);
      const { event_id: eventId } = await test.json();
      const start = receiver.received.length;
      await receiver.waitFor(start + 1, 20_000);
      const request = receiver.received.at(-1)!;
      expect(JSON.parse(request.body).id).toBe(eventId);
      expect(
        verifySignature(request.body, String(request.headers['service-signature']), created.secret),
      ).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
    expect(child.exitCode).toBe(0);
  }, 90_000);
});

describe('CLI', () => {
  it('creates an endpoint, sends a test event, lists events and shows the delivery log', async () => {
    const org = await ctx.orgs.createOrganization({ name: 'Cli', billingEmail: 'billing@cli.test' });
    const out: string[] = [];
    const run = async (...argv: string[]) => {
      out.length = 0;
      await runCommand(ctx, argv, (text) => out.push(text));
      return out.join('\n');
    };
    const created = JSON.parse(
      await run(
        'webhook',
        'create',
        org.organization_id,
        '--mode',
        'sandbox',
        '--url',
        receiver.url,
        '--events',
        'card.*',
        '--json',
      ),
    );
    expect(created).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(await run('webhook', 'list', org.organization_id, '--mode', 'sandbox')).toContain(created.id);
    const test = JSON.parse(await run('webhook', 'test', created.id, '--type', 'card.created', '--json'));
    expect(test.event_id).toMatch(/^evt_/);
    expect(await run('events', 'list', org.organization_id, '--mode', 'sandbox')).toContain(test.event_id);
    const { Worker } = await import('../../src/jobs/worker.ts');
    await new Worker(ctx, { info: () => {}, error: () => {} }).runOnce();
    const log = await run('webhook', 'deliveries', created.id);
    expect(log).toContain(test.event_id);
    expect(log).toContain('succeeded');
    const resent = JSON.parse(await run('webhook', 'resend', created.id, test.event_id, '--json'));
    expect(resent).toMatchObject({ event_id: test.event_id, status: 'pending' });
    const rolled = JSON.parse(await run('webhook', 'roll-secret', created.id, '--json'));
    expect(rolled.secret).not.toBe(created.secret);
    expect(JSON.parse(await run('webhook', 'disable', created.id, '--json')).status).toBe('disabled');
    expect(JSON.parse(await run('webhook', 'enable', created.id, '--json')).status).toBe('active');
    await expect(run('webhook', 'bogus', created.id)).rejects.toThrow(/unknown command/);
    // An organization that does not exist is said so, never an empty list nor a database error.
    for (const argv of [
      ['webhook', 'list', 'org_nope', '--mode', 'sandbox'],
      ['events', 'list', 'org_nope', '--mode', 'sandbox'],
      ['webhook', 'create', 'org_nope', '--mode', 'sandbox', '--url', receiver.url, '--events', 'card.*'],
    ])
      await expect(run(...argv), argv.join(' ')).rejects.toThrow('No organization org_nope.');
  });
});
