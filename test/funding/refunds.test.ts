import { describe, expect, it } from 'vitest';
import { useFunding } from './helpers.ts';

/*
 * A refund of a company-funded card's charge (docs/cards.md, Refunds; docs/funding.md, Ownership):
 * once the card is closed, the money is the company's again and returns to the pool with
 * `transfer.released`, never to the user's wallet; on an open card it returns to the card.
 */

const f = useFunding();

const OWN = 700;
const POOL = 20_000;

const simulate = (action: string, body: unknown) =>
  f.t.call('POST', `/api/v2/simulate/${action}`, { token: f.sandbox, body });

async function companyCard(amount: number, type: 'single_use' | 'multi_use') {
  await f.fundPool(POOL);
  const userId = await f.approvedUser(OWN);
  const started = await f.flow(userId, amount, { type });
  const done = await f.drive(started.transfer_id);
  expect(done.status).toBe('card_created');
  return { userId, cardId: done.card_id as string, transferId: started.transfer_id as string };
}

async function released(transferId: string): Promise<number[]> {
  return (await f.flowEvents(transferId))
    .filter((e) => e.type === 'transfer.released')
    .map((e) => e.data.amount_cents as number);
}

describe('refunds of company-funded cards', () => {
  it('go back to the pool once the card is closed, with transfer.released, never to the wallet', async () => {
    const { userId, cardId, transferId } = await companyCard(5_000, 'single_use');
    const txn = await f.authorize(cardId, 3_000);
    expect((await simulate('clear', { transaction_id: txn.id })).statusCode).toBe(200);
    const pool = (await f.pool()).balance_cents;
    const refund = await simulate('refund', { transaction_id: txn.id, amount_cents: 1_200 });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({
      type: 'refund',
      original_transaction_id: txn.id,
      amount_cents: 1_200,
    });
    expect((await f.pool()).balance_cents).toBe(pool + 1_200);
    expect(await f.wallet(userId)).toBe(OWN);
    expect(await released(transferId)).toEqual([2_000, 1_200]);
    await f.expectSound();
  });

  it('go back to the card while it is open', async () => {
    const { userId, cardId, transferId } = await companyCard(5_000, 'multi_use');
    const txn = await f.authorize(cardId, 3_000);
    await simulate('clear', { transaction_id: txn.id });
    const pool = (await f.pool()).balance_cents;
    await simulate('refund', { transaction_id: txn.id });
    const card = await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.sandbox });
    expect(card.json().balance_cents).toBe(5_000);
    expect((await f.pool()).balance_cents).toBe(pool);
    expect(await f.wallet(userId)).toBe(OWN);
    expect(await released(transferId)).toEqual([]);
    await f.expectSound();
  });
});
