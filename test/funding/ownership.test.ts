import { describe, expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import { expectError, useFunding } from './helpers.ts';

/*
 * Whose money it is (issue 24, Ownership; docs/funding.md): what a company-funded card frees goes
 * back to the company pool, with `transfer.released` once per release, and never into the user's
 * wallet; the user's own money never goes into a company-funded card or the pool.
 */

const f = useFunding();

/** The user's own money, in their wallet beside every company-funded card below. */
const OWN = 700;
const POOL = 20_000;

/** A funded pool and a user with their own money, holding a company-funded card of `amount`. */
async function companyCard(amount: number, type: 'single_use' | 'multi_use' = 'multi_use') {
  await f.fundPool(POOL);
  const userId = await f.approvedUser(OWN);
  const started = await f.flow(userId, amount, { type });
  const done = await f.drive(started.transfer_id);
  expect(done.status).toBe('card_created');
  return { userId, cardId: done.card_id as string, transferId: started.transfer_id as string };
}

const simulate = (action: string, body: unknown) =>
  f.t.call('POST', `/api/v2/simulate/${action}`, { token: f.sandbox, body });

async function released(transferId: string): Promise<number[]> {
  return (await f.flowEvents(transferId))
    .filter((e) => e.type === 'transfer.released')
    .map((e) => e.data.amount_cents as number);
}

/** Every way a hold on a card frees money after the card closed. */
const releasesAfterClose: [string, (txnId: string) => Promise<void>, number][] = [
  [
    'a clearing below the hold',
    async (id) => {
      const response = await simulate('clear', { transaction_id: id, amount_cents: 2_400 });
      expect(response.statusCode, response.body).toBe(200);
    },
    600,
  ],
  [
    'a void',
    async (id) => {
      const response = await simulate('void', { transaction_id: id });
      expect(response.statusCode, response.body).toBe(200);
    },
    3_000,
  ],
  [
    'a partial void',
    async (id) => {
      const response = await simulate('void', { transaction_id: id, amount_cents: 1_000 });
      expect(response.statusCode, response.body).toBe(200);
    },
    1_000,
  ],
  [
    'the expiry of the authorization',
    async () => {
      f.t.clock.advance(8 * DAY);
      expect(await f.t.ctx.cards.network.expireAuthorizations()).toBeGreaterThan(0);
      await f.renewTokens(); // the platform's token expired with the week
    },
    3_000,
  ],
];

describe('money a company-funded card frees after it closed', () => {
  it.each(releasesAfterClose)(
    'goes back to the pool on %s, with transfer.released',
    async (_, act, amount) => {
      const { userId, cardId, transferId } = await companyCard(5_000, 'single_use');
      const txn = await f.authorize(cardId, 3_000);
      // The single-use card closed at its first charge: what the charge does not hold went back then.
      expect(await released(transferId)).toEqual([2_000]);
      expect((await f.pool()).balance_cents).toBe(POOL - 5_000 + 2_000);

      await act(txn.id as string);
      expect(await released(transferId)).toEqual([2_000, amount]);
      const events = (await f.flowEvents(transferId)).filter((e) => e.type === 'transfer.released');
      expect(events.at(-1)?.data).toEqual({
        transfer_id: transferId,
        cardholder_id: expect.stringMatching(/^ch_/),
        card_id: cardId,
        amount_cents: amount,
      });
      expect((await f.pool()).balance_cents).toBe(POOL - 5_000 + 2_000 + amount);
      expect(await f.wallet(userId)).toBe(OWN);
      const card = await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.sandbox });
      expect(card.json().balance_cents).toBe(0);
      await f.expectSound();
    },
  );

  it('takes a charge over a closed card’s hold from the pool, never from the wallet', async () => {
    const { userId, cardId, transferId } = await companyCard(5_000, 'single_use');
    const txn = await f.authorize(cardId, 3_000);
    const tipped = await simulate('clear', { transaction_id: txn.id, amount_cents: 3_450 });
    expect(tipped.statusCode, tipped.body).toBe(200);
    expect(tipped.json()).toMatchObject({ status: 'SETTLED', amount_cents: 3_450 });
    expect((await f.pool()).balance_cents).toBe(POOL - 5_000 + 2_000 - 450);
    expect(await f.wallet(userId)).toBe(OWN);
    expect(await released(transferId)).toEqual([2_000]);
    await f.expectSound();
  });

  it('refuses a charge over a closed card’s hold that the pool cannot cover, changing nothing', async () => {
    const { userId, cardId } = await companyCard(POOL, 'single_use');
    const txn = await f.authorize(cardId, 3_000);
    // The pool holds only what the card returned: 17 000.
    const tooMuch = await simulate('clear', { transaction_id: txn.id, amount_cents: POOL + 1 });
    expectError(tooMuch, 402, 'insufficient_funds');
    expect((await f.pool()).balance_cents).toBe(POOL - 3_000);
    expect(await f.wallet(userId)).toBe(OWN);
    const still = await f.t.call('GET', `/api/v2/transactions/${txn.id}`, { token: f.sandbox });
    expect(still.json().status).toBe('PENDING');
    await f.expectSound();
  });

  it('sends what a user-funded card frees after it closed back to the wallet, with no transfer.released', async () => {
    const userId = await f.approvedUser(5_000);
    const card = await f.createCard(userId, 5_000, 'single_use');
    const txn = await f.authorize(card.id as string, 3_000);
    expect(await f.wallet(userId)).toBe(2_000);
    await simulate('clear', { transaction_id: txn.id, amount_cents: 2_400 });
    expect(await f.wallet(userId)).toBe(2_600);
    expect((await f.flowEvents()).filter((e) => e.type === 'transfer.released')).toEqual([]);
  });
});
