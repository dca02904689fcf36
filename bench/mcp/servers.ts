/**
 * The two servers the MCP benchmark compares, in one process: Purser's tool server on a fresh SQLite
 * database, and a bare Fastify route answering a JSON-RPC POST with the same whoami result, without
 * authentication or the MCP SDK. Prints one JSON line with both addresses and a connection token
 * (connect start + verify with the sandbox code), then serves until killed.
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
  AUTH_CACHE_TTL_MS: process.env.AUTH_CACHE_TTL_MS,
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
const attempt = await call('/api/v2/connect/start', platform, { email: 'bench.user@bench.test' });
const connection = await call('/api/v2/connect/verify', platform, { connect_id: attempt.id, code: '111111' });
const token = connection.access_token as string;

const bare = Fastify({ logger: false });
const user = connection.user as { id: string; email: string; phone: null };
const structured = {
  user,
  client_id: org.sandbox.client_id,
  connection_id: 'conn_bench',
  organization_id: org.organization_id,
  test_mode: true,
};
bare.post('/mcp', async (request) => ({
  jsonrpc: '2.0',
  id: (request.body as { id: number }).id,
  result: {
    content: [{ type: 'text', text: `Connected as user ${user.id} (${user.email}), test mode.` }],
    structuredContent: structured,
  },
}));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ purserUrl, bareUrl, token })}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await ctx.close();
  process.exit(0);
});
