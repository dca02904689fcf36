/**
 * The two servers the API benchmark compares, each in its own process (`serveRoles`): Purser's app
 * on a fresh SQLite database, and a bare Fastify route answering the same JSON without
 * authentication. Purser's line carries its address and a platform token.
 */
import { join } from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { serveRoles } from '../servers-process.ts';
import { benchDir } from '../temp-dir.ts';

interface Info {
  purserUrl: string;
  token: string;
  organizationId: string;
}

await serveRoles<Info>({
  async purser() {
    const dir = benchDir('purser-bench-');
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
    const minted = await app.inject({
      method: 'POST',
      url: '/api/v2/oauth/token',
      payload: {
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: org.sandbox.client_secret,
      },
    });
    const token = minted.json().access_token as string;
    // bench/api/gc-modes.ts: one full collection on demand (Node started with --expose-gc).
    process.on('SIGUSR2', () => (globalThis as { gc?: () => void }).gc?.());
    return {
      info: { purserUrl, token, organizationId: org.organization_id },
      close: async () => {
        await app.close();
        await ctx.close();
      },
    };
  },
  async bare({ organizationId }) {
    const bare = Fastify({ logger: false });
    const answer = { object: 'api_v2', organization_id: organizationId, test_mode: true, mode: 'sandbox' };
    bare.get('/api/v2', async () => answer);
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    return { info: { bareUrl }, close: () => bare.close() };
  },
});
