import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { exited } from '../cli/process.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { Receiver, testEncryptionKey } from './receiver.ts';

const EVENTS = 300;

let ctx: AppContext;
let database: ReturnType<typeof freshDatabaseUrl>;
let receiver: Receiver;
const env: Record<string, string> = {};
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = freshDatabaseUrl();
  Object.assign(env, {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: testEncryptionKey(),
    WEBHOOK_LEASE_MS: '2000',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    WEBHOOK_CONCURRENCY: '8',
    LOG_LEVEL: 'warn',
    // vitest sets BASE_URL=/ for its own use; the worker needs a real one.
    BASE_URL: 'http://purser.test',
    // The receivers listen on 127.0.0.1: a private destination, allowed here explicitly.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  });
  ctx = await createContext(loadConfig(env));
  receiver = await Receiver.start();
  // Slow enough that the kill lands with deliveries in flight.
  receiver.answer = () => ({ status: 200, delayMs: 20 });
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await receiver.close();
  await ctx.close();
  await database.drop();
});

/** `purser worker` as its own process, resolved once it says it started. */
function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['bin/purser.js', 'worker'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker started')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${output}`)));
  });
}

describe('a worker killed with SIGKILL mid-stream', () => {
  it('loses nothing: after a restart the receiver has seen every event id at least once', async () => {
    const org = await ctx.orgs.createOrganization({ name: 'Fault', billingEmail: 'billing@fault.test' });
    await ctx.events.createEndpoint(
      { organizationId: org.organization_id, livemode: false },
      { url: receiver.url, enabled_events: ['*'] },
    );
    const first = await startWorker();
    const emitted: string[] = [];
    let killedAt = -1;
    let inFlightAtKill = 0;
    let emittedAtKill = 0;
    for (let i = 0; i < EVENTS; i++) {
      const { id } = await ctx.db.transaction().execute((trx) =>
        ctx.events.emit(trx, {
          organizationId: org.organization_id,
          livemode: false,
          type: 'transaction.authorized',
          data: { i },
        }),
      );
      emitted.push(id);
      // Mid-stream: once 60 have arrived, or with 100 events still to come on a slow machine.
      if (killedAt < 0 && (receiver.received.length >= 60 || i === EVENTS - 100)) {
        const held = await ctx.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('lease_token', 'is not', null)
          .executeTakeFirstOrThrow();
        inFlightAtKill = Number(held.n);
        first.kill('SIGKILL');
        killedAt = receiver.received.length;
        emittedAtKill = emitted.length;
      }
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    // A process killed by a signal has a signalCode, not an exitCode.
    await exited(first);
    expect(first.signalCode).toBe('SIGKILL');
    expect(emittedAtKill).toBeLessThan(EVENTS);

    const second = await startWorker();
    const deadline = Date.now() + 40_000;
    const missing = () => {
      const seen = new Set(receiver.eventIds());
      return emitted.filter((id) => !seen.has(id));
    };
    const unsettled = async () =>
      ctx.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status'])
        .where('status', '!=', 'succeeded')
        .execute();
    // Every id seen, and every delivery recorded as succeeded (those the kill interrupted are
    // claimed again once their lease ends, and delivered a second time).
    while ((missing().length > 0 || (await unsettled()).length > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(missing()).toEqual([]);
    expect(await unsettled()).toEqual([]);
    second.kill('SIGTERM');
    expect(await exited(second)).toBe(0);
    // Report what the kill interrupted (at-least-once: duplicates are allowed, losses are not).
    const duplicates = receiver.received.length - new Set(receiver.eventIds()).size;
    console.log(
      `fault test: killed after ${killedAt} deliveries with ${inFlightAtKill} claimed; ` +
        `${EVENTS} events, ${receiver.received.length} requests, ${duplicates} duplicates`,
    );
  }, 90_000);
});
