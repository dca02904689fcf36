import { type ChildProcess, spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import type { CardFlowStatus } from '../../src/db/schema.ts';
import { BIN, exited, purser } from '../cli/process.ts';
import { testEncryptionKey } from '../events/receiver.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';

/*
 * SIGKILL the worker inside each step of a company-funded card flow, before the step commits
 * (PURSER_FAILPOINT), start a worker again, and check that the flow ends exactly once: each of its
 * events written once, and the ledger's invariants hold (checked by `purser ledger verify`).
 */

let ctx: AppContext;
let app: FastifyInstance;
let database: ReturnType<typeof freshDatabaseUrl>;
let token: string;
let userId: string;
const env: Record<string, string> = {};
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = freshDatabaseUrl();
  Object.assign(env, {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: testEncryptionKey(),
    BASE_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'warn',
    TOKEN_RATE_LIMIT: '100000',
    PURSER_DEMO: 'off',
    FUNDING_POLL_INTERVAL_MS: '10',
    FUNDING_ACK_DEADLINE_SECONDS: '1',
  });
  ctx = await createContext(loadConfig(env));
  app = await buildApp(ctx);
  const org = await ctx.orgs.createOrganization({
    name: 'Crash Funding',
    billingEmail: 'billing@crash.test',
  });
  const minted = await app.inject({
    method: 'POST',
    url: '/api/v2/oauth/token',
    payload: { grant_type: 'client_credentials', ...pick(org.sandbox, 'client_id', 'client_secret') },
  });
  token = minted.json().access_token;
  const started = await call('POST', '/api/v2/connect/start', { email: 'crash.funding@example.com' });
  const verified = await call('POST', '/api/v2/connect/verify', { connect_id: started.id, code: '111111' });
  userId = verified.user.id;
  await call('POST', '/api/v2/kyc/simulate', { user_id: userId, outcome: 'approved' });
  await call('POST', '/api/v2/simulate/company_funding', { amount_cents: 1_000_000 });
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await app.close();
  await ctx.close();
  await database.drop();
});

function pick<T extends object, K extends keyof T>(value: T, ...keys: K[]) {
  return Object.fromEntries(keys.map((k) => [k, value[k]]));
}

async function call(method: 'POST' | 'GET', url: string, body?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { payload: body as object } : {}),
  });
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** `purser worker`, with the test runner's environment less what Vite adds to it. */
function worker(extra: Record<string, string> = {}): ChildProcess {
  const { BASE_URL: _base, MODE: _mode, DEV: _dev, PROD: _prod, SSR: _ssr, ...rest } = process.env;
  const child = spawn(process.execPath, [BIN, 'worker'], {
    env: { ...rest, ...env, ...extra },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

const flowStatus = async (id: string) =>
  (await ctx.db.selectFrom('card_flows').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

/** Polls the database (another process moves the flow) until the flow reaches `status`. */
async function until(id: string, status: CardFlowStatus): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await flowStatus(id)) !== status && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect(await flowStatus(id)).toBe(status);
}

async function eventCounts(transferId: string): Promise<Record<string, number>> {
  const rows = await ctx.db.selectFrom('events').select(['type', 'data']).execute();
  const counts: Record<string, number> = {};
  for (const row of rows)
    if (JSON.parse(row.data).transfer_id === transferId) counts[row.type] = (counts[row.type] ?? 0) + 1;
  return counts;
}

const SUCCESS = {
  'card_flow.started': 1,
  'transfer.approved': 1,
  'transfer.initiated': 1,
  'transfer.completed': 1,
  'card.created': 1,
};

const steps: [CardFlowStatus, CardFlowStatus][] = [
  ['approved', 'started'],
  ['initiated', 'approved'],
  ['completed', 'initiated'],
  ['card_created', 'completed'],
];

it.each(steps)(
  'completes exactly once when the worker dies inside the step to %s',
  async (step, before) => {
    const flow = await call('POST', '/api/v2/cards', {
      user_id: userId,
      amount_cents: 2500,
      type: 'multi_use',
      funding: 'company',
    });
    const dying = worker({ PURSER_FAILPOINT: `funding.${step}` });
    await exited(dying);
    expect(dying.signalCode).toBe('SIGKILL');
    // Killed before its commit: the step left nothing behind.
    expect(await flowStatus(flow.transfer_id)).toBe(before);

    const next = worker();
    await until(flow.transfer_id, 'card_created');
    next.kill('SIGTERM');
    expect(await exited(next)).toBe(0);

    expect(await eventCounts(flow.transfer_id)).toEqual(SUCCESS);
    const cards = await ctx.db
      .selectFrom('cards')
      .select('id')
      .where('transfer_id', '=', flow.transfer_id)
      .execute();
    expect(cards).toHaveLength(1);
    const verify = await purser(['ledger', 'verify', '--json'], env);
    expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
  },
  60_000,
);

it('fails exactly once with ack_timeout when the worker dies inside the timeout', async () => {
  const flow = await call('POST', '/api/v2/cards', {
    user_id: userId,
    amount_cents: 4000,
    type: 'multi_use',
    funding: 'company',
    ack_required: true,
  });
  // The dying worker sweeps the flow once its one-second deadline has passed.
  const dying = worker({ PURSER_FAILPOINT: 'funding.failed' });
  await exited(dying);
  expect(dying.signalCode).toBe('SIGKILL');
  expect(await flowStatus(flow.transfer_id)).toBe('awaiting_collection');

  const next = worker();
  await until(flow.transfer_id, 'failed');
  next.kill('SIGTERM');
  expect(await exited(next)).toBe(0);

  expect(await eventCounts(flow.transfer_id)).toEqual({ 'card_flow.started': 1, 'transfer.failed': 1 });
  const wallet = await call('GET', '/api/v2/wallet');
  expect(wallet.reserved_cents).toBe(0);
  const verify = await purser(['ledger', 'verify', '--json'], env);
  expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
}, 60_000);

it('fails the mint exactly once (card_flow.failed) when the worker dies inside that step', async () => {
  const flow = await call('POST', '/api/v2/cards', {
    user_id: userId,
    amount_cents: 3000,
    type: 'multi_use',
    funding: 'company',
  });
  // Here, up to the money moving; then the user's verification is withdrawn before the mint.
  for (let i = 0; i < 3; i++) await ctx.funding.flows.takeStep(flow.transfer_id);
  expect(await flowStatus(flow.transfer_id)).toBe('completed');
  await call('POST', '/api/v2/kyc/simulate', { user_id: userId, outcome: 'rejected' });
  try {
    const dying = worker({ PURSER_FAILPOINT: 'funding.card_failed' });
    await exited(dying);
    expect(dying.signalCode).toBe('SIGKILL');
    expect(await flowStatus(flow.transfer_id)).toBe('completed');

    const next = worker();
    await until(flow.transfer_id, 'card_failed');
    next.kill('SIGTERM');
    expect(await exited(next)).toBe(0);
  } finally {
    await call('POST', '/api/v2/kyc/simulate', { user_id: userId, outcome: 'approved' });
  }
  expect(await eventCounts(flow.transfer_id)).toEqual({
    'card_flow.started': 1,
    'transfer.approved': 1,
    'transfer.initiated': 1,
    'transfer.completed': 1,
    'card_flow.failed': 1,
  });
  const verify = await purser(['ledger', 'verify', '--json'], env);
  expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
}, 60_000);
