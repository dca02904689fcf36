import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { purser } from '../cli/process.ts';
import { quiet } from '../helpers/fixtures.ts';
import { useEvm } from './evm-helpers.ts';

/*
 * The EVM rail (CHAIN=evm) against a real local chain (anvil from npm, started here) and a
 * USDC-style token compiled here with solc: deposits to the company pool and to users credited
 * once each, company-funded card flows moving real tokens, a reverted transfer, RPC outages.
 * Two confirmations, so that depth matters.
 */

const f = useEvm({ CHAIN_CONFIRMATIONS: '2', CHAIN_TRANSFER_TIMEOUT_SECONDS: '600' });

const USD = 1_000_000n; // token units in a dollar (6 decimals)
const types = (events: { type: string }[]) => events.map((e) => e.type);
const live = () => ({ organizationId: f.org.organization_id, livemode: true });

/** Funds the company pool on the chain and credits it (mined, deepened, watched). */
async function fundPool(dollars: bigint): Promise<string> {
  const pool = await f.poolAddress();
  const hash = await f.chain.send([pool], [dollars * USD]);
  await f.chain.mine(1);
  await f.t.ctx.funding.onChain.watchDeposits();
  await f.chain.fundGas(pool);
  return hash;
}

describe('deposit addresses', () => {
  it('are shown in production, derived per organization and user; sandbox stays offline', async () => {
    const wallet = await f.pool();
    expect(wallet.deposit_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(wallet.deposit_address).toBe(getAddress(wallet.deposit_address!)); // checksummed
    expect(await f.poolAddress()).toBe(wallet.deposit_address); // stable
    const sandbox = await f.t.call('GET', '/api/v2/wallet', { token: f.sandbox });
    expect(sandbox.json()).toMatchObject({ deposit_address: null, test_mode: true });

    const userId = await f.liveUser();
    const userAddress = await f.userAddress(userId);
    expect(userAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(userAddress).not.toBe(wallet.deposit_address);
    const sandboxUser = await f.approvedUser();
    expect(
      await f.t.ctx.funding.onChain.userDepositAddress({ ...live(), livemode: false }, sandboxUser),
    ).toBeNull();

    const other = await f.t.createOrg('Other Co');
    expect(await f.evm.depositAddress(other.organization_id, true)).not.toBe(wallet.deposit_address);
  });
});

describe('purser wallet address', () => {
  it("prints the pool's and a user's deposit address", { timeout: 120_000 }, async () => {
    const env = {
      ...f.env,
      DATABASE_URL: f.t.ctx.config.databaseUrl,
      ENCRYPTION_KEY: f.t.ctx.config.encryptionKey ?? randomBytes(32).toString('base64'),
      LOG_LEVEL: 'silent',
    };
    const orgId = f.org.organization_id;
    const userId = await f.liveUser();
    const pool = await purser(['wallet', 'address', orgId, '--json'], env);
    expect(pool.code, pool.stderr).toBe(0);
    expect(JSON.parse(pool.stdout)).toEqual({
      organization_id: orgId,
      deposit_address: await f.poolAddress(),
    });
    const user = await purser(['wallet', 'address', orgId, '--user', userId, '--json'], env);
    expect(user.code, user.stderr).toBe(0);
    expect(JSON.parse(user.stdout).deposit_address).toBe(await f.userAddress(userId));
    const offline = await purser(['wallet', 'address', orgId], { ...env, CHAIN: 'offline' });
    expect(offline.code).not.toBe(0);
    expect(offline.stderr).toMatch(/CHAIN=evm/);
  });
});

describe('deposits', () => {
  it('credit the company pool once, at depth, and not again after a restart or a re-read', async () => {
    const pool = await f.poolAddress();
    const hash = await f.chain.send([pool], [250n * USD]);
    // One confirmation of two: not yet.
    expect(await f.t.ctx.funding.onChain.watchDeposits()).toBe(0);
    expect((await f.pool()).balance_cents).toBe(0);

    await f.chain.mine(1);
    // The worker's pass watches the chain.
    await new Worker(f.t.ctx, quiet).runOnce();
    expect(await f.pool()).toMatchObject({ balance_cents: 25_000, reserved_cents: 0 });
    const funded = (await f.liveEvents()).filter((e) => e.type === 'wallet.funded');
    expect(funded.map((e) => e.data)).toEqual([
      { amount_cents: 25_000, balance_cents: 25_000, tx_hash: hash },
    ]);
    expect(await f.t.ctx.funding.onChain.watchDeposits()).toBe(0);

    // A restarted process (a new context on the same database) resumes from the persisted cursor.
    const restarted = await createContext(f.t.ctx.config, { clock: f.t.clock, migrate: false });
    try {
      expect(await restarted.funding.onChain.watchDeposits()).toBe(0);
      // Even reading the same blocks again (the cursor rewound) credits nothing twice.
      await f.t.ctx.db.updateTable('chain_cursors').set({ block_number: 0 }).execute();
      expect(await restarted.funding.onChain.watchDeposits()).toBeGreaterThanOrEqual(1);
    } finally {
      await restarted.close();
    }
    expect((await f.pool()).balance_cents).toBe(25_000);
    expect((await f.liveEvents()).filter((e) => e.type === 'wallet.funded')).toHaveLength(1);
    expect(await f.deposits()).toEqual([
      {
        tx_hash: hash,
        log_index: expect.any(Number),
        units: String(250n * USD),
        credited_cents: 25_000,
        kind: 'pool',
      },
    ]);
  });

  it('credit once when two watchers (two worker processes) read the same blocks at once', async () => {
    const pool = await f.poolAddress();
    const other = await createContext(f.t.ctx.config, { clock: f.t.clock, migrate: false });
    try {
      await f.chain.send([pool], [40n * USD]);
      await f.chain.send([pool], [2n * USD]);
      await f.chain.mine(1);
      await Promise.all([f.t.ctx.funding.onChain.watchDeposits(), other.funding.onChain.watchDeposits()]);
    } finally {
      await other.close();
    }
    expect((await f.pool()).balance_cents).toBe(4200);
    expect((await f.liveEvents()).filter((e) => e.type === 'wallet.funded')).toHaveLength(2);
    expect(await f.deposits()).toHaveLength(2);
  });

  it("credit a user's wallet, each log of one transaction on its own (keyed by log index)", async () => {
    const userId = await f.liveUser();
    const pool = await f.poolAddress();
    const address = await f.userAddress(userId);
    const hash = await f.chain.send([address, pool, address], [5n * USD, 7n * USD, 2n * USD]);
    await f.chain.mine(1);
    expect(await f.t.ctx.funding.onChain.watchDeposits()).toBe(3);
    expect(await f.liveWallet(userId)).toBe(700);
    expect((await f.pool()).balance_cents).toBe(700);
    const deposits = await f.deposits();
    expect(deposits.map((d) => [d.tx_hash, d.kind, d.credited_cents])).toEqual([
      [hash, 'user', 500],
      [hash, 'pool', 700],
      [hash, 'user', 200],
    ]);
    expect(new Set(deposits.map((d) => d.log_index)).size).toBe(3);
    // No company event for a user's deposit.
    expect((await f.liveEvents()).filter((e) => e.type === 'wallet.funded')).toHaveLength(1);
  });

  it('round odd units down to whole cents and credit nothing for less than a cent', async () => {
    const userId = await f.liveUser();
    const pool = await f.poolAddress();
    const address = await f.userAddress(userId);
    // 12.345678 tokens: 1234 cents, 0.005678 left over; 0.009999 tokens: nothing.
    await f.chain.send([pool, address], [12_345_678n, 9_999n]);
    await f.chain.mine(1);
    expect(await f.t.ctx.funding.onChain.watchDeposits()).toBe(2);
    expect((await f.pool()).balance_cents).toBe(1234);
    expect(await f.liveWallet(userId)).toBe(0);
    expect((await f.deposits()).map((d) => [d.units, d.credited_cents])).toEqual([
      ['12345678', 1234],
      ['9999', 0],
    ]);
    const funded = (await f.liveEvents()).filter((e) => e.type === 'wallet.funded');
    expect(funded.map((e) => e.data.amount_cents)).toEqual([1234]);
  });
});

describe('the company-funded card flow on the chain', () => {
  it('moves the tokens from the pool to the user with a real tx_hash, once', async () => {
    await fundPool(100n);
    const pool = await f.poolAddress();
    const userId = await f.liveUser();
    const address = await f.userAddress(userId);
    const started = await f.flow(userId, 5000);
    expect(await f.pool()).toMatchObject({ balance_cents: 5000, reserved_cents: 5000 });

    const done = await f.drive(started.transfer_id);
    expect(done).toMatchObject({ status: 'card_created', test_mode: false });
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await f.chain.receipt(done.tx_hash!);
    expect(receipt).toMatchObject({ status: 'success', to: f.chain.token });
    expect(receipt.from.toLowerCase()).toBe(pool.toLowerCase());
    expect(await f.chain.balanceOf(address)).toBe(50n * USD);
    expect(await f.chain.balanceOf(pool)).toBe(50n * USD);

    const events = await f.liveEvents(started.transfer_id);
    expect(types(events)).toEqual([
      'card_flow.started',
      'transfer.approved',
      'transfer.initiated',
      'transfer.completed',
      'card.created',
    ]);
    expect(events[2]!.data.tx_hash).toBe(done.tx_hash);
    expect(events[3]!.data.tx_hash).toBe(done.tx_hash);
    expect(await f.pool()).toMatchObject({ balance_cents: 5000, reserved_cents: 0 });

    // Submitting again (a worker that died before recording) finds the same transaction.
    const nonce = await f.chain.nonce(pool);
    const again = await f.evm.submit({
      direction: 'to_user',
      transferId: started.transfer_id,
      organizationId: f.org.organization_id,
      livemode: true,
      userId,
      amountCents: 5000,
    });
    expect(again.txHash).toBe(done.tx_hash);
    expect(await f.chain.nonce(pool)).toBe(nonce);

    // The watcher does not take the pool's transfer to the user for a deposit.
    await f.chain.mine(2);
    expect(await f.t.ctx.funding.onChain.watchDeposits()).toBe(0);
    expect(await f.liveWallet(userId)).toBe(0); // the money is on the card
  });

  it('fails with transfer_failed when the transfer reverts, and releases the reservation', async () => {
    await fundPool(100n);
    const userId = await f.liveUser();
    const address = await f.userAddress(userId);
    await f.chain.setBlocked(address, true);
    const started = await f.flow(userId, 3000);
    const done = await f.drive(started.transfer_id);
    expect(done).toMatchObject({ status: 'failed', failure_reason: 'transfer_failed' });
    expect((await f.chain.receipt(done.tx_hash!)).status).toBe('reverted');
    expect(await f.chain.balanceOf(address)).toBe(0n);
    expect(await f.pool()).toMatchObject({ balance_cents: 10_000, reserved_cents: 0 });
    const events = await f.liveEvents(started.transfer_id);
    expect(types(events)).toEqual([
      'card_flow.started',
      'transfer.approved',
      'transfer.initiated',
      'transfer.failed',
    ]);
    expect(events[3]!.data).toMatchObject({ transfer_id: started.transfer_id, reason: 'transfer_failed' });
  });
});

describe('a transfer that is never mined', () => {
  it('is cancelled after CHAIN_TRANSFER_TIMEOUT_SECONDS, and the flow fails with transfer_failed', async () => {
    await fundPool(100n);
    const pool = await f.poolAddress();
    const userId = await f.liveUser();
    const address = await f.userAddress(userId);
    const started = await f.flow(userId, 2000);
    expect(await f.step(started.transfer_id)).toBe(true); // approved
    const nonce = await f.chain.nonce(pool);
    const stored = () =>
      f.t.ctx.db
        .selectFrom('chain_transfers')
        .selectAll()
        .where('transfer_id', '=', started.transfer_id)
        .executeTakeFirstOrThrow();
    // Nothing is mined now: the transfer waits in the chain's pool.
    await f.chain.automine(false);
    try {
      expect(await f.step(started.transfer_id)).toBe(true); // initiated
      expect(await f.step(started.transfer_id)).toBe(false); // not mined: sent again, pending
      expect((await stored()).cancel_tx_hash).toBeNull();
      f.t.clock.advance(600_000);
      // Overdue: a replacement at the same nonce, with higher fees, is kept and sent.
      expect(await f.step(started.transfer_id)).toBe(false);
      expect((await stored()).cancel_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
      await f.chain.mine(2);
    } finally {
      await f.chain.automine(true);
    }
    const done = await f.drive(started.transfer_id);
    expect(done).toMatchObject({ status: 'failed', failure_reason: 'transfer_failed' });
    const row = await stored();
    expect(await f.chain.nonce(pool)).toBe(nonce + 1);
    expect((await f.chain.receipt(row.cancel_tx_hash!)).status).toBe('success');
    await expect(f.chain.receipt(row.tx_hash)).rejects.toThrow();
    expect(await f.chain.balanceOf(address)).toBe(0n);
    expect(await f.pool()).toMatchObject({ balance_cents: 10_000, reserved_cents: 0 });
    expect(types(await f.liveEvents(started.transfer_id)).at(-1)).toBe('transfer.failed');
  });
});

describe('concurrent transfers from one pool', () => {
  it('take distinct nonces and all complete', async () => {
    await fundPool(100n);
    const pool = await f.poolAddress();
    const userId = await f.liveUser();
    const flows = [await f.flow(userId, 1000), await f.flow(userId, 1100), await f.flow(userId, 1200)];
    for (const flow of flows) expect(await f.step(flow.transfer_id)).toBe(true); // approved
    const nonce = await f.chain.nonce(pool);
    // Three workers submit at once.
    f.t.clock.advance(1);
    await Promise.all(flows.map((flow) => f.t.ctx.funding.flows.takeStep(flow.transfer_id)));
    const signed = await f.t.ctx.db
      .selectFrom('chain_transfers')
      .select(['transfer_id', 'nonce'])
      .where(
        'transfer_id',
        'in',
        flows.map((flow) => flow.transfer_id),
      )
      .execute();
    expect(signed.map((row) => Number(row.nonce)).sort()).toEqual([nonce, nonce + 1, nonce + 2]);
    for (const flow of flows) expect((await f.drive(flow.transfer_id)).status).toBe('card_created');
    expect(await f.chain.nonce(pool)).toBe(nonce + 3);
    expect(await f.chain.balanceOf(await f.userAddress(userId))).toBe(33n * USD);
  });
});

describe('an RPC outage', () => {
  it('mid-transfer keeps the flow pending, then it completes exactly once', async () => {
    await fundPool(100n);
    const pool = await f.poolAddress();
    const userId = await f.liveUser();
    const started = await f.flow(userId, 2500);
    const nonce = await f.chain.nonce(pool);
    expect(await f.step(started.transfer_id)).toBe(true); // approved
    expect(await f.step(started.transfer_id)).toBe(true); // initiated: signed, stored, broadcast
    f.chain.proxy.cut();
    try {
      await f.chain.mine(2);
      // The worker's pass logs and carries on: no crash, no change.
      expect(await f.t.ctx.funding.advanceFlows(quiet)).toBe(0);
      expect(await f.step(started.transfer_id)).toBe(false);
      expect((await f.getFlow(started.transfer_id)).status).toBe('initiated');
      expect(await f.t.ctx.funding.onChain.watchDeposits()).toBe(0);
    } finally {
      f.chain.proxy.restore();
    }
    const done = await f.drive(started.transfer_id);
    expect(done.status).toBe('card_created');
    expect(await f.chain.nonce(pool)).toBe(nonce + 1);
    expect(
      types(await f.liveEvents(started.transfer_id)).filter((t) => t === 'transfer.completed'),
    ).toHaveLength(1);
  });

  it('before signing leaves the flow approved; a lost broadcast is sent again; each completes once', async () => {
    await fundPool(100n);
    const pool = await f.poolAddress();
    const userId = await f.liveUser();
    const address = await f.userAddress(userId);
    const first = await f.flow(userId, 1000);
    const second = await f.flow(userId, 1500);
    const nonce = await f.chain.nonce(pool);

    // Down before anything was signed: the flow stays approved and nothing is stored.
    expect(await f.step(first.transfer_id)).toBe(true); // approved
    const signed = () => f.t.ctx.db.selectFrom('chain_transfers').select('transfer_id').execute();
    const before = (await signed()).length;
    f.chain.proxy.cut();
    try {
      // Only the second flow's approval is taken; both submissions fail before signing.
      expect(await f.t.ctx.funding.advanceFlows(quiet)).toBe(1);
      expect((await f.getFlow(first.transfer_id)).status).toBe('approved');
      expect((await f.getFlow(second.transfer_id)).status).toBe('approved');
      expect(await signed()).toHaveLength(before);
    } finally {
      f.chain.proxy.restore();
    }

    // The broadcast is lost on its way: the signed transaction was stored first, so the flow is
    // initiated with its hash, and each status check sends the same bytes again.
    f.chain.proxy.drop('eth_sendRawTransaction');
    try {
      expect(await f.step(first.transfer_id)).toBe(true);
      const initiated = await f.getFlow(first.transfer_id);
      expect(initiated).toMatchObject({ status: 'initiated', tx_hash: expect.stringMatching(/^0x/) });
      expect(await f.chain.nonce(pool)).toBe(nonce); // not on the chain
      expect(await f.step(first.transfer_id)).toBe(false);
    } finally {
      f.chain.proxy.drop(null);
    }
    const done = await f.drive(first.transfer_id);
    expect(done).toMatchObject({ status: 'card_created' });
    expect((await f.chain.receipt(done.tx_hash!)).status).toBe('success');
    const other = await f.drive(second.transfer_id);
    expect(other).toMatchObject({ status: 'card_created' });
    expect(await f.chain.nonce(pool)).toBe(nonce + 2);
    expect(await f.chain.balanceOf(address)).toBe(25n * USD);
    expect(await f.pool()).toMatchObject({ balance_cents: 7500, reserved_cents: 0 });
  });
});
