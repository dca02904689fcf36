import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { onPostgres, startTestApp } from '../helpers/harness.ts';
import { Receiver, testEncryptionKey } from './receiver.ts';

describe('waking workers in other processes', () => {
  it.skipIf(!onPostgres)(
    'on PostgreSQL a worker polling once a minute still delivers at once: NOTIFY on commit wakes it',
    async () => {
      const key = testEncryptionKey();
      // The receiver listens on 127.0.0.1: a private destination, allowed here explicitly.
      const t = await startTestApp({ ENCRYPTION_KEY: key, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' });
      const receiver = await Receiver.start();
      // Another "process": its own context, pool and LISTEN connection on the same database.
      const other = await createContext(
        loadConfig({
          DATABASE_URL: t.ctx.config.databaseUrl,
          ENCRYPTION_KEY: key,
          WEBHOOK_POLL_INTERVAL_MS: '60000',
          WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
        }),
      );
      const worker = new Worker(other, { info: () => {}, error: () => {} });
      try {
        const org = await t.createOrg();
        await t.ctx.events.createEndpoint(
          { organizationId: org.organization_id, livemode: false },
          { url: receiver.url, enabled_events: ['*'] },
        );
        worker.start();
        await worker.ready();
        const { id } = await t.ctx.db.transaction().execute((trx) =>
          t.ctx.events.emit(trx, {
            organizationId: org.organization_id,
            livemode: false,
            type: 'card.created',
            data: {},
          }),
        );
        // The worker's only poll was at start, before the event; its next is a minute away.
        await receiver.waitFor(1, 20_000);
        expect(receiver.eventIds()).toEqual([id]);
      } finally {
        await worker.stop();
        await other.close();
        await receiver.close();
        await t.close();
      }
    },
  );
});
