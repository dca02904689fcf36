import { describe, expect, it } from 'vitest';
import * as fundingStore from '../../src/domains/funding/store.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { useEvm } from './evm-helpers.ts';

/*
 * Company money a card releases goes back to the pool on the chain too (issue 24): the tokens a
 * company-funded flow moved to the user's deposit address return, the pool paying the gas, and the
 * pool counts them only once they are back. A real local chain (anvil) and the USDC-style test
 * token (with EIP-3009's receiveWithAuthorization); every test ends with `chain reconcile` and the
 * ledger's check (evm-helpers.ts).
 */

const f = useEvm({ CHAIN_CONFIRMATIONS: '2' });

const USD = 1_000_000n; // token units in a dollar (6 decimals)
const live = () => ({ organizationId: f.org.organization_id, livemode: true });
const released = async () => (await f.liveEvents()).filter((e) => e.type === 'transfer.released');

async function fundPool(dollars: bigint): Promise<string> {
  const pool = await f.poolAddress();
  await f.chain.send([pool], [dollars * USD]);
  await f.chain.mine(1);
  await f.t.ctx.funding.onChain.watchDeposits();
  await f.chain.fundGas(pool);
  return pool;
}

/** A production company-funded card of `cents`, its flow driven to the end on the chain. */
async function companyCard(userId: string, cents: number, type: 'single_use' | 'multi_use' = 'multi_use') {
  f.t.clock.advance(1);
  const response = await f.t.call('POST', '/api/v2/cards', {
    token: f.production,
    body: { user_id: userId, amount_cents: cents, type, funding: 'company' },
  });
  expect(response.statusCode, response.body).toBe(202);
  const done = await f.drive(response.json().transfer_id);
  expect(done.status).toBe('card_created');
  return { cardId: done.card_id as string, transferId: done.transfer_id, cardholderId: done.cardholder_id };
}

/** `GET /api/v2/cards/{id}` with the production token: the card's own balance. */
async function cardBalance(cardId: string): Promise<number> {
  const response = await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.production });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().balance_cents;
}

describe('a closed company-funded card', () => {
  it('returns its money to the pool on the chain; then a flow for the whole pool succeeds', async () => {
    const pool = await fundPool(100n);
    const userId = await f.liveUser();
    const address = await f.userAddress(userId);
    const { cardId, transferId, cardholderId } = await companyCard(userId, 5000);
    expect(await f.chain.balanceOf(address)).toBe(50n * USD);

    // The user spends $12 of it, and the card is closed with $38 left.
    const charge = await f.t.ctx.cards.network.authorize(live(), cardId, {
      amountCents: 1200,
      merchant: 'Corner Shop',
    });
    expect(charge.status).toBe('PENDING');
    await f.t.ctx.cards.network.clear(live(), charge.id);
    const closed = await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.production });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await cardBalance(cardId)).toBe(0);

    // Until the tokens are back, the pool does not count them, and nothing says they are released.
    expect(await f.pool()).toMatchObject({ balance_cents: 5000, reserved_cents: 0 });
    expect(await released()).toEqual([]);
    expect((await f.reconcile()).drifts).toEqual([]);

    await f.driveReturns();
    expect(await f.chain.balanceOf(address)).toBe(12n * USD);
    expect(await f.chain.balanceOf(pool)).toBe(88n * USD);
    expect(await f.pool()).toMatchObject({ balance_cents: 8800, reserved_cents: 0 });
    const events = await released();
    expect(events.map((e) => e.data)).toEqual([
      {
        transfer_id: transferId,
        cardholder_id: cardholderId,
        card_id: cardId,
        amount_cents: 3800,
        tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      },
    ]);
    // The pool sent the return and paid its gas: the user's address never needed native coin.
    const receipt = await f.chain.receipt(events[0]!.data.tx_hash as string);
    expect(receipt).toMatchObject({ status: 'success', to: f.chain.token });
    expect(receipt.from.toLowerCase()).toBe(pool.toLowerCase());
    expect(await f.chain.nativeBalance(address)).toBe(0n);
    expect((await f.reconcile()).drifts).toEqual([]);

    // The whole pool funds the next card, and the chain agrees.
    const next = await companyCard(userId, 8800);
    expect(next.cardId).toMatch(/^card_/);
    expect(await f.chain.balanceOf(pool)).toBe(0n);
    expect(await f.chain.balanceOf(address)).toBe(100n * USD);
    expect(await f.pool()).toMatchObject({ balance_cents: 0, reserved_cents: 0 });
    expect((await f.reconcile()).drifts).toEqual([]);
  });

  it('with nothing left returns nothing and fires no transfer.released', async () => {
    await fundPool(20n);
    const userId = await f.liveUser();
    const { cardId } = await companyCard(userId, 1500);
    const charge = await f.t.ctx.cards.network.authorize(live(), cardId, {
      amountCents: 1500,
      merchant: 'Corner Shop',
    });
    await f.t.ctx.cards.network.clear(live(), charge.id);
    await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.production });
    const returns = await f.t.ctx.db
      .selectFrom('chain_returns')
      .select('id')
      .where('organization_id', '=', f.org.organization_id)
      .execute();
    expect(returns).toEqual([]);
    expect(await released()).toEqual([]);
    expect(await f.pool()).toMatchObject({ balance_cents: 500 });
  });
});

describe('a single-use company-funded card', () => {
  it('returns what its first charge does not hold, then what the clearing below the hold frees', async () => {
    const pool = await fundPool(100n);
    const userId = await f.liveUser();
    const address = await f.userAddress(userId);
    const { cardId } = await companyCard(userId, 5000, 'single_use');
    // A pre-authorization of $30: the card closes at it, and the $20 it does not hold is released.
    const charge = await f.t.ctx.cards.network.authorize(live(), cardId, {
      amountCents: 3000,
      merchant: 'Fuel Station',
    });
    expect(charge.status).toBe('PENDING');
    // It clears for $24: the other $6 is released too.
    await f.t.ctx.cards.network.clear(live(), charge.id, 2400);
    expect(await f.pool()).toMatchObject({ balance_cents: 5000 });
    expect((await f.reconcile()).drifts).toEqual([]);

    await f.driveReturns();
    const events = await released();
    expect(events.map((e) => e.data.amount_cents).sort()).toEqual([2000, 600].sort());
    for (const event of events) {
      expect(event.data).toMatchObject({
        card_id: cardId,
        tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect((await f.chain.receipt(event.data.tx_hash as string)).status).toBe('success');
    }
    expect(await f.chain.balanceOf(address)).toBe(24n * USD);
    expect(await f.chain.balanceOf(pool)).toBe(76n * USD);
    expect(await f.pool()).toMatchObject({ balance_cents: 7600, reserved_cents: 0 });

    await companyCard(userId, 7600);
    expect(await f.chain.balanceOf(pool)).toBe(0n);
    expect(await f.chain.balanceOf(address)).toBe(100n * USD);
    expect((await f.reconcile()).drifts).toEqual([]);
  });
});

describe('a return the chain refuses', () => {
  it('is attempted again later with the same authorization, and the tokens return once', async () => {
    const pool = await fundPool(30n);
    const userId = await f.liveUser();
    const address = await f.userAddress(userId);
    const { cardId } = await companyCard(userId, 2000);
    // The token refuses transfers to the pool for a while (as USDC's blocklist would).
    await f.chain.setBlocked(pool, true);
    await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.production });
    const [row] = await f.t.ctx.db
      .selectFrom('chain_returns')
      .selectAll()
      .where('organization_id', '=', f.org.organization_id)
      .execute();
    const stepUntil = async (status: string) => {
      for (let i = 0; i < 10; i++) {
        f.t.clock.advance(1);
        await f.t.ctx.funding.returns.takeStep(row!.id);
        const now = await fundingStore.returnById(f.t.ctx.db, row!.id);
        if (now?.status === status) return now;
        await f.chain.mine(1);
      }
      throw new Error(`the return never reached ${status}`);
    };
    const sent = await stepUntil('sent');
    const firstHash = sent.tx_hash!;
    // Reverted at depth: the attempt failed, the next one waits (30 s the first time).
    const waiting = await stepUntil('pending');
    expect(waiting).toMatchObject({ attempt: 2, tx_hash: null });
    expect((await f.chain.receipt(firstHash)).status).toBe('reverted');
    expect(await f.t.ctx.funding.returns.takeStep(row!.id)).toBe(false); // not yet
    expect(await f.pool()).toMatchObject({ balance_cents: 1000 });
    expect((await f.reconcile()).drifts).toEqual([]);

    await f.chain.setBlocked(pool, false);
    f.t.clock.advance(30_000);
    await f.driveReturns();
    const events = await released();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ card_id: cardId, amount_cents: 2000 });
    expect(events[0]!.data.tx_hash).not.toBe(firstHash);
    expect((await f.chain.receipt(events[0]!.data.tx_hash as string)).status).toBe('success');
    expect(await f.chain.balanceOf(address)).toBe(0n);
    expect(await f.chain.balanceOf(pool)).toBe(30n * USD);
    expect(await f.pool()).toMatchObject({ balance_cents: 3000 });

    // The authorization is spent: sending the first attempt's transaction again moves nothing more.
    const again = await f.t.ctx.funding.chain.submit({
      direction: 'to_pool',
      transferId: `${row!.id}.3`,
      releaseId: row!.id,
      organizationId: f.org.organization_id,
      livemode: true,
      userId,
      amountCents: 2000,
    });
    await f.chain.mine(1);
    expect((await f.chain.receipt(again.txHash!)).status).toBe('reverted');
    expect(await f.chain.balanceOf(pool)).toBe(30n * USD);
  });
});

describe("the worker's chain check", () => {
  it('warns once per drift, shows it in /metrics, and says when it ends', async () => {
    const pool = await fundPool(10n);
    // $5 the books credit the pool that never reached the chain.
    const scope = { ...live(), ownerId: f.org.organization_id };
    const [source, poolAccount] = await Promise.all([
      f.t.ctx.ledger.account(f.t.ctx.db, { ...scope, kind: 'funding_source' }),
      f.t.ctx.ledger.account(f.t.ctx.db, { ...scope, kind: 'company_pool' }),
    ]);
    const credit = (id: string, from: string, to: string) =>
      f.t.ctx.ledger.move([
        { type: 'posted', id, debitAccountId: from, creditAccountId: to, amount: 500, code: 'deposit' },
      ]);
    await credit('drift_in', source.id, poolAccount.id);

    const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
    const record = (level: string) => (fields: object, message: string) =>
      lines.push({ level, message, fields: fields as Record<string, unknown> });
    const worker = new Worker(f.t.ctx, {
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    });
    const ours = (message: string) =>
      lines.filter((l) => l.message === message && l.fields.organization_id === f.org.organization_id);
    const metrics = async () => (await f.t.call('GET', '/metrics')).body;
    const next = async () => {
      f.t.clock.advance(f.t.ctx.config.funding.reconcileIntervalMs);
      await f.chain.mine(1);
      await worker.runOnce();
    };

    await worker.runOnce();
    const drift = ours('chain drift: the chain and the books disagree');
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatchObject({
      level: 'warn',
      fields: { kind: 'pool', chain: '10', ledger: '15', drift: '-5' },
    });
    expect(String(drift[0]!.fields.address).toLowerCase()).toBe(pool.toLowerCase());
    expect(await metrics()).toMatch(/^purser_chain_drift_addresses [1-9]/m);
    expect(await metrics()).toMatch(
      new RegExp(
        `^purser_chain_drift_tokens\\{address="${pool.toLowerCase()}",kind="pool",organization_id="${f.org.organization_id}"\\} -5$`,
        'm',
      ),
    );

    // The same drift at the next check: no second warning.
    await next();
    expect(ours('chain drift: the chain and the books disagree')).toHaveLength(1);

    // Set right in the books: one line saying it ended, and the metric drops it.
    await credit('drift_out', poolAccount.id, source.id);
    await next();
    expect(ours('chain drift resolved')).toHaveLength(1);
    expect(await metrics()).not.toContain(pool.toLowerCase());
    expect((await f.reconcile()).drifts).toEqual([]);
  });
});
