import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';
import type { Executor } from '../../src/db/index.ts';
import { CONFLICT_ATTEMPTS } from '../../src/db/write-transaction.ts';
import { LockOrderError } from '../../src/domains/ledger/service.ts';
import { onPostgres } from '../helpers/harness.ts';
import { useLedger } from './helpers.ts';

/*
 * Money transactions take every account lock up front, in one order (docs/ledger.md, "Transactions and
 * concurrency"); a deadlock or serialization failure that still happens runs the whole transaction
 * again, and one that keeps happening is answered 503 database_busy, never a 500.
 */

const f = useLedger({ sound: true });

it('refuses a batch naming a limited account the transaction did not lock up front, moving nothing', async () => {
  const wallet = await f.account('user_wallet', 'usr_order');
  const card = await f.account('card', 'card_order');
  await f.fund(wallet, 1_000);
  const late = f.ledger.transaction(async (trx) => {
    await f.ledger.lockAccounts(trx, [wallet]);
    await f.ledger.execute(trx, [
      {
        type: 'posted',
        id: 'late_lock',
        debitAccountId: wallet,
        creditAccountId: card,
        amount: 100,
        code: 't',
      },
    ]);
  });
  await expect(late).rejects.toBeInstanceOf(LockOrderError);
  expect(await f.available(wallet)).toBe(1_000);
  expect(await f.available(card)).toBe(0);
  // Locked together up front, the same move goes through; a mirror account (the source) never needs a lock.
  const source = await f.account('funding_source', f.organizationId);
  await f.ledger.transaction(async (trx) => {
    await f.ledger.lockAccounts(trx, [card, wallet]);
    await f.ledger.execute(trx, [
      {
        type: 'posted',
        id: 'up_front',
        debitAccountId: wallet,
        creditAccountId: card,
        amount: 100,
        code: 't',
      },
    ]);
    await f.ledger.execute(trx, [
      {
        type: 'posted',
        id: 'mirror_later',
        debitAccountId: source,
        creditAccountId: card,
        amount: 5,
        code: 't',
      },
    ]);
  });
  expect(await f.available(card)).toBe(105);
});

it('credits the pool without its lock, and a debit locks it and counts the credits not yet folded', async () => {
  const pool = await f.account('company_pool', f.organizationId);
  const card = await f.account('card', 'card_pool_credit');
  await f.fund(card, 800);
  const move = (id: string, debit: string, credit: string, amount: number, lock: string[]) =>
    f.ledger.transaction(async (trx) => {
      await f.ledger.lockAccounts(trx, lock);
      await f.ledger.execute(trx, [
        { type: 'posted', id, debitAccountId: debit, creditAccountId: credit, amount, code: 't' },
      ]);
    });
  // A release: the transaction locked the card alone, and the pool takes the credit all the same.
  await move('release_unlocked', card, pool, 800, [card]);
  if (onPostgres) {
    const appended = await f.t.ctx.db
      .selectFrom('ledger_account_deltas')
      .select((eb) => eb.fn.sum<number>('credits_posted').as('credits'))
      .where('account_id', '=', pool)
      .executeTakeFirstOrThrow();
    expect(Number(appended.credits)).toBe(800);
  }
  expect(await f.available(pool)).toBe(800);
  // A draw from the pool without its lock is a caller's bug, and moves nothing.
  await expect(move('draw_unlocked', pool, card, 100, [card])).rejects.toBeInstanceOf(LockOrderError);
  // Locked, the pool counts the credit it has not folded yet: all of it can be drawn, not a cent more.
  await move('draw_locked', pool, card, 800, [pool, card]);
  await expect(move('draw_over', pool, card, 1, [pool, card])).rejects.toMatchObject({
    code: 'exceeds_credits',
  });
  expect(await f.available(pool)).toBe(0);
  expect(await f.available(card)).toBe(800);
  await f.expectSound();
  // Folded, the same totals; and verify proves them either way.
  await f.ledger.foldDeltas();
  expect(await f.available(pool)).toBe(0);
  await f.expectSound();
});

it.runIf(onPostgres)(
  'runs a deadlock victim again from the start, and both transactions commit',
  async () => {
    const a = await f.account('user_wallet', 'usr_deadlock_a');
    const b = await f.account('user_wallet', 'usr_deadlock_b');
    await f.fund(a, 500);
    await f.fund(b, 500);
    // Two transactions that lock the same two rows in opposite orders, meeting in the middle on their
    // first run: PostgreSQL aborts one as the victim (40P01).
    let runs = 0;
    let holding = 0;
    let release = () => {};
    const bothHold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const crossing = (first: string, second: string, id: string) =>
      f.ledger.transaction(async (trx) => {
        runs++;
        await lockRow(trx, first);
        if (++holding === 2) release();
        if (holding <= 2) await bothHold;
        await lockRow(trx, second);
        await f.ledger.execute(trx, [
          { type: 'posted', id, debitAccountId: first, creditAccountId: second, amount: 100, code: 't' },
        ]);
      });
    await Promise.all([crossing(a, b, 'deadlock_ab'), crossing(b, a, 'deadlock_ba')]);
    expect(runs).toBe(3);
    expect(await f.available(a)).toBe(500);
    expect(await f.available(b)).toBe(500);
  },
);

it.runIf(onPostgres)(
  `answers 503 database_busy with Retry-After once ${CONFLICT_ATTEMPTS} runs all failed to serialize`,
  async () => {
    let runs = 0;
    const error = await f.ledger
      .transaction(async (trx) => {
        runs++;
        await sql`do $$ begin raise exception 'conflict' using errcode = 'serialization_failure'; end $$`.execute(
          trx,
        );
      })
      .catch((e: unknown) => e);
    expect(runs).toBe(CONFLICT_ATTEMPTS);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'database_busy', headers: { 'retry-after': '1' } });
  },
);

/** A raw row lock, taken outside the ledger's one order on purpose. */
async function lockRow(trx: Executor, accountId: string): Promise<void> {
  await sql`select id from ledger_accounts where id = ${accountId} for update`.execute(trx);
}
