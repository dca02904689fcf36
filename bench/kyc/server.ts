/**
 * The server the KYC benchmark measures: Purser on a fresh SQLite database with the reader setting
 * given in the environment (KYC_READER_THREADS), a sandbox organization and two connected users.
 * Prints one JSON line with its address, a platform token and the user ids, then serves until killed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const dir = mkdtempSync(join(tmpdir(), 'purser-bench-kyc-'));
const ctx = await createContext(
  loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: 'warn',
    KYC_READER_THREADS: process.env.KYC_READER_THREADS,
  }),
);
const app = await buildApp(ctx);
const url = await app.listen({ port: 0, host: '127.0.0.1' });

const org = await ctx.orgs.createOrganization({ name: 'Bench', billingEmail: 'bench@bench.test' });
const call = async (path: string, body: unknown, token?: string) => {
  const response = await app.inject({
    method: 'POST',
    url: path,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body as Record<string, unknown>,
  });
  return response.json();
};
const { access_token: token } = await call('/api/v2/oauth/token', {
  grant_type: 'client_credentials',
  client_id: org.sandbox.client_id,
  client_secret: org.sandbox.client_secret,
});
const userIds: string[] = [];
for (const email of ['one@user.test', 'two@user.test']) {
  const { id: connectId } = await call('/api/v2/connect/start', { email }, token);
  const connection = await call('/api/v2/connect/verify', { connect_id: connectId, code: '111111' }, token);
  userIds.push(connection.user.id);
}

process.stdout.write(`${JSON.stringify({ url, token, userIds })}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await ctx.close();
  process.exit(0);
});
