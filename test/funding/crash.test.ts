import { beforeAll, expect, it } from 'vitest';
import type { CardFlowStatus } from '../../src/db/schema.ts';
import { exited, purser } from '../cli/process.ts';
import { useCrashApp } from '../helpers/crash.ts';

/*
 * SIGKILL the worker inside each step of a company-funded card flow, before the step commits
 * (PURSER_FAILPOINT), start a worker again, and check that the flow ends exactly once: each of its
 * events written once, and the ledger's invariants hold (checked by `purser ledger verify`).
 */

const f = useCrashApp('Crash Funding', { FUNDING_POLL_INTERVAL_MS: '10', FUNDING_ACK_DEADLINE_SECONDS: '1' });
let userId: string;
const call = (method: 'POST' | 'GET', url: string, body?: unknown) => f.call(f.platform, method, url, body);
const worker = (extra: Record<string, string> = {}) => f.worker(extra);

beforeAll(async () => {
  userId = f.userId;
  await call('POST', '/api/v2/kyc/simulate', { user_id: userId, outcome: 'approved' });
  await call('POST', '/api/v2/simulate/company_funding', { amount_cents: 1_000_000 });
});

const flowStatus = async (id: string) =>
  (await f.ctx.db.selectFrom('card_flows').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;

/** Polls the database (another process moves the flow) until the flow reaches `status`. */
async function until(id: string, status: CardFlowStatus): Promise<void> {
  // Generous: the other process starts and works on a machine that may be busy with other suites.
  const deadline = Date.now() + 90_000;
  while ((await flowStatus(id)) !== status && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  expect(await flowStatus(id)).toBe(status);
}

async function eventCounts(transferId: string): Promise<Record<string, number>> {
  const rows = await f.ctx.db.selectFrom('events').select(['type', 'data']).execute();
  const counts: Record<string, number> = {};
  for (const row of rows)
    if (JSON.parse(row.data).transfer_id === transferId) counts[row.type] = (counts[row.type] ?? 0) + 1;
  return counts;
}

const SUCCESS = {
  'card_flow.started': 1,
  'transfer.approved': 1,
  'transfer.initiated': 1,
  'transfer.completed': 1,
  'card.created': 1,
};

const steps: [CardFlowStatus, CardFlowStatus][] = [
  ['approved', 'started'],
  ['initiated', 'approved'],
  ['completed', 'initiated'],
  ['card_created', 'completed'],
];

it.each(steps)(
  'completes exactly once when the worker dies inside the step to %s',
  async (step, before) => {
    const flow = await call('POST', '/api/v2/cards', {
      user_id: userId,
      amount_cents: 2500,
      type: 'multi_use',
      funding: 'company',
    });
    const dying = worker({ PURSER_FAILPOINT: `funding.${step}` });
    await exited(dying);
    expect(dying.signalCode).toBe('SIGKILL');
    // Killed before its commit: the step left nothing behind.
    expect(await flowStatus(flow.transfer_id)).toBe(before);

    const next = worker();
    await until(flow.transfer_id, 'card_created');
    next.kill('SIGTERM');
    expect(await exited(next)).toBe(0);

    expect(await eventCounts(flow.transfer_id)).toEqual(SUCCESS);
    const cards = await f.ctx.db
      .selectFrom('cards')
      .select('id')
      .where('transfer_id', '=', flow.transfer_id)
      .execute();
    expect(cards).toHaveLength(1);
    const verify = await purser(['ledger', 'verify', '--json'], f.env);
    expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
  },
  60_000,
);

it('fails exactly once with ack_timeout when the worker dies inside the timeout', async () => {
  const flow = await call('POST', '/api/v2/cards', {
    user_id: userId,
    amount_cents: 4000,
    type: 'multi_use',
    funding: 'company',
    ack_required: true,
  });
  // The dying worker sweeps the flow once its one-second deadline has passed.
  const dying = worker({ PURSER_FAILPOINT: 'funding.failed' });
  await exited(dying);
  expect(dying.signalCode).toBe('SIGKILL');
  expect(await flowStatus(flow.transfer_id)).toBe('awaiting_collection');

  const next = worker();
  await until(flow.transfer_id, 'failed');
  next.kill('SIGTERM');
  expect(await exited(next)).toBe(0);

  expect(await eventCounts(flow.transfer_id)).toEqual({ 'card_flow.started': 1, 'transfer.failed': 1 });
  const wallet = await call('GET', '/api/v2/wallet');
  expect(wallet.reserved_cents).toBe(0);
  const verify = await purser(['ledger', 'verify', '--json'], f.env);
  expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
}, 240_000);

it('fails the mint exactly once (card_flow.failed) when the worker dies inside that step', async () => {
  const flow = await call('POST', '/api/v2/cards', {
    user_id: userId,
    amount_cents: 3000,
    type: 'multi_use',
    funding: 'company',
  });
  // Here, up to the money moving; then the user's verification is withdrawn before the mint.
  for (let i = 0; i < 3; i++) await f.ctx.funding.flows.takeStep(flow.transfer_id);
  expect(await flowStatus(flow.transfer_id)).toBe('completed');
  await call('POST', '/api/v2/kyc/simulate', { user_id: userId, outcome: 'rejected' });
  try {
    const dying = worker({ PURSER_FAILPOINT: 'funding.card_failed' });
    await exited(dying);
    expect(dying.signalCode).toBe('SIGKILL');
    expect(await flowStatus(flow.transfer_id)).toBe('completed');

    const next = worker();
    await until(flow.transfer_id, 'card_failed');
    next.kill('SIGTERM');
    expect(await exited(next)).toBe(0);
  } finally {
    await call('POST', '/api/v2/kyc/simulate', { user_id: userId, outcome: 'approved' });
  }
  expect(await eventCounts(flow.transfer_id)).toEqual({
    'card_flow.started': 1,
    'transfer.approved': 1,
    'transfer.initiated': 1,
    'transfer.completed': 1,
    'card_flow.failed': 1,
  });
  const verify = await purser(['ledger', 'verify', '--json'], f.env);
  expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
}, 240_000);
