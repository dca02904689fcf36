import { describe, expect, it } from 'vitest';
import { expectError, useCards } from './helpers.ts';

/*
 * Refunds (issue 27, "Refunds and credits"; docs/cards.md, Refunds): a `refund` transaction linked to
 * the purchase it gives money back for, SETTLED at once, never more in total than was settled; the
 * money returns to the card while it is open, else to the user's wallet.
 */

const f = useCards();

const simulate = (action: string, body: unknown, token?: string) =>
  f.t.call('POST', `/api/v2/simulate/${action}`, { token: token ?? f.sandbox, body });

async function settledPurchase(
  balance: number,
  charge: number,
  type: 'single_use' | 'multi_use' = 'multi_use',
) {
  const userId = await f.approvedUser(balance);
  const card = await f.createCard(userId, balance, type);
  const cardId = card.id as string;
  const txn = await f.authorize(cardId, charge);
  const cleared = await simulate('clear', { transaction_id: txn.id });
  expect(cleared.statusCode, cleared.body).toBe(200);
  return { userId, card, cardId, txnId: txn.id as string };
}

const get = async (path: string) => (await f.t.call('GET', path, { token: f.sandbox })).json();
const balanceOf = async (cardId: string): Promise<number> =>
  (await get(`/api/v2/cards/${cardId}`)).balance_cents;

describe('POST /api/v2/simulate/refund', () => {
  it('gives part, then the rest, back to the open card: refund transactions linked, transaction.refunded', async () => {
    const { card, cardId, txnId } = await settledPurchase(5_000, 2_000);
    expect(await balanceOf(cardId)).toBe(3_000);

    const part = await simulate('refund', { transaction_id: txnId, amount_cents: 500 });
    expect(part.statusCode, part.body).toBe(200);
    const refund = part.json();
    expect(refund).toMatchObject({
      object: 'transaction',
      type: 'refund',
      original_transaction_id: txnId,
      card_id: cardId,
      status: 'SETTLED',
      amount_cents: 500,
      merchant: 'Corner Shop',
      mcc: '5411',
      force_posted: false,
    });
    expect(refund.id).not.toBe(txnId);
    expect(await balanceOf(cardId)).toBe(3_500);
    expect(await get(`/api/v2/transactions/${txnId}`)).toMatchObject({
      type: 'purchase',
      status: 'SETTLED',
      amount_cents: 2_000,
      refunded_cents: 500,
      original_transaction_id: null,
    });
    expect((await f.events('transaction.refunded')).filter((e) => e.card_id === cardId)).toEqual([
      {
        id: refund.id,
        card_id: cardId,
        last4: card.last4,
        amount_cents: 500,
        merchant: 'Corner Shop',
        mcc: '5411',
        status: 'SETTLED',
        balance_cents: 3_500,
        type: 'refund',
        original_transaction_id: txnId,
      },
    ]);

    // Without an amount: all that is left.
    const rest = await simulate('refund', { transaction_id: txnId });
    expect(rest.json()).toMatchObject({ type: 'refund', amount_cents: 1_500 });
    expect(await balanceOf(cardId)).toBe(5_000);
    expect((await get(`/api/v2/transactions/${txnId}`)).refunded_cents).toBe(2_000);
    const listed = await get(`/api/v2/transactions?card_id=${cardId}`);
    expect(listed.data.map((t: { type: string }) => t.type).sort()).toEqual(['purchase', 'refund', 'refund']);
    await f.expectSound();
  });

  it('never gives back more than settled, and refuses what cannot be refunded, changing nothing', async () => {
    const { cardId, txnId } = await settledPurchase(5_000, 2_000);
    const over = await simulate('refund', { transaction_id: txnId, amount_cents: 2_001 });
    expectError(over, 400, 'invalid_request');
    expect(over.json().error.field_errors).toHaveProperty('amount_cents');
    const refund = (await simulate('refund', { transaction_id: txnId, amount_cents: 1_500 })).json();
    expectError(
      await simulate('refund', { transaction_id: txnId, amount_cents: 501 }),
      400,
      'invalid_request',
    );
    expect((await simulate('refund', { transaction_id: txnId, amount_cents: 500 })).statusCode).toBe(200);
    expectError(await simulate('refund', { transaction_id: txnId }), 409, 'transaction_refunded');
    expectError(await simulate('refund', { transaction_id: refund.id }), 409, 'transaction_not_refundable');
    // Held, voided and declined transactions have settled nothing.
    const pending = await f.authorize(cardId, 100);
    expectError(await simulate('refund', { transaction_id: pending.id }), 409, 'transaction_not_settled');
    await simulate('void', { transaction_id: pending.id });
    expectError(await simulate('refund', { transaction_id: pending.id }), 409, 'transaction_not_settled');
    const declined = await f.authorize(cardId, 40_000);
    expect(declined.status).toBe('DECLINED');
    expectError(await simulate('refund', { transaction_id: declined.id }), 409, 'transaction_not_settled');
    // Unknown, another organization's, or a live token.
    expectError(await simulate('refund', { transaction_id: 'txn_nope' }), 404, 'not_found');
    const other = await f.t.createOrg('Other refunds');
    const otherToken = await f.t.platformToken(other.sandbox);
    expectError(await simulate('refund', { transaction_id: txnId }, otherToken), 404, 'not_found');
    expectError(await simulate('refund', { transaction_id: txnId }, f.production), 403, 'sandbox_only');
    expectError(await simulate('refund', { transaction_id: txnId, amount_cents: 0 }), 400, 'invalid_request');
    expect(await balanceOf(cardId)).toBe(5_000);
    expect((await get(`/api/v2/transactions/${txnId}`)).refunded_cents).toBe(2_000);
    await f.expectSound();
  });

  it('returns the money to the wallet once the card is closed', async () => {
    // A single-use card closed at its first charge; what that charge did not hold went home then.
    const { userId, cardId, txnId } = await settledPurchase(3_000, 1_200, 'single_use');
    expect((await get(`/api/v2/cards/${cardId}`)).status).toBe('CLOSED');
    const wallet = await f.wallet(userId);
    const refund = await simulate('refund', { transaction_id: txnId, amount_cents: 700 });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await f.wallet(userId)).toBe(wallet + 700);
    expect(await balanceOf(cardId)).toBe(0);
    await f.expectSound();
  });

  it('gives back at most what settled under concurrent refunds', async () => {
    const { cardId, txnId } = await settledPurchase(5_000, 1_000);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => simulate('refund', { transaction_id: txnId, amount_cents: 200 })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 400 || s === 409)).toBe(true);
    expect(await balanceOf(cardId)).toBe(5_000);
    expect((await get(`/api/v2/transactions/${txnId}`)).refunded_cents).toBe(1_000);
    await f.expectSound();
  });
});

describe('purser ledger verify', () => {
  it('names a purchase whose refunds exceed what it settled, or disagree with its record', async () => {
    const { txnId } = await settledPurchase(5_000, 1_000);
    const refund = (await simulate('refund', { transaction_id: txnId, amount_cents: 400 })).json();
    await f.expectSound();
    const db = f.t.ctx.db;
    // Tamper with the books from outside: the refund now says it gave back more than the purchase settled.
    await db
      .updateTable('card_transactions')
      .set({ settled_cents: 1_400 })
      .where('id', '=', refund.id)
      .execute();
    const violations = await f.t.ctx.ledger.verify();
    expect(violations).toContainEqual(
      expect.objectContaining({ invariant: 'refund_above_settled', subject: txnId }),
    );
    await db
      .updateTable('card_transactions')
      .set({ settled_cents: 300 })
      .where('id', '=', refund.id)
      .execute();
    expect(await f.t.ctx.ledger.verify()).toContainEqual(
      expect.objectContaining({ invariant: 'refund_total', subject: txnId }),
    );
    await db
      .updateTable('card_transactions')
      .set({ settled_cents: 400 })
      .where('id', '=', refund.id)
      .execute();
    await f.expectSound();
  });
});
