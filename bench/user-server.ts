/**
 * What the benchmarks acting for a user share: Purser on a fresh SQLite database, listening on
 * loopback, with one organization, its sandbox platform token and a connected user (connect start
 * and verify with the sandbox code).
 */
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { benchDir } from './temp-dir.ts';

export async function startPurserWithUser(env: Record<string, string | undefined> = {}) {
  const dir = benchDir('purser-bench-');
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    TOKEN_RATE_LIMIT: '1000000',
    ...env,
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
  const connection = await call('/api/v2/connect/verify', platform, {
    connect_id: attempt.id,
    code: '111111',
  });
  return {
    ctx,
    app,
    purserUrl,
    org,
    platform,
    call,
    user: connection.user as { id: string; email: string; phone: null },
    token: connection.access_token as string,
  };
}
