import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, startLedger } from './helpers.ts';

let f: LedgerFixture;
let n = 0;
const id = (label: string) => `${label}_ids_${++n}`;

beforeAll(async () => {
  f = await startLedger();
});
afterAll(async () => {
  await f.expectSound();
  await f.close();
});

describe('remembered account ids', () => {
  it('gives the same id as the account lookup, in and out of a transaction', async () => {
    const spec = {
      organizationId: f.organizationId,
      livemode: false,
      kind: 'card' as const,
      ownerId: id('card'),
    };
    const inside = await f.ledger.transaction((trx) => f.ledger.accountId(trx, spec));
    expect(await f.ledger.accountId(f.t.ctx.db, spec)).toBe(inside);
    expect((await f.ledger.account(f.t.ctx.db, spec)).id).toBe(inside);
  });

  it('forgets an account opened in a transaction that rolled back', async () => {
    const spec = {
      organizationId: f.organizationId,
      livemode: false,
      kind: 'card' as const,
      ownerId: id('card'),
    };
    const opened: string[] = [];
    await expect(
      f.ledger.transaction(async (trx) => {
        opened.push(await f.ledger.accountId(trx, spec));
        // Inside the transaction the id is reused.
        opened.push(await f.ledger.accountId(trx, spec));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(opened[1]).toBe(opened[0]);
    const again = await f.ledger.transaction((trx) => f.ledger.accountId(trx, spec));
    expect(again).not.toBe(opened[0]);
    // The id given after the rollback names a stored account.
    expect((await f.ledger.balance(f.t.ctx.db, again)).available_cents).toBe(0);
    await f.fund(again, 50);
    expect(await f.available(again)).toBe(50);
  });
});

describe('executeWithTotals', () => {
  it('returns the outcomes of execute and each locked account as it stands after the batch', async () => {
    const wallet = await f.account('user_wallet', id('usr'));
    const card = await f.account('card', id('card'));
    await f.fund(wallet, 1_000);
    const batch = await f.ledger.transaction((trx) =>
      f.ledger.executeWithTotals(trx, [
        {
          type: 'posted',
          id: id('tr'),
          debitAccountId: wallet,
          creditAccountId: card,
          amount: 600,
          code: 'card_funding',
        },
        {
          type: 'pending',
          id: id('hold'),
          debitAccountId: card,
          creditAccountId: wallet,
          amount: 250,
          code: 'hold',
        },
      ]),
    );
    expect(batch.outcomes.map((o) => [o.transfer.kind, o.created])).toEqual([
      ['posted', true],
      ['pending', true],
    ]);
    expect(batch.balances.get(card)).toEqual(await f.ledger.balance(f.t.ctx.db, card));
    expect(batch.balances.get(wallet)).toEqual(await f.ledger.balance(f.t.ctx.db, wallet));
    expect(batch.balances.get(card)).toMatchObject({
      posted_cents: 600,
      pending_cents: 250,
      available_cents: 350,
    });
  });

  it('returns nothing when the batch is refused: the transaction rolls back', async () => {
    const wallet = await f.account('user_wallet', id('usr'));
    const card = await f.account('card', id('card'));
    await expect(
      f.ledger.transaction((trx) =>
        f.ledger.executeWithTotals(trx, [
          {
            type: 'posted',
            id: id('tr'),
            debitAccountId: wallet,
            creditAccountId: card,
            amount: 1,
            code: 'card_funding',
          },
        ]),
      ),
    ).rejects.toMatchObject({ code: 'exceeds_credits' });
    expect(await f.available(card)).toBe(0);
  });
});
