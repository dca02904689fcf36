import { randomBytes } from 'node:crypto';
import { generatePrivateKey } from 'viem/accounts';
import { expect, it } from 'vitest';
import { type AppContext, createContext } from '../../src/context.ts';
import type { EvmChain } from '../../src/domains/funding/chain/evm.ts';
import { purser } from '../cli/process.ts';
import { useEvm } from './evm-helpers.ts';

/*
 * Rotating CHAIN_POOL_KEY on a real local chain (issue 25): `purser chain rotate-pool-key` moves what
 * every address of the previous key holds (the pool's tokens and coin, each user's tokens) to the
 * new key's addresses, the books unchanged and in agreement with the chain; the new key funds a card
 * afterwards, deposits that reach a retired address are swept by running it again, and a process
 * started with the previous key refuses to use it.
 */

const f = useEvm();

const USD = 1_000_000n; // token units in a dollar (6 decimals)

const cliEnv = () => ({
  ...f.env,
  DATABASE_URL: f.t.ctx.config.databaseUrl,
  ENCRYPTION_KEY: f.t.ctx.config.encryptionKey ?? randomBytes(32).toString('base64'),
  LOG_LEVEL: 'silent',
});

it('refuses while a transfer signed by the previous key is not settled, changing nothing', {
  timeout: 180_000,
}, async () => {
  const pool = await f.poolAddress();
  await f.chain.send([pool], [100n * USD]);
  await f.chain.fundGas(pool);
  await f.chain.mine(1);
  await f.t.ctx.funding.onChain.watchDeposits();
  const userId = await f.liveUser();
  const flow = await f.flow(userId, 1_000);
  // Submitted, not mined: the chain may still move the old pool's tokens.
  await f.chain.automine(false);
  try {
    for (let i = 0; i < 5 && (await f.getFlow(flow.transfer_id)).status !== 'initiated'; i++)
      await f.step(flow.transfer_id);
    expect((await f.getFlow(flow.transfer_id)).status).toBe('initiated');
    const refused = await purser(['chain', 'rotate-pool-key'], {
      ...cliEnv(),
      CHAIN_POOL_KEY: generatePrivateKey(),
      CHAIN_PREVIOUS_POOL_KEY: f.env.CHAIN_POOL_KEY!,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(flow.transfer_id);
    const retired = await f.t.ctx.db
      .selectFrom('chain_addresses')
      .select('address')
      .where('retired_at', 'is not', null)
      .execute();
    expect(retired).toEqual([]);
  } finally {
    await f.chain.automine(true);
  }
  expect((await f.drive(flow.transfer_id)).status).toBe('card_created');
});

it('moves every address of the previous key to the new key, books unchanged and reconciled', {
  timeout: 240_000,
}, async () => {
  const orgId = f.org.organization_id;
  const oldKey = f.env.CHAIN_POOL_KEY!;
  const newKey = generatePrivateKey();
  // The pool funded on the chain and credited, a user paid by a company-funded flow, a user's own deposit.
  const oldPool = await f.poolAddress();
  await f.chain.send([oldPool], [500n * USD + 7n]);
  await f.chain.fundGas(oldPool);
  const userId = await f.liveUser();
  const oldUser = await f.userAddress(userId);
  await f.chain.send([oldUser], [40n * USD]);
  await f.chain.mine(1);
  await f.t.ctx.funding.onChain.watchDeposits();
  const flow = await f.flow(userId, 10_000);
  expect((await f.drive(flow.transfer_id)).status).toBe('card_created');
  const books = { pool: await f.pool(), wallet: await f.liveWallet(userId) };
  expect((await f.reconcile()).drifts).toEqual([]);
  const poolTokens = await f.chain.balanceOf(oldPool);
  const userTokens = await f.chain.balanceOf(oldUser);
  expect(userTokens).toBe(140n * USD);

  const env = cliEnv();
  // Without the previous key, or with a key that derived none of the addresses: refused, nothing moves.
  const missing = await purser(['chain', 'rotate-pool-key'], { ...env, CHAIN_POOL_KEY: newKey });
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toMatch(/CHAIN_PREVIOUS_POOL_KEY/);
  const wrong = await purser(['chain', 'rotate-pool-key'], {
    ...env,
    CHAIN_POOL_KEY: newKey,
    CHAIN_PREVIOUS_POOL_KEY: generatePrivateKey(),
  });
  expect(wrong.code).not.toBe(0);
  expect(wrong.stderr).toMatch(/does not derive/);
  expect(await f.chain.balanceOf(oldPool)).toBe(poolTokens);

  const rotatedEnv = { ...env, CHAIN_POOL_KEY: newKey, CHAIN_PREVIOUS_POOL_KEY: oldKey };
  const rotated = await purser(['chain', 'rotate-pool-key', '--json'], rotatedEnv);
  expect(rotated.code, rotated.stderr).toBe(0);
  const moves = JSON.parse(rotated.stdout).addresses as {
    kind: string;
    organization_id: string;
    from: string;
    to: string;
    units: string;
  }[];
  // Every organization's addresses move (the other test's too); this one's:
  const poolMove = moves.find((m) => m.kind === 'pool' && m.organization_id === orgId)!;
  const userMove = moves.find((m) => m.kind === 'user' && m.organization_id === orgId)!;
  expect(poolMove).toMatchObject({ from: oldPool, units: poolTokens.toString() });
  expect(userMove).toMatchObject({ from: oldUser, units: userTokens.toString() });
  // The tokens are at the new addresses, none left at the old ones; the pool's coin went along.
  expect(await f.chain.balanceOf(poolMove.to)).toBe(poolTokens);
  expect(await f.chain.balanceOf(userMove.to)).toBe(userTokens);
  expect(await f.chain.balanceOf(oldPool)).toBe(0n);
  expect(await f.chain.balanceOf(oldUser)).toBe(0n);
  expect(await f.chain.nativeBalance(poolMove.to)).toBeGreaterThan(0n);

  // A process with the new key: the same books, new addresses, and the chain agrees with them.
  const next: AppContext = await createContext(
    {
      ...f.t.ctx.config,
      funding: { ...f.t.ctx.config.funding, evm: { ...f.t.ctx.config.funding.evm!, poolKey: newKey } },
    },
    { clock: f.t.clock, migrate: false },
  );
  try {
    const chain = next.funding.chain as EvmChain;
    expect(await chain.depositAddress(orgId, true)).toBe(poolMove.to);
    expect(
      await next.funding.onChain.userDepositAddress({ organizationId: orgId, livemode: true }, userId),
    ).toBe(userMove.to);
    expect(await f.pool()).toEqual(books.pool);
    expect(await f.liveWallet(userId)).toBe(books.wallet);
    // The moves between the old and the new addresses are no deposits.
    expect(await next.funding.onChain.watchDeposits()).toBe(0);
    expect((await next.funding.onChain.reconcileChain())!.drifts).toEqual([]);

    // The new pool funds a card: its transfer is signed by the new key and moves its tokens.
    const after = await f.flow(userId, 2_500);
    for (let i = 0; i < 20; i++) {
      f.t.clock.advance(1);
      if (await next.funding.flows.takeStep(after.transfer_id)) continue;
      if ((await f.getFlow(after.transfer_id)).status === 'card_created') break;
      await f.chain.mine(1);
    }
    expect((await f.getFlow(after.transfer_id)).status).toBe('card_created');
    expect(await f.chain.balanceOf(userMove.to)).toBe(userTokens + 25n * USD);

    // A deposit that still reaches the retired pool address is credited to its owner; the chain then
    // drifts from the books until running the command again sweeps it to the new address.
    await f.chain.send([oldPool], [30n * USD]);
    await f.chain.mine(1);
    expect(await next.funding.onChain.watchDeposits()).toBe(1);
    expect((await next.funding.onChain.reconcileChain())!.drifts).toEqual([
      expect.objectContaining({ address: poolMove.to, drift_units: (-30n * USD).toString() }),
    ]);
    const swept = await purser(['chain', 'rotate-pool-key', '--json'], rotatedEnv);
    expect(swept.code, swept.stderr).toBe(0);
    expect(JSON.parse(swept.stdout).addresses).toContainEqual(
      expect.objectContaining({
        kind: 'pool',
        from: oldPool,
        to: poolMove.to,
        units: (30n * USD).toString(),
      }),
    );
    expect(await f.chain.balanceOf(oldPool)).toBe(0n);
    expect((await next.funding.onChain.reconcileChain())!.drifts).toEqual([]);

    // A process started with the previous key refuses to use its addresses.
    const stale = await purser(['wallet', 'address', orgId], env);
    expect(stale.code).not.toBe(0);
    expect(stale.stderr).toMatch(/rotate-pool-key replaced/);
  } finally {
    await next.close();
  }
  // The pool secrets never reach an output.
  for (const key of [oldKey, newKey]) expect(rotated.stdout + rotated.stderr).not.toContain(key.slice(2));
});
