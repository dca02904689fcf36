/**
 * The Purser side of bench/cards: an app on a fresh SQLite database (or the PostgreSQL database named
 * by `BENCH_DATABASE_URL`, `--pg`) with an approved, funded user and cards to charge (shared by
 * servers.ts, pg-server.ts and cpu.ts).
 */
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { benchDir } from '../temp-dir.ts';

export const CARDS = 40;
export const dir = benchDir('purser-bench-cards-');
const config = loadConfig({
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dir, 'bench.db')}`,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  TOKEN_RATE_LIMIT: '1000000',
  CARD_MAX_AMOUNT_CENTS: '100000000',
  SQLITE_GROUP_COMMIT: process.env.SQLITE_GROUP_COMMIT,
  ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
  // --platform-endpoint: the platform is a server on loopback.
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS,
});
export const ctx = await createContext(config);
export const app = await buildApp(ctx);

const org = await ctx.orgs.createOrganization({ name: 'Bench', billingEmail: 'bench@bench.test' });
const call = async (method: 'GET' | 'POST', url: string, token: string | null, payload?: unknown) => {
  const response = await app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
};
export const { access_token: token } = await call('POST', '/api/v2/oauth/token', null, {
  grant_type: 'client_credentials',
  client_id: org.sandbox.client_id,
  client_secret: org.sandbox.client_secret,
});
const attempt = await call('POST', '/api/v2/connect/start', token, { email: 'bench@example.com' });
const connection = await call('POST', '/api/v2/connect/verify', token, {
  connect_id: attempt.id,
  code: '111111',
});
const userId = connection.user.id as string;
await call('POST', '/api/v2/kyc/simulate', token, { user_id: userId, outcome: 'approved' });
await call('POST', '/api/v2/simulate/wallet_funding', token, { user_id: userId, amount_cents: 100_000_000 });
export const cardIds: string[] = [];
for (let i = 0; i < CARDS; i++) {
  const card = await call('POST', '/api/v2/cards', token, {
    user_id: userId,
    amount_cents: 2_000_000,
    type: 'multi_use',
  });
  cardIds.push(card.id);
}

/**
 * `count` single-use company-funded cards of 5,000 cents for the same user (the pool funded for
 * them; each card flow driven through the worker's steps in place): each card's first approval
 * closes it and returns its rest to the pool (docs/ledger.md, "Accounts credited without their lock").
 */
export async function companyCards(count: number): Promise<string[]> {
  if (count === 0) return [];
  await call('POST', '/api/v2/simulate/company_funding', token, { amount_cents: count * 5_000 });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const flow = await call('POST', '/api/v2/cards', token, {
      user_id: userId,
      amount_cents: 5_000,
      type: 'single_use',
      funding: 'company',
    });
    for (let step = 0; step < 20 && (await ctx.funding.flows.takeStep(flow.transfer_id)); step++);
    const done = await call('GET', `/api/v2/card_flows/${flow.transfer_id}`, token);
    if (done.status !== 'card_created') throw new Error(`card flow ${flow.transfer_id}: ${done.status}`);
    ids.push(done.card_id);
  }
  return ids;
}

/** One authorization of one cent on the `i`-th card in turn, through the API, in-process. */
export const authorize = (i: number) =>
  app.inject({
    method: 'POST',
    url: '/api/v2/simulate/authorize',
    headers: { authorization: `Bearer ${token}` },
    payload: { card_id: cardIds[i % cardIds.length], amount_cents: 1, merchant: 'Bench Shop', mcc: '5411' },
  });

/** `count` authorizations, `concurrency` in flight; throws on the first that is not a 200. */
export async function authorizeAll(count: number, concurrency: number): Promise<void> {
  let issued = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < count) {
        const response = await authorize(issued++);
        if (response.statusCode !== 200)
          throw new Error(`authorize: ${response.statusCode} ${response.body}`);
      }
    }),
  );
}
