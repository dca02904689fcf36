import { describe, expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import { callError, callOk, startMcp } from '../mcp/helpers.ts';
import { expectError, useFunding } from './helpers.ts';

/*
 * Whose money it is (issue 24, Ownership; docs/funding.md): what a company-funded card frees goes
 * back to the company pool, with `transfer.released` once per release, and never into the user's
 * wallet; the user's own money never goes into a company-funded card or the pool.
 */

const f = useFunding({}, startMcp);

/** The user's own money, in their wallet beside every company-funded card below. */
const OWN = 700;
const POOL = 20_000;

/**
 * A funded pool and a user with their own money, holding a company-funded card of `amount`; the
 * user connected through the platform's client (`connected`), as an MCP client would be.
 */
async function companyCard(
  amount: number,
  type: 'single_use' | 'multi_use' = 'multi_use',
  connected = false,
) {
  await f.fundPool(POOL);
  let userId: string;
  let accessToken = '';
  if (connected) {
    ({ userId, accessToken } = await f.connect());
    await approve(userId);
    await f.fund(userId, OWN);
  } else {
    userId = await f.approvedUser(OWN);
  }
  const started = await f.flow(userId, amount, { type });
  const done = await f.drive(started.transfer_id);
  expect(done.status).toBe('card_created');
  return { userId, accessToken, cardId: done.card_id as string, transferId: started.transfer_id as string };
}

async function approve(userId: string) {
  const response = await f.t.call('POST', '/api/v2/kyc/simulate', {
    token: f.sandbox,
    body: { user_id: userId, outcome: 'approved' },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const patchLimit = (cardId: string, cents: number) =>
  f.t.call('PATCH', `/api/v2/cards/${cardId}`, { token: f.sandbox, body: { spend_limit_cents: cents } });

async function cardNow(cardId: string) {
  const response = await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.sandbox });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { spend_limit_cents: number; balance_cents: number; status: string };
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
        tx_hash: null, // sandbox: no chain
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

describe('closing a company-funded card, whatever closes it', () => {
  it.each([
    ['by hand', (cardId: string) => f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.sandbox })],
    ['upstream (provider_closed)', (cardId: string) => simulate('provider_close', { card_id: cardId })],
  ])('%s returns its balance to the pool, and what its holds free later too', async (_, close) => {
    const { userId, cardId, transferId } = await companyCard(5_000);
    const txn = await f.authorize(cardId, 1_000);
    const closed = await close(cardId);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await cardNow(cardId)).toMatchObject({ status: 'CLOSED', balance_cents: 0 });
    expect(await released(transferId)).toEqual([4_000]);
    await simulate('clear', { transaction_id: txn.id, amount_cents: 700 });
    expect(await released(transferId)).toEqual([4_000, 300]);
    expect((await f.pool()).balance_cents).toBe(POOL - 700);
    expect(await f.wallet(userId)).toBe(OWN);
    await f.expectSound();
  });

  it('spent in full (balance_exhausted) releases nothing then, and what a clearing for less frees later', async () => {
    const { userId, cardId, transferId } = await companyCard(5_000);
    const txn = await f.authorize(cardId, 5_000);
    expect(await cardNow(cardId)).toMatchObject({ status: 'CLOSED', balance_cents: 0 });
    expect(await released(transferId)).toEqual([]);
    const cleared = await simulate('clear', { transaction_id: txn.id, amount_cents: 4_250 });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await released(transferId)).toEqual([750]);
    expect((await f.pool()).balance_cents).toBe(POOL - 4_250);
    expect(await f.wallet(userId)).toBe(OWN);
    await f.expectSound();
  });
});

describe('a company-funded card’s spend limit', () => {
  it('cannot be raised, by the platform or the user’s own token: 409 company_funded_card, nothing moves', async () => {
    // Issue 24's case: a wallet of the user's own 700, a company card of 500 raised to 1200 through
    // MCP and closed took the wallet to 0 and gave the pool 1200.
    const { userId, accessToken, cardId, transferId } = await companyCard(500, 'multi_use', true);
    const client = await f.client(accessToken);
    await callError(
      client,
      'update_card_limit',
      { card_id: cardId, spend_limit_cents: 1_200 },
      'company_funded_card',
    );
    expectError(await patchLimit(cardId, 1_200), 409, 'company_funded_card');
    expect(await cardNow(cardId)).toMatchObject({ spend_limit_cents: 500, balance_cents: 500 });
    expect(await f.wallet(userId)).toBe(OWN);

    const closed = await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.sandbox });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await f.wallet(userId)).toBe(OWN);
    expect((await f.pool()).balance_cents).toBe(POOL);
    expect(await released(transferId)).toEqual([500]);
    await f.expectSound();
  });

  it('is lowered by the platform alone: what that frees goes to the pool with transfer.released', async () => {
    const { userId, accessToken, cardId, transferId } = await companyCard(5_000, 'multi_use', true);
    await f.authorize(cardId, 1_000);
    const client = await f.client(accessToken);
    // The user's own token cannot move the company's money towards their wallet (issue 24, defect 2).
    await callError(
      client,
      'update_card_limit',
      { card_id: cardId, spend_limit_cents: 2_000 },
      'company_funded_card',
    );
    expect(await cardNow(cardId)).toMatchObject({ spend_limit_cents: 5_000, balance_cents: 4_000 });
    expect(await released(transferId)).toEqual([]);

    const lowered = await patchLimit(cardId, 2_000);
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json()).toMatchObject({ spend_limit_cents: 2_000, balance_cents: 1_000 });
    expect(await released(transferId)).toEqual([3_000]);
    expect((await f.pool()).balance_cents).toBe(POOL - 5_000 + 3_000);
    expect(await f.wallet(userId)).toBe(OWN);
    const updated = (await f.flowEvents())
      .filter((e) => e.type === 'card.updated' && e.data.id === cardId)
      .at(-1)?.data;
    expect(updated).toMatchObject({ spend_limit_cents: 2_000, balance_cents: 1_000 });

    // Below what it spent and holds: refused, and nothing moves.
    expectError(await patchLimit(cardId, 999), 409, 'spend_limit_below_spent');
    expect(await cardNow(cardId)).toMatchObject({ spend_limit_cents: 2_000, balance_cents: 1_000 });
    expect(await released(transferId)).toEqual([3_000]);
    // And the user has no company money to issue a card of their own with.
    await callError(
      client,
      'create_card',
      { amount_cents: OWN + 1, type: 'multi_use' },
      'insufficient_funds',
    );
    await f.expectSound();
  });

  it('leaves a user-funded card’s limit to the user’s token, both ways, through their wallet', async () => {
    const { userId, accessToken } = await f.connect();
    await approve(userId);
    await f.fund(userId, 3_000);
    const client = await f.client(accessToken);
    const card = await callOk(client, 'create_card', { amount_cents: 1_000, type: 'multi_use' });
    const cardId = card.data.id as string;
    await callOk(client, 'update_card_limit', { card_id: cardId, spend_limit_cents: 2_500 });
    expect(await f.wallet(userId)).toBe(500);
    await callOk(client, 'update_card_limit', { card_id: cardId, spend_limit_cents: 1_500 });
    expect(await f.wallet(userId)).toBe(1_500);
    expect((await f.flowEvents()).filter((e) => e.type === 'transfer.released')).toEqual([]);
  });
});
