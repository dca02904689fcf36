import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, onPostgres } from '../helpers/harness.ts';
import { purser } from './process.ts';

let database: ReturnType<typeof freshDatabaseUrl>;
let env: Record<string, string>;
let orgId: string;

beforeAll(async () => {
  database = freshDatabaseUrl();
  const key: Record<string, string> = onPostgres
    ? { ENCRYPTION_KEY: randomBytes(32).toString('base64') }
    : {};
  env = { DATABASE_URL: database.url, ...key };
  const created = await purser(
    ['org', 'create', '--name', 'Trigger', '--billing-email', 'b@t.test', '--json'],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  orgId = JSON.parse(created.stdout).organization_id;
}, 120_000);
afterAll(() => database.drop());

describe('purser trigger, as a process', { timeout: 120_000 }, () => {
  it('runs transaction.cleared: prints what it made and the event, which is in the events list; the ledger holds', async () => {
    const run = await purser(['trigger', 'transaction.cleared', '--org', orgId], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Triggered transaction.cleared in ${orgId} \\(sandbox\\):`));
    for (const object of ['user', 'cardholder', 'card', 'transaction'])
      expect(run.stdout).toMatch(new RegExp(`\\n  ${object} +\\w+_\\w+`));
    const eventId = /\n {2}event +(evt_\w+) {2}transaction\.cleared/.exec(run.stdout)?.[1];
    expect(eventId, run.stdout).toBeDefined();

    const listed = await purser(
      ['events', 'list', orgId, '--mode', 'sandbox', '--type', 'transaction.cleared'],
      env,
    );
    expect(listed.stdout).toContain(eventId);
    const verified = await purser(['ledger', 'verify'], env);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });

  it('lists every type with its scenario, the unavailable ones saying why', async () => {
    const list = await purser(['trigger', '--list', '--json'], env);
    expect(list.code).toBe(0);
    const entries = JSON.parse(list.stdout) as { type: string; available: boolean; scenario: string }[];
    expect(entries.find((e) => e.type === 'transaction.cleared')).toMatchObject({ available: true });
    expect(entries.find((e) => e.type === 'merchant.connected')?.scenario).toMatch(/^not available: /);
    const text = await purser(['trigger', '--list'], env);
    expect(text.stdout).toMatch(
      /\n {2}--variant spending_controls +a \$20 card with a \$10 daily spending limit/,
    );
  });

  it("runs transaction.declined --variant spending_controls: the engine declines it by the card's limit", async () => {
    const run = await purser(
      ['trigger', 'transaction.declined', '--variant', 'spending_controls', '--org', orgId, '--json'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ type: 'transaction.declined', variant: 'spending_controls' });
    expect(result.event.data).toMatchObject({
      decline_reason: 'SPENDING_LIMIT_EXCEEDED',
      spending_control: { source: 'card', interval: 'daily', limit_cents: 1_000 },
    });
  });

  it('refuses production (exit 2), an unknown type with close matches, and an unavailable type', async () => {
    const production = await purser(['trigger', 'card.created', '--org', orgId, '--mode', 'production'], env);
    expect(production.code).toBe(2);
    expect(production.stderr).toMatch(/^purser: trigger runs sandbox scenarios only/);
    expect(production.stderr).not.toMatch(/Usage:/);

    const unknown = await purser(['trigger', 'transaction.clear', '--org', orgId], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /unknown event type "transaction.clear"\. Close matches: transaction\.cleared/,
    );

    const unavailable = await purser(['trigger', 'merchant.connected', '--org', orgId], env);
    expect(unavailable.code).toBe(2);
    expect(unavailable.stderr).toMatch(/merchant\.connected is not available: /);
  });
});
