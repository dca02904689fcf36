/**
 * The two servers the purchase benchmark compares, in one process: Purser on a fresh SQLite database
 * (a connected sandbox user with a funded wallet), and a bare Fastify route answering a POST with a
 * JSON body of an envelope's size, without authentication. Prints one JSON line with both addresses
 * and the user's connection token, then serves until killed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const dir = mkdtempSync(join(tmpdir(), 'purser-bench-'));
const config = loadConfig({
  DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  TOKEN_RATE_LIMIT: '1000000',
});
const ctx = await createContext(config);
const app = await buildApp(ctx);
const purserUrl = await app.listen({ port: 0, host: '127.0.0.1' });

const org = await ctx.orgs.createOrganization({ name: 'Bench', billingEmail: 'bench@bench.test' });
const call = async (url: string, token: string, payload: Record<string, unknown>) => {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}` },
    payload,
  });
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
};
const platform = (
  await app.inject({
    method: 'POST',
    url: '/api/v2/oauth/token',
    payload: {
      grant_type: 'client_credentials',
      client_id: org.sandbox.client_id,
      client_secret: org.sandbox.client_secret,
    },
  })
).json().access_token as string;
const attempt = await call('/api/v2/connect/start', platform, { email: 'bench.buyer@bench.test' });
const connection = await call('/api/v2/connect/verify', platform, { connect_id: attempt.id, code: '111111' });
await call('/api/v2/simulate/wallet_funding', platform, {
  user_id: connection.user.id,
  amount_cents: 100_000_000,
});

const bare = Fastify({ logger: false });
const sample = await call('/buy', connection.access_token, { ask: '2 lattes from coffee' });
bare.post('/buy', async () => sample);
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ purserUrl, bareUrl, token: connection.access_token })}\n`);
process.on('SIGTERM', async () => {
  const violations = await ctx.ledger.verify();
  process.stderr.write(
    `  ledger verify after the run: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}\n`,
  );
  await app.close();
  await bare.close();
  await ctx.close();
  process.exit(0);
});
