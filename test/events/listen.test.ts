import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { BIN, exited, purser } from '../cli/process.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { expectedSignatures, Receiver, testEncryptionKey } from './receiver.ts';

let ctx: AppContext;
let database: ReturnType<typeof freshDatabaseUrl>;
let receiver: Receiver;
const env: Record<string, string> = {};

beforeAll(async () => {
  database = freshDatabaseUrl();
  Object.assign(env, { DATABASE_URL: database.url, ENCRYPTION_KEY: testEncryptionKey(), LOG_LEVEL: 'warn' });
  ctx = await createContext(loadConfig({ ...env, BASE_URL: 'http://purser.test' }));
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
  await database.drop();
});

/** `purser events listen …` as a real process, resolved once it says it listens. */
async function startListening(args: string[]) {
  const { BASE_URL: _vite, ...rest } = process.env;
  const child = spawn(process.execPath, [BIN, 'events', 'listen', ...args], {
    env: { ...rest, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  await until(
    () => stderr.includes('Listening for'),
    () => stderr,
  );
  // Both streams, for a wait that times out: whether the event was printed, or only not forwarded.
  const output = () => `stderr:\n${stderr}\nstdout:\n${stdout}`;
  return { child, stdout: () => stdout, stderr: () => stderr, output };
}

async function until(condition: () => boolean, output: () => string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function emit(
  organizationId: string,
  livemode: boolean,
  type: string,
  data: Record<string, unknown> = {},
  from: AppContext = ctx,
) {
  const { id } = await from.db
    .transaction()
    .execute((trx) => from.events.emit(trx, { organizationId, livemode, type, data }));
  return id;
}

describe('purser events listen', { timeout: 120_000 }, () => {
  let listener: ChildProcess | null = null;
  afterAll(() => {
    if (listener?.exitCode === null) listener.kill('SIGKILL');
  });

  it('prints each new event of its organization, mode and types once, and forwards it signed', async () => {
    const org = await ctx.orgs.createOrganization({ name: 'Listen', billingEmail: 'billing@listen.test' });
    const other = await ctx.orgs.createOrganization({ name: 'Other', billingEmail: 'billing@other.test' });
    const before = await emit(org.organization_id, false, 'card.created');
    const run = await startListening([
      org.organization_id,
      '--mode',
      'sandbox',
      '--type',
      'card.*',
      '--type',
      'balance.low',
      '--forward-to',
      receiver.url,
      '--json',
    ]);
    listener = run.child;
    const secret = /signed with (whsec_\S+)/.exec(run.stderr())?.[1];
    expect(secret).toMatch(/^whsec_/);

    const wanted = [
      await emit(org.organization_id, false, 'card.created', { n: 1 }),
      await emit(org.organization_id, false, 'balance.low', { n: 2 }),
    ];
    // Another type, the other mode and another organization: not shown.
    await emit(org.organization_id, false, 'transaction.authorized');
    await emit(org.organization_id, true, 'card.created');
    await emit(other.organization_id, false, 'card.created');
    wanted.push(await emit(org.organization_id, false, 'card.closed', { n: 3 }));

    const lines = () => run.stdout().trim().split('\n').filter(Boolean);
    // A marker emitted now and shown means the listener polled again after everything before it.
    const markers = new Set<string>();
    const afterMorePolls = async (organizationId: string) => {
      const marker = await emit(organizationId, false, 'card.updated', { marker: true });
      markers.add(marker);
      await until(() => run.stdout().includes(marker), run.output);
    };
    await until(() => lines().length >= 3 && receiver.received.length >= 3, run.output);
    // Polls after the wanted ones, proven by a later marker being shown: nothing is shown twice,
    // nothing else arrives.
    await afterMorePolls(org.organization_id);
    // Oldest first, but events of the same millisecond come in id order: compare as sets.
    const printed = lines()
      .map((line) => JSON.parse(line))
      .filter((e) => !markers.has(e.id));
    expect(printed.map((e) => e.id).sort()).toEqual([...wanted].sort());
    expect(printed.map((e) => e.id)).not.toContain(before);
    expect(printed.find((e) => e.id === wanted[1])).toEqual({
      id: wanted[1],
      type: 'balance.low',
      created: expect.any(Number),
      livemode: false,
      data: { n: 2 },
    });

    expect(
      receiver
        .eventIds()
        .filter((id) => !markers.has(id))
        .sort(),
    ).toEqual([...wanted].sort());
    for (const request of receiver.received) {
      const t = Number(/^t=(\d+),/.exec(String(request.headers['service-signature']))?.[1]);
      const expected = expectedSignatures(secret!, request.body, t);
      expect(request.headers['service-signature']).toBe(expected.current);
      expect(request.headers['x-service-signature']).toBe(expected.legacy);
      expect(request.headers['service-event-id']).toBe(JSON.parse(request.body).id);
    }
    expect(run.stderr()).toContain(`${wanted[0]} -> 200`);

    // A transaction that began earlier and commits now: its event is older than those shown, and
    // still shown, once.
    const first = await ctx.db
      .selectFrom('events')
      .select('created_at')
      .where('id', '=', wanted[0]!)
      .executeTakeFirstOrThrow();
    const late = await createContext(loadConfig({ ...env, BASE_URL: 'http://purser.test' }), {
      clock: new ManualClock(Number(first.created_at)),
    });
    try {
      const lateId = await emit(org.organization_id, false, 'card.updated', {}, late);
      await until(() => lines().some((line) => JSON.parse(line).id === lateId), run.output);
      await afterMorePolls(org.organization_id);
      expect(
        lines()
          .map((line) => JSON.parse(line).id)
          .filter((id) => !markers.has(id)),
      ).toEqual([...printed.map((e) => e.id), lateId]);
    } finally {
      await late.close();
    }

    run.child.kill('SIGINT');
    expect(await exited(run.child)).toBe(0);
  });

  it('forwards through the guarded client: a cloud metadata address is refused, never reached', async () => {
    const org = await ctx.orgs.createOrganization({
      name: 'Metadata',
      billingEmail: 'billing@metadata.test',
    });
    const run = await startListening([
      org.organization_id,
      '--mode',
      'sandbox',
      '--forward-to',
      'http://169.254.169.254/latest/meta-data/',
    ]);
    listener = run.child;
    const id = await emit(org.organization_id, false, 'card.created');
    await until(() => run.stderr().includes(`${id} -> `), run.output);
    expect(run.stderr()).toContain(`${id} -> refused: 169.254.169.254 resolves to a cloud metadata address`);
    run.child.kill('SIGINT');
    expect(await exited(run.child)).toBe(0);
  });

  it('refuses an unknown organization, a missing mode and a bad forward URL', async () => {
    const org = await ctx.orgs.createOrganization({ name: 'Bad', billingEmail: 'billing@bad.test' });
    const unknown = await purser(['events', 'listen', 'org_unknown', '--mode', 'sandbox'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/organization/i);
    const noMode = await purser(['events', 'listen', org.organization_id], env);
    expect(noMode.code).toBe(2);
    expect(noMode.stderr).toContain('--mode is required');
    const badUrl = await purser(
      ['events', 'listen', org.organization_id, '--mode', 'sandbox', '--forward-to', 'ftp://x'],
      env,
    );
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--forward-to must be an http(s) URL');
  });
});
