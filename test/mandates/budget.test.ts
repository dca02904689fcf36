import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { MandateSpend } from '../../src/domains/mandates/service.ts';
import { useCards } from '../cards/helpers.ts';
import { onPostgres } from '../helpers/harness.ts';
import { activate, createMandate } from './helpers.ts';

/**
 * A mandate's budget as purchases use it (docs/mandates.md "Budget"): `consume` in the charge's
 * transaction, `follow` in every later move's (a refund, a void, a clearing, an issuer's report),
 * windows on the UTC calendar, `total` budgets exhausted and reopened, concurrent charges never past
 * the budget.
 */
const f = useCards();
const DAY = 86_400_000;

let references = 0;
function charge(mandateId: string, amountCents: number, over: Partial<MandateSpend> = {}): MandateSpend {
  references += 1;
  return {
    mandateId,
    reference: `ord_${references}`,
    amountCents,
    currency: 'usd',
    category: '5411',
    merchant: 'grocer',
    at: f.t.clock.now(),
    ...over,
  };
}
const consume = (spend: MandateSpend) =>
  f.t.ctx.ledger.transaction((trx) => f.t.ctx.mandates.consume(trx, spend));
/** Sets what a charge takes (`follow`), as the card's books say after a move: the change. */
const follow = (spend: MandateSpend, takesCents: number) =>
  f.t.ctx.ledger.transaction((trx) => f.t.ctx.mandates.follow(trx, { ...spend, takesCents }));
const waitingOnALock = async () => {
  const { rows } = await sql<{ n: string }>`select count(*) as n from pg_locks where not granted`.execute(
    f.t.ctx.db,
  );
  return Number(rows[0]!.n) > 0;
};
const read = async (id: string) =>
  (await f.t.call('GET', `/api/v2/mandates/${id}`, { token: f.sandbox })).json();

async function activeMandate(over: Parameters<typeof createMandate>[2] = {}) {
  const userId = await f.connectedUser();
  const mandate = await createMandate(f, userId, over);
  await activate(f, mandate);
  return mandate;
}

describe('consume', () => {
  it('refuses a pending mandate, then takes charges within the terms and names the first term outside them', async () => {
    const userId = await f.connectedUser();
    const mandate = await createMandate(f, userId, {
      allowed_categories: ['5411'],
      allowed_merchants: ['grocer'],
    });
    expect(await consume(charge(mandate.id, 100))).toMatchObject({ ok: false, term: 'status' });
    await activate(f, mandate);

    expect(await consume(charge(mandate.id, 4_000))).toEqual({
      ok: true,
      spentCents: 4_000,
      remainingCents: 16_000,
    });
    const refusals = [
      [charge(mandate.id, 5_001), 'max_amount_cents'],
      [charge(mandate.id, 100, { currency: 'eur' }), 'currency'],
      [charge(mandate.id, 100, { category: '5812' }), 'allowed_categories'],
      [charge(mandate.id, 100, { category: null }), 'allowed_categories'],
      [charge(mandate.id, 100, { merchant: 'casino' }), 'allowed_merchants'],
      [charge(mandate.id, 100, { at: f.t.clock.now() + 31 * DAY }), 'expires_at'],
      [charge('mdt_nope', 100), 'status'],
    ] as const;
    for (const [spend, term] of refusals) {
      const result = await consume(spend);
      expect(result, term).toMatchObject({ ok: false, term, reply: expect.any(String) });
    }
    expect(await read(mandate.id)).toMatchObject({ spent_cents: 4_000, remaining_cents: 16_000 });
  });

  it('counts a reference once, and refuses what the budget has not left', async () => {
    const mandate = await activeMandate({ budget: { amount_cents: 10_000, interval: 'monthly' } });
    const first = charge(mandate.id, 5_000);
    expect(await consume(first)).toMatchObject({ ok: true, remainingCents: 5_000 });
    expect(await consume(first)).toMatchObject({ ok: true, remainingCents: 5_000 });
    expect(await consume(charge(mandate.id, 4_000))).toMatchObject({ ok: true, remainingCents: 1_000 });
    const over = await consume(charge(mandate.id, 1_001));
    expect(over).toMatchObject({ ok: false, term: 'budget' });
    expect(over.ok === false && over.reply).toContain('$10.00');
    expect(await read(mandate.id)).toMatchObject({
      status: 'active',
      spent_cents: 9_000,
      remaining_cents: 1_000,
    });
  });

  it('opens a new window at each UTC calendar day, and gives back to the window of the charge', async () => {
    // Noon UTC on 2 December of next year (the clock only moves forward: tokens stay valid once renewed).
    f.t.clock.set(Date.UTC(new Date(f.t.clock.now()).getUTCFullYear() + 1, 11, 2, 12));
    await f.renewTokens();
    const mandate = await activeMandate({
      budget: { amount_cents: 3_000, interval: 'daily' },
      max_amount_cents: 3_000,
    });
    const yesterday = charge(mandate.id, 3_000);
    expect(await consume(yesterday)).toMatchObject({ ok: true, remainingCents: 0 });
    expect(await consume(charge(mandate.id, 1))).toMatchObject({ ok: false, term: 'budget' });
    expect(await read(mandate.id)).toMatchObject({ status: 'active', remaining_cents: 0 });

    f.t.clock.set(Date.UTC(new Date(f.t.clock.now()).getUTCFullYear(), 11, 3));
    await f.renewTokens();
    expect(await read(mandate.id)).toMatchObject({ spent_cents: 0, remaining_cents: 3_000 });
    expect(await consume(charge(mandate.id, 2_000))).toMatchObject({ ok: true, remainingCents: 1_000 });
    // Yesterday's charge refunded today: yesterday's window gets it back, today's does not grow.
    expect(await follow(yesterday, 0)).toBe(-3_000);
    expect(await read(mandate.id)).toMatchObject({ spent_cents: 2_000, remaining_cents: 1_000 });
  });

  it('exhausts a total budget with its last cent, and a refund reopens it', async () => {
    const mandate = await activeMandate({ budget: { amount_cents: 5_000, interval: 'total' } });
    const spend = charge(mandate.id, 5_000);
    expect(await consume(spend)).toMatchObject({ ok: true, remainingCents: 0 });
    expect(await read(mandate.id)).toMatchObject({ status: 'exhausted', remaining_cents: 0 });
    expect((await f.events('mandate.exhausted')).filter((e) => e.id === mandate.id)).toEqual([
      expect.objectContaining({ object: 'mandate', id: mandate.id, status: 'exhausted', remaining_cents: 0 }),
    ]);
    expect(await consume(charge(mandate.id, 1))).toMatchObject({ ok: false, term: 'status' });

    // A partial refund; the same again changes nothing; then the rest.
    expect(await follow(spend, 4_000)).toBe(-1_000);
    expect(await follow(spend, 4_000)).toBe(0);
    expect(await read(mandate.id)).toMatchObject({
      status: 'active',
      spent_cents: 4_000,
      remaining_cents: 1_000,
    });
    expect(await follow(spend, 0)).toBe(-4_000);
    expect(await read(mandate.id)).toMatchObject({
      status: 'active',
      spent_cents: 0,
      remaining_cents: 5_000,
    });
    // The issuer settled more than was held (a tip): taken, past the budget; exhausted again.
    expect(await follow(spend, 5_200)).toBe(5_200);
    expect(await read(mandate.id)).toMatchObject({
      status: 'exhausted',
      spent_cents: 5_200,
      remaining_cents: 0,
    });
    // A charge the mandate never took (settled without an authorization here) is added.
    const forced = charge(mandate.id, 0);
    expect(await follow(forced, 300)).toBe(300);
    expect(await follow(forced, 300)).toBe(0);
    expect(await follow(spend, 4_000)).toBe(-1_200);
    expect(await read(mandate.id)).toMatchObject({
      status: 'active',
      spent_cents: 4_300,
      remaining_cents: 700,
    });
    // A return of no known purchase gives back in its own name; a window never spends below nothing.
    const unlinked = charge(mandate.id, 0);
    expect(await follow(unlinked, -300)).toBe(-300);
    expect(await read(mandate.id)).toMatchObject({ spent_cents: 4_000, remaining_cents: 1_000 });
    expect(await follow(unlinked, -9_000)).toBe(-8_700);
    expect(await read(mandate.id)).toMatchObject({ spent_cents: 0, remaining_cents: 5_000 });
  });

  it('does not reopen a revoked mandate on a refund', async () => {
    const mandate = await activeMandate({ budget: { amount_cents: 5_000, interval: 'total' } });
    const spend = charge(mandate.id, 5_000);
    await consume(spend);
    const revoked = await f.t.call('DELETE', `/api/v2/mandates/${mandate.id}`, { token: f.sandbox });
    expect(revoked.json().status).toBe('revoked');
    expect(await follow(spend, 0)).toBe(-5_000);
    expect(await read(mandate.id)).toMatchObject({ status: 'revoked', remaining_cents: 5_000 });
    expect(await consume(charge(mandate.id, 1))).toMatchObject({ ok: false, term: 'status' });
  });

  it('lets 20 concurrent charges spend a budget for 5 exactly once each', async () => {
    const mandate = await activeMandate({
      budget: { amount_cents: 5_000, interval: 'weekly' },
      max_amount_cents: 1_000,
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => consume(charge(mandate.id, 1_000))));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.term === 'budget')).toBe(true);
    expect(await read(mandate.id)).toMatchObject({ spent_cents: 5_000, remaining_cents: 0 });
  });

  it.runIf(onPostgres)('locks the mandate row: a second charge waits for the first transaction', async () => {
    const mandate = await activeMandate({
      budget: { amount_cents: 1_000, interval: 'total' },
      max_amount_cents: 1_000,
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstIn!: () => void;
    const entered = new Promise<void>((resolve) => {
      firstIn = resolve;
    });
    const first = f.t.ctx.ledger.transaction(async (trx) => {
      const result = await f.t.ctx.mandates.consume(trx, charge(mandate.id, 1_000));
      firstIn();
      await held;
      return result;
    });
    await entered;
    const second = consume(charge(mandate.id, 1_000));
    // The second charge waits on the mandate's row lock until the first commits.
    while (!(await waitingOnALock())) await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await first).toMatchObject({ ok: true });
    expect(await second).toMatchObject({ ok: false, term: 'status' });
  });
});
