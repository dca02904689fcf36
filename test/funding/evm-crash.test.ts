import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import type { CardFlowStatus } from '../../src/db/schema.ts';
import { BIN, exited, purser } from '../cli/process.ts';
import { useEvm } from './evm-helpers.ts';

/*
 * The worker SIGKILLed after it submitted the chain transfer and before it recorded it (inside the
 * step to `initiated`, PURSER_FAILPOINT): the transaction was signed, stored and broadcast, so the
 * next worker finds the same one. One transaction on the chain, the flow ends once, every event once.
 */

const f = useEvm({ CHAIN_CONFIRMATIONS: '1' });
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function processEnv(): Record<string, string> {
  return {
    ...f.env,
    DATABASE_URL: f.t.ctx.config.databaseUrl,
    // SQLite's test app keeps its generated key beside the database, where the worker finds it too.
    ...(f.t.ctx.config.encryptionKey ? { ENCRYPTION_KEY: f.t.ctx.config.encryptionKey } : {}),
    BASE_URL: 'http://127.0.0.1',
    LOG_LEVEL: 'warn',
    PURSER_DEMO: 'off',
    FUNDING_POLL_INTERVAL_MS: '10',
  };
}

function worker(extra: Record<string, string> = {}): ChildProcess {
  const { BASE_URL: _base, MODE: _mode, DEV: _dev, PROD: _prod, SSR: _ssr, ...rest } = process.env;
  const child = spawn(process.execPath, [BIN, 'worker'], {
    env: { ...rest, ...processEnv(), ...extra },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

const flowStatus = async (id: string) =>
  (await f.t.ctx.db.selectFrom('card_flows').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

async function until(id: string, status: CardFlowStatus): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await flowStatus(id)) !== status && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect(await flowStatus(id)).toBe(status);
}

it('sends one transaction when the worker dies between submitting and recording', {
  timeout: 90_000,
}, async () => {
  const pool = await f.poolAddress();
  await f.chain.send([pool], [100_000_000n]);
  await f.t.ctx.funding.onChain.watchDeposits();
  await f.chain.fundGas(pool);
  const userId = await f.liveUser();
  const address = await f.userAddress(userId);
  const flow = await f.flow(userId, 4000);
  const nonce = await f.chain.nonce(pool);

  const dying = worker({ PURSER_FAILPOINT: 'funding.initiated' });
  await exited(dying);
  expect(dying.signalCode).toBe('SIGKILL');
  // The step did not commit, but the transfer was signed, kept and sent (and mined at once).
  expect(await flowStatus(flow.transfer_id)).toBe('approved');
  const stored = await f.t.ctx.db
    .selectFrom('chain_transfers')
    .selectAll()
    .where('transfer_id', '=', flow.transfer_id)
    .executeTakeFirstOrThrow();
  expect(await f.chain.nonce(pool)).toBe(nonce + 1);

  const next = worker();
  await until(flow.transfer_id, 'card_created');
  next.kill('SIGTERM');
  expect(await exited(next)).toBe(0);

  const done = await f.getFlow(flow.transfer_id);
  expect(done.tx_hash).toBe(stored.tx_hash);
  expect(await f.chain.nonce(pool)).toBe(nonce + 1);
  expect(await f.chain.balanceOf(address)).toBe(40_000_000n);
  const types = (await f.liveEvents(flow.transfer_id)).map((e) => e.type);
  expect(types).toEqual([
    'card_flow.started',
    'transfer.approved',
    'transfer.initiated',
    'transfer.completed',
    'card.created',
  ]);
  const verify = await purser(['ledger', 'verify', '--json'], processEnv());
  expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
});
