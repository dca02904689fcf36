import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { benchDir } from '../temp-dir.ts';

/**
 * The webhook benchmarks' Purser: a context on a fresh SQLite file, one organization and a sandbox
 * endpoint subscribed to every event at the receiver's `url` (the database is removed at exit).
 */
export async function startPurser(url: URL) {
  const dir = benchDir('purser-bench-webhooks-');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    LOG_LEVEL: 'warn',
    // The receiver is on loopback, which deliveries refuse unless the operator allows it.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  });
  const ctx = await createContext(config);
  const org = await ctx.orgs.createOrganization({ name: 'Bench', billingEmail: 'bench@example.test' });
  const owner = { organizationId: org.organization_id, livemode: false };
  const endpoint = await ctx.events.createEndpoint(owner, { url: url.toString(), enabled_events: ['*'] });
  return {
    config,
    ctx,
    org,
    secret: endpoint.secret!,
    close: () => ctx.close(),
  };
}
