import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { purser } from '../cli/process.ts';
import { useFunding } from './helpers.ts';

/* `purser wallet fund`, `purser wallet fees` and `purser flows list`, against the test app's database. */

const f = useFunding();

it('funds the sandbox pool, sets the fee and lists the flows', { timeout: 120_000 }, async () => {
  const env = {
    DATABASE_URL: f.t.ctx.config.databaseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  };
  const orgId = f.org.organization_id;
  const funded = await purser(
    ['wallet', 'fund', orgId, '--mode', 'sandbox', '--amount-cents', '12000', '--json'],
    env,
  );
  expect(funded.code, funded.stderr).toBe(0);
  expect(JSON.parse(funded.stdout)).toMatchObject({ object: 'company_wallet', balance_cents: 12_000 });
  expect((await f.pool()).balance_cents).toBe(12_000);
  expect((await f.flowEvents()).filter((e) => e.type === 'wallet.funded')).toHaveLength(1);

  // Production money only arrives on the chain.
  const live = await purser(['wallet', 'fund', orgId, '--mode', 'production', '--amount-cents', '1'], env);
  expect(live.code).not.toBe(0);
  expect(live.stderr).toMatch(/sandbox/);

  const fees = await purser(
    ['wallet', 'fees', orgId, '--mode', 'sandbox', '--bps', '200', '--fixed-cents', '5'],
    env,
  );
  expect(fees.code, fees.stderr).toBe(0);
  const userId = await f.approvedUser();
  const flow = await f.flow(userId, 1000);
  expect(flow.fee_cents).toBe(25);

  const listed = await purser(['flows', 'list', orgId, '--json'], env);
  expect(listed.code, listed.stderr).toBe(0);
  expect(JSON.parse(listed.stdout)).toEqual([
    expect.objectContaining({ transfer_id: flow.transfer_id, status: 'started' }),
  ]);
  const text = await purser(['flows', 'list', orgId], env);
  expect(text.stdout).toContain(flow.transfer_id);
});
