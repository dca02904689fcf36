import { type ChildProcess, spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { BIN, exited, purser, startServer } from '../cli/process.ts';
import { testEncryptionKey } from '../events/receiver.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';

/*
 * SIGKILL the API inside each step of a confirm (PURSER_FAILPOINT=purchases.<step>), then let a
 * worker resolve what it left: the order ends with one order and one settled charge, or no order
 * and no charge, the wallet debited at most once, and `purser ledger verify` passes.
 */

let ctx: AppContext;
let app: FastifyInstance;
let database: ReturnType<typeof freshDatabaseUrl>;
let platform: string;
let userToken: string;
let userId: string;
const env: Record<string, string> = {};
const children: ChildProcess[] = [];
const FUNDS = 100_000;

beforeAll(async () => {
  database = freshDatabaseUrl();
  Object.assign(env, {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: testEncryptionKey(),
    BASE_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'warn',
    TOKEN_RATE_LIMIT: '100000',
    PURSER_DEMO: 'off',
    PURCHASE_CONFIRM_GRACE_SECONDS: '1',
  });
  ctx = await createContext(loadConfig(env));
  app = await buildApp(ctx);
  const org = await ctx.orgs.createOrganization({
    name: 'Crash Purchases',
    billingEmail: 'billing@crash.test',
  });
  const minted = await app.inject({
    method: 'POST',
    url: '/api/v2/oauth/token',
    payload: {
      grant_type: 'client_credentials',
      client_id: org.sandbox.client_id,
      client_secret: org.sandbox.client_secret,
    },
  });
  platform = minted.json().access_token;
  const started = await call(platform, 'POST', '/api/v2/connect/start', { email: 'crash.buyer@example.com' });
  const verified = await call(platform, 'POST', '/api/v2/connect/verify', {
    connect_id: started.id,
    code: '111111',
  });
  userId = verified.user.id;
  userToken = verified.access_token;
  await call(platform, 'POST', '/api/v2/simulate/wallet_funding', { user_id: userId, amount_cents: FUNDS });
});
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await app.close();
  await ctx.close();
  await database.drop();
});

async function call(token: string, method: 'POST' | 'GET', url: string, body?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { payload: body as object } : {}),
  });
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

const wallet = async () =>
  (await call(platform, 'GET', `/api/v2/users/${userId}/wallet`)).balance_cents as number;

async function ordersOf(conversationId: string) {
  return ctx.db.selectFrom('orders').selectAll().where('conversation_id', '=', conversationId).execute();
}

/** Polls the database (a worker process moves the order) until no order of the conversation is pending. */
async function settled(conversationId: string) {
  const deadline = Date.now() + 45_000;
  let orders = await ordersOf(conversationId);
  while (orders.some((o) => o.status === 'pending') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    orders = await ordersOf(conversationId);
  }
  return orders;
}

async function eventsOf(orderId: string) {
  const rows = await ctx.db.selectFrom('events').select(['type', 'data']).execute();
  return rows
    .filter((row) => JSON.parse(row.data).order_id === orderId)
    .map((row) => row.type)
    .sort();
}

function worker(): ChildProcess {
  const { BASE_URL: _base, MODE: _mode, DEV: _dev, PROD: _prod, SSR: _ssr, ...rest } = process.env;
  const child = spawn(process.execPath, [BIN, 'worker'], { env: { ...rest, ...env }, stdio: 'ignore' });
  children.push(child);
  return child;
}

it.each([
  ['order', 'nothing: the order row never committed'],
  ['card', 'no order and no charge: the card never committed'],
  ['charge', 'one order and one settled charge: the merchant had charged'],
  ['settle', 'one order and one settled charge: the clearing is taken again'],
])(
  'a confirm killed inside the %s step ends in %s',
  async (step) => {
    const before = await wallet();
    const turn = await call(userToken, 'POST', '/buy', { ask: '2 notebooks from retail' });
    const { hash, totalCents } = turn.cart;

    const server = await startServer({ ...env, LOG_LEVEL: 'info', PURSER_FAILPOINT: `purchases.${step}` });
    children.push(server.child);
    const answer = await fetch(`${server.url}/buy`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: hash, conversation_id: turn.conversation_id }),
    }).catch((error: Error) => error);
    expect(answer).toBeInstanceOf(Error);
    await exited(server.child);
    expect(server.child.signalCode).toBe('SIGKILL');

    if ((await ordersOf(turn.conversation_id)).length > 0) {
      const resolver = worker();
      await settled(turn.conversation_id);
      resolver.kill('SIGTERM');
      expect(await exited(resolver)).toBe(0);
    }
    const orders = await ordersOf(turn.conversation_id);

    expect(orders.length).toBeLessThanOrEqual(1);
    const order = orders[0];
    if (step === 'charge' || step === 'settle') {
      expect(order).toMatchObject({ status: 'confirmed', charge_status: 'settled', final_cents: totalCents });
      expect(await wallet()).toBe(before - totalCents);
      expect(await eventsOf(order!.id)).toEqual(['order.confirmed', 'order.placed']);
      const transactions = await ctx.db
        .selectFrom('card_transactions')
        .select(['status'])
        .where('card_id', '=', order!.card_id)
        .execute();
      expect(transactions).toEqual([{ status: 'SETTLED' }]);
    } else {
      if (order) expect(order).toMatchObject({ status: 'failed', charge_status: 'none', card_id: null });
      expect(await wallet()).toBe(before);
      if (order) expect(await eventsOf(order.id)).toEqual([]);
    }
    const verify = await purser(['ledger', 'verify', '--json'], env);
    expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
  },
  120_000,
);
