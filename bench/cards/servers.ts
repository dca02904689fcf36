/**
 * The two servers bench/cards compares, in one process: Purser on a fresh SQLite database with an
 * approved, funded user and cards to charge, and a bare Fastify route doing one SQLite insert per
 * request. Prints one JSON line with both addresses, a platform token and the card ids.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const CARDS = 40;
const dir = mkdtempSync(join(tmpdir(), 'purser-bench-cards-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  TOKEN_RATE_LIMIT: '1000000',
  CARD_MAX_AMOUNT_CENTS: '100000000',
});
const ctx = await createContext(config);
const app = await buildApp(ctx);
const purserUrl = await app.listen({ port: 0, host: '127.0.0.1' });

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
const { access_token: token } = await call('POST', '/api/v2/oauth/token', null, {
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
const cardIds: string[] = [];
for (let i = 0; i < CARDS; i++) {
  const card = await call('POST', '/api/v2/cards', token, {
    user_id: userId,
    amount_cents: 2_000_000,
    type: 'multi_use',
  });
  cardIds.push(card.id);
}

// The floor to compare with: one prepared SQLite insert per request, same journal settings.
const bareDb = new SQLite(join(dir, 'bare.db'));
bareDb.pragma('journal_mode = WAL');
bareDb.pragma('synchronous = NORMAL');
bareDb.exec(
  'create table charges (id integer primary key, card_id text not null, amount integer not null, merchant text not null)',
);
const insert = bareDb.prepare('insert into charges (card_id, amount, merchant) values (?, ?, ?)');
const bare = Fastify({ logger: false });
bare.post('/api/v2/simulate/authorize', async (request) => {
  const body = request.body as { card_id: string; amount_cents: number; merchant: string };
  const { lastInsertRowid } = insert.run(body.card_id, body.amount_cents, body.merchant);
  return { object: 'transaction', id: String(lastInsertRowid), status: 'PENDING' };
});
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ purserUrl, bareUrl, token, cardIds })}\n`);
process.on('SIGTERM', async () => {
  const violations = await ctx.ledger.verify();
  process.stderr.write(
    `ledger verify after the run: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}\n`,
  );
  await app.close();
  await bare.close();
  await ctx.close();
  process.exit(violations.length === 0 ? 0 : 1);
});
