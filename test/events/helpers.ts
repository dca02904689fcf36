import { afterAll, beforeAll } from 'vitest';
import { Worker } from '../../src/jobs/worker.ts';
import { type OrgApp, quiet, startOrgApp } from '../helpers/fixtures.ts';
import { Receiver, testEncryptionKey } from './receiver.ts';

/** An app with one organization (`OrgApp`), a webhook receiver on 127.0.0.1 and a delivery worker. */
export interface WebhookApp extends OrgApp {
  receiver: Receiver;
  worker: Worker;
}

/** The webhook app of a whole test file (or describe block): started before its tests, closed after. */
export function useWebhookApp(env: Record<string, string> = {}): WebhookApp {
  const fixture = {} as WebhookApp;
  beforeAll(async () => {
    await startOrgApp({ env: { ENCRYPTION_KEY: testEncryptionKey(), ...env } }, fixture);
    fixture.receiver = await Receiver.start();
    fixture.worker = new Worker(fixture.t.ctx, quiet);
  });
  afterAll(async () => {
    await fixture.receiver.close();
    await fixture.close();
  });
  return fixture;
}
