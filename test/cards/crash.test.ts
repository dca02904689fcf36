import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { exited, purser, startServer } from '../cli/process.ts';
import { Receiver, testEncryptionKey } from '../events/receiver.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';

/*
 * SIGKILL `purser serve` (API and worker) in the middle of a stream of authorizations and
 * clearings, start it again, and check that no cent and no owed event was lost: the ledger proves
 * its invariants, every committed transaction has its events, and every event reaches the receiver.
 */

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
    // The server says where it listens at info level.
    LOG_LEVEL: 'info',
    BASE_URL: 'http://127.0.0.1',
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    WEBHOOK_LEASE_MS: '2000',
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    TOKEN_RATE_LIMIT: '100000',
    PURSER_DEMO: 'off',
  });
  ctx = await createContext(loadConfig(env));
  receiver = await Receiver.start();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await receiver.close();
  await ctx.close();
  await database.drop();
});

async function serve() {
  const server = await startServer(env);
  children.push(server.child);
  return server;
}

it('loses no cent and no owed event when the server is killed mid-stream', async () => {
  const org = await ctx.orgs.createOrganization({ name: 'Crash', billingEmail: 'billing@crash.test' });
  await ctx.events.createEndpoint(
    { organizationId: org.organization_id, livemode: false },
    { url: receiver.url, enabled_events: ['*'] },
  );
  let server = await serve();
  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await response.json();
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const login = async () => {
    const response = await fetch(`${server.url}/api/v2/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: org.sandbox.client_secret,
      }),
    });
    return (await response.json()).access_token as string;
  };
  const token = await login();
  const attempt = await call('POST', '/api/v2/connect/start', token, { email: 'crash@example.com' });
  const { user } = await call('POST', '/api/v2/connect/verify', token, {
    connect_id: attempt.id,
    code: '111111',
  });
  await call('POST', '/api/v2/kyc/simulate', token, { user_id: user.id, outcome: 'approved' });
  await call('POST', '/api/v2/simulate/wallet_funding', token, { user_id: user.id, amount_cents: 100_000 });
  const cards = await Promise.all(
    [0, 1, 2, 3].map(() =>
      call('POST', '/api/v2/cards', token, { user_id: user.id, amount_cents: 20_000, type: 'multi_use' }),
    ),
  );

  // Four streams of authorize-then-clear; the kill lands while requests are in flight.
  let completed = 0;
  let killed = false;
  const stream = async (cardId: string) => {
    for (let i = 0; i < 200 && !killed; i++) {
      try {
        const txn = await call('POST', '/api/v2/simulate/authorize', token, {
          card_id: cardId,
          amount_cents: 7 + i,
          merchant: 'Crash Mart',
        });
        completed++;
        if (i % 2 === 0)
          await call('POST', '/api/v2/simulate/clear', token, {
            transaction_id: txn.id,
            amount_cents: 5 + i,
          });
        else await call('POST', '/api/v2/simulate/void', token, { transaction_id: txn.id });
        completed++;
      } catch {
        return; // the server died under this request
      }
      if (completed >= 60 && !killed) {
        killed = true;
        server.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(cards.map((card) => stream(card.id)));
  expect(killed).toBe(true);
  // A process killed by a signal has a signalCode, not an exitCode.
  if (server.child.signalCode === null) await exited(server.child);
  expect(server.child.signalCode).toBe('SIGKILL');

  server = await serve();
  // The books balance after the crash, from a separate process.
  const verify = await purser(['ledger', 'verify', '--json'], env);
  expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });

  // Every committed transaction has its event, and every event of the organization arrives.
  const transactions = await ctx.db.selectFrom('card_transactions').select(['id', 'status']).execute();
  const events = await ctx.db
    .selectFrom('events')
    .select(['id', 'type', 'data'])
    .where('organization_id', '=', org.organization_id)
    .execute();
  for (const txn of transactions) {
    const authorized = events.some(
      (e) => e.type === 'transaction.authorized' && JSON.parse(e.data).id === txn.id,
    );
    expect(authorized, `transaction.authorized for ${txn.id}`).toBe(true);
    const final = { SETTLED: 'transaction.cleared', VOIDED: 'transaction.voided' }[
      txn.status as 'SETTLED' | 'VOIDED'
    ];
    if (final)
      expect(
        events.some((e) => e.type === final && JSON.parse(e.data).id === txn.id),
        `${final} for ${txn.id}`,
      ).toBe(true);
  }
  const deadline = Date.now() + 40_000;
  const missing = () => {
    const seen = new Set(receiver.eventIds());
    return events.map((e) => e.id).filter((id) => !seen.has(id));
  };
  while (missing().length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(missing()).toEqual([]);
  server.child.kill('SIGTERM');
  expect(await exited(server.child)).toBe(0);
  console.log(
    `crash test: ${completed} calls answered before the kill; ${transactions.length} transactions, ${events.length} events, all delivered`,
  );
}, 120_000);
