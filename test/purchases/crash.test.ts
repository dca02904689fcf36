import type { ChildProcess } from 'node:child_process';
import { beforeAll, expect, it } from 'vitest';
import { exited, purser, startServer } from '../cli/process.ts';
import { useCrashApp } from '../helpers/crash.ts';

/*
 * SIGKILL the API inside each step of a confirm (PURSER_FAILPOINT=purchases.<step>), then let a
 * worker resolve what it left: the order ends with one order and one settled charge, or no order
 * and no charge, the wallet debited at most once, and `purser ledger verify` passes.
 */

const FUNDS = 100_000;
const f = useCrashApp('Crash Purchases', { PURCHASE_CONFIRM_GRACE_SECONDS: '1' });
beforeAll(async () => {
  await f.call(f.platform, 'POST', '/api/v2/simulate/wallet_funding', {
    user_id: f.userId,
    amount_cents: FUNDS,
  });
});

const wallet = async () =>
  (await f.call(f.platform, 'GET', `/api/v2/users/${f.userId}/wallet`)).balance_cents as number;

async function ordersOf(conversationId: string) {
  return f.ctx.db.selectFrom('orders').selectAll().where('conversation_id', '=', conversationId).execute();
}

/**
 * Polls the database until `resolver` (a worker process) has moved every order of the conversation
 * out of pending; fails with what the worker printed when it has not within the deadline.
 */
async function settled(conversationId: string, resolver: ChildProcess) {
  const deadline = Date.now() + 60_000;
  let orders = await ordersOf(conversationId);
  while (orders.some((o) => o.status === 'pending')) {
    if (Date.now() > deadline || resolver.exitCode !== null || resolver.signalCode !== null)
      throw new Error(`the worker left the order pending: ${JSON.stringify(orders)}\n${f.printed(resolver)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    orders = await ordersOf(conversationId);
  }
  return orders;
}

/** The worker's exit code once SIGTERM has stopped it. */
async function stopped(resolver: ChildProcess): Promise<number | null> {
  resolver.kill('SIGTERM');
  return exited(resolver, 30_000).catch((error: Error) => {
    throw new Error(`${error.message}:\n${f.printed(resolver)}`);
  });
}

async function eventsOf(orderId: string) {
  const rows = await f.ctx.db.selectFrom('events').select(['type', 'data']).execute();
  return rows
    .filter((row) => JSON.parse(row.data).order_id === orderId)
    .map((row) => row.type)
    .sort();
}

it.each([
  ['order', 'nothing: the order row never committed'],
  ['card', 'no order and no charge: the card never committed'],
  ['charge', 'one order and one settled charge: the merchant had charged'],
  ['settle', 'one order and one settled charge: the clearing is taken again'],
])(
  'a confirm killed inside the %s step ends in %s',
  async (step) => {
    const before = await wallet();
    const turn = await f.call(f.userToken, 'POST', '/buy', { ask: '2 notebooks from retail' });
    const { hash, totalCents } = turn.cart;

    const server = await startServer({ ...f.env, LOG_LEVEL: 'info', PURSER_FAILPOINT: `purchases.${step}` });
    f.children.push(server.child);
    const answer = await fetch(`${server.url}/buy`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: hash, conversation_id: turn.conversation_id }),
    }).catch((error: Error) => error);
    expect(answer).toBeInstanceOf(Error);
    await exited(server.child);
    expect(server.child.signalCode).toBe('SIGKILL');

    const left = await ordersOf(turn.conversation_id);
    if (left.length > 0) {
      // The confirm sent again finds the order the killed one left (its cart's placement key): no second.
      const retried = await f.call(f.userToken, 'POST', '/buy', {
        confirm: hash,
        conversation_id: turn.conversation_id,
      });
      expect(retried.status).not.toBe('needs_input');
      // Answered from that order (its id), not as the killed turn still running (its turn lock outlives it).
      expect(retried.order_id, JSON.stringify(retried)).toBe(left[0]!.id);
      expect(await ordersOf(turn.conversation_id)).toHaveLength(1);
      const resolver = f.worker({ LOG_LEVEL: 'info' });
      await settled(turn.conversation_id, resolver);
      expect(await stopped(resolver)).toBe(0);
    }
    const orders = await ordersOf(turn.conversation_id);

    expect(orders.length).toBeLessThanOrEqual(1);
    const order = orders[0];
    if (step === 'charge' || step === 'settle') {
      expect(order).toMatchObject({ status: 'confirmed', charge_status: 'settled', final_cents: totalCents });
      expect(await wallet()).toBe(before - totalCents);
      expect(await eventsOf(order!.id)).toEqual(['order.confirmed', 'order.placed']);
      const transactions = await f.ctx.db
        .selectFrom('card_transactions')
        .select(['status'])
        .where('card_id', '=', order!.card_id)
        .execute();
      expect(transactions).toEqual([{ status: 'SETTLED' }]);
    } else {
      if (order) expect(order).toMatchObject({ status: 'failed', charge_status: 'none', card_id: null });
      expect(await wallet()).toBe(before);
      if (order) expect(await eventsOf(order.id)).toEqual([]);
    }
    const verify = await purser(['ledger', 'verify', '--json'], f.env);
    expect(JSON.parse(verify.stdout), verify.stderr).toEqual({ ok: true, violations: [] });
  },
  240_000,
);
