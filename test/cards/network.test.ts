import { describe, expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { expectError, useCards } from './helpers.ts';

const f = useCards();

const simulate = (action: string, body: unknown, token?: string) =>
  f.t.call('POST', `/api/v2/simulate/${action}`, { token: token ?? f.sandbox, body });

async function cardWith(balance: number, type: 'single_use' | 'multi_use' = 'multi_use', walletExtra = 0) {
  const userId = await f.approvedUser(balance + walletExtra);
  const card = await f.createCard(userId, balance, type);
  return { userId, card, cardId: card.id as string };
}

async function balanceOf(cardId: string): Promise<number> {
  return (await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.sandbox })).json().balance_cents;
}

const eventsFor = async (type: string, key: string, id: string) =>
  (await f.events(type)).filter((e) => e[key] === id);

describe('authorization', () => {
  it('approves within the balance: PENDING, funds held, transaction.authorized with every field', async () => {
    const { cardId, card } = await cardWith(5_000);
    const txn = await f.authorize(cardId, 1_200, 'Corner Shop');
    expect(txn).toMatchObject({
      object: 'transaction',
      card_id: cardId,
      status: 'PENDING',
      amount_cents: 1_200,
      merchant: 'Corner Shop',
      mcc: '5411',
      decline_reason: null,
    });
    expect(await balanceOf(cardId)).toBe(3_800);
    expect(await eventsFor('transaction.authorized', 'id', txn.id as string)).toEqual([
      {
        id: txn.id,
        card_id: cardId,
        last4: card.last4,
        amount_cents: 1_200,
        merchant: 'Corner Shop',
        mcc: '5411',
        status: 'PENDING',
        balance_cents: 3_800,
      },
    ]);
    expect((await eventsFor('card.updated', 'id', cardId)).at(-1)).toMatchObject({ balance_cents: 3_800 });
    expect(await eventsFor('balance.low', 'card_id', cardId)).toEqual([]);
  });

  it('declines with the reason, moving nothing', async () => {
    const { cardId, card } = await cardWith(1_000, 'multi_use', 5_000);
    // Over what the card holds: the balance is the rule that refuses (issue 9's order), not the limit.
    const declined = await f.authorize(cardId, 1_001);
    expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'INSUFFICIENT_FUNDS' });
    await f.authorize(cardId, 800);
    expect(await f.authorize(cardId, 300)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'INSUFFICIENT_FUNDS',
    });
    await f.t.call('POST', `/api/v2/cards/${cardId}/pause`, { token: f.sandbox });
    expect(await f.authorize(cardId, 10)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'CARD_PAUSED',
    });
    await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.sandbox });
    expect(await f.authorize(cardId, 10)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'CARD_CLOSED',
    });
    const declines = await eventsFor('transaction.declined', 'card_id', cardId);
    expect(declines.map((e) => e.decline_reason).sort()).toEqual([
      'CARD_CLOSED',
      'CARD_PAUSED',
      'INSUFFICIENT_FUNDS',
      'INSUFFICIENT_FUNDS',
    ]);
    expect(declines.find((e) => e.id === declined.id)).toEqual({
      id: declined.id,
      card_id: cardId,
      last4: card.last4,
      amount_cents: 1_001,
      merchant: 'Corner Shop',
      mcc: '5411',
      status: 'DECLINED',
      balance_cents: 1_000,
      decline_reason: 'INSUFFICIENT_FUNDS',
    });
    await f.expectSound();
  });

  it('closes a single-use card on its first approved charge and returns the rest to the wallet', async () => {
    const { cardId, card, userId } = await cardWith(2_000, 'single_use');
    await f.authorize(cardId, 1_500);
    expect(
      await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.sandbox }).then((r) => r.json()),
    ).toMatchObject({
      status: 'CLOSED',
      closed_reason: 'single_use_spent',
      balance_cents: 0,
    });
    expect(await f.wallet(userId)).toBe(500);
    // The charge's event carries the balance the hold left; the close then sends it home.
    expect(await eventsFor('transaction.authorized', 'card_id', cardId)).toEqual([
      expect.objectContaining({ amount_cents: 1_500, balance_cents: 500 }),
    ]);
    expect(await eventsFor('card.updated', 'id', cardId)).toEqual([]);
    expect(await eventsFor('card.closed', 'id', cardId)).toEqual([
      {
        id: cardId,
        cardholder_id: card.cardholder_id,
        last4: card.last4,
        status: 'CLOSED',
        reason: 'single_use_spent',
      },
    ]);
    expect(await f.authorize(cardId, 100)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'CARD_CLOSED',
    });
  });

  it('fires balance.low alongside a transaction that leaves 1000 cents or less but above zero', async () => {
    const { cardId, card } = await cardWith(3_000);
    await f.authorize(cardId, 1_999);
    expect(await eventsFor('balance.low', 'card_id', cardId)).toEqual([]);
    await f.authorize(cardId, 1);
    expect(await eventsFor('balance.low', 'card_id', cardId)).toEqual([
      { card_id: cardId, last4: card.last4, balance_cents: 1_000 },
    ]);
    const spent = await f.authorize(cardId, 1_000);
    expect(await eventsFor('balance.low', 'card_id', cardId)).toHaveLength(1); // at zero: none
    // Every transaction event that leaves the balance low has one alongside, changed or not.
    const second = await cardWith(3_000);
    const txn = await f.authorize(second.cardId, 2_500);
    await simulate('clear', { transaction_id: txn.id });
    expect(await eventsFor('balance.low', 'card_id', second.cardId)).toEqual([
      { card_id: second.cardId, last4: second.card.last4, balance_cents: 500 },
      { card_id: second.cardId, last4: second.card.last4, balance_cents: 500 },
    ]);
    expect(spent.status).toBe('PENDING');
  });

  it('is test mode only, and 404s for cards of other scopes', async () => {
    const { cardId } = await cardWith(1_000);
    expectError(
      await simulate('authorize', { card_id: cardId, amount_cents: 1, merchant: 'X' }, f.production),
      403,
      'sandbox_only',
    );
    expectError(
      await simulate('authorize', { card_id: 'card_nope', amount_cents: 1, merchant: 'X' }),
      404,
      'not_found',
    );
    const other = await f.t.platformToken((await f.t.createOrg('Other')).sandbox);
    expectError(
      await simulate('authorize', { card_id: cardId, amount_cents: 1, merchant: 'X' }, other),
      404,
      'not_found',
    );
    for (const body of [
      { card_id: cardId, amount_cents: 0, merchant: 'X' },
      { card_id: cardId, amount_cents: 10, merchant: '' },
      { card_id: cardId, amount_cents: 10, merchant: 'X', mcc: '54' },
      { card_id: cardId, amount_cents: 10 },
    ]) {
      expectError(await simulate('authorize', body), 400, 'invalid_request');
    }
    expect(await balanceOf(cardId)).toBe(1_000);
  });
});

describe('clearing and voids', () => {
  it('settles at the authorized amount', async () => {
    const { cardId } = await cardWith(5_000);
    const txn = await f.authorize(cardId, 2_000);
    const cleared = await simulate('clear', { transaction_id: txn.id });
    expect(cleared.json()).toMatchObject({ id: txn.id, status: 'SETTLED', amount_cents: 2_000 });
    expect(await balanceOf(cardId)).toBe(3_000);
    expect(await eventsFor('transaction.cleared', 'id', txn.id as string)).toEqual([
      expect.objectContaining({ id: txn.id, status: 'SETTLED', amount_cents: 2_000, balance_cents: 3_000 }),
    ]);
    expectError(await simulate('clear', { transaction_id: txn.id }), 409, 'transaction_not_pending');
    expectError(await simulate('void', { transaction_id: txn.id }), 409, 'transaction_not_pending');
    expectError(await simulate('clear', { transaction_id: 'txn_nope' }), 404, 'not_found');
    expectError(await simulate('void', { transaction_id: 'txn_nope' }), 404, 'not_found');
  });

  it('settles for less (the rest is released) or more when the balance allows', async () => {
    const { cardId } = await cardWith(5_000);
    const less = await f.authorize(cardId, 2_000);
    await simulate('clear', { transaction_id: less.id, amount_cents: 1_500 });
    expect(await balanceOf(cardId)).toBe(3_500);
    const more = await f.authorize(cardId, 1_000);
    expect((await simulate('clear', { transaction_id: more.id, amount_cents: 1_200 })).json()).toMatchObject({
      amount_cents: 1_200,
      authorized_cents: 1_000,
    });
    expect(await balanceOf(cardId)).toBe(2_300);
    const tooMuch = await f.authorize(cardId, 2_000);
    expectError(
      await simulate('clear', { transaction_id: tooMuch.id, amount_cents: 2_301 }),
      402,
      'insufficient_funds',
    );
    expect(
      (await f.t.call('GET', `/api/v2/transactions/${tooMuch.id}`, { token: f.sandbox })).json(),
    ).toMatchObject({
      status: 'PENDING',
    });
    await f.expectSound();
  });

  it('settles a closed card for more (a tip) from the wallet its balance went back to', async () => {
    const { cardId, userId } = await cardWith(2_000, 'single_use');
    const txn = await f.authorize(cardId, 1_000);
    expect(await f.wallet(userId)).toBe(1_000); // closed on the charge; the rest went home
    const cleared = await simulate('clear', { transaction_id: txn.id, amount_cents: 1_200 });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ status: 'SETTLED', amount_cents: 1_200, authorized_cents: 1_000 });
    expect(await f.wallet(userId)).toBe(800);
    expect(await balanceOf(cardId)).toBe(0);
    expect(await eventsFor('transaction.cleared', 'id', txn.id as string)).toEqual([
      expect.objectContaining({ amount_cents: 1_200, balance_cents: 0 }),
    ]);
    // More than the wallet holds is refused, and nothing moves.
    const other = await cardWith(2_000, 'single_use');
    const big = await f.authorize(other.cardId, 1_000);
    expectError(
      await simulate('clear', { transaction_id: big.id, amount_cents: 2_001 }),
      402,
      'insufficient_funds',
    );
    expect(await f.wallet(other.userId)).toBe(1_000);
    await f.expectSound();
  });

  it('voids all of an authorization, or part of it', async () => {
    const { cardId } = await cardWith(5_000);
    const txn = await f.authorize(cardId, 2_000);
    const full = await simulate('void', { transaction_id: txn.id });
    expect(full.json()).toMatchObject({ status: 'VOIDED', amount_cents: 2_000, voided_cents: 2_000 });
    expect(await balanceOf(cardId)).toBe(5_000);
    expect(await eventsFor('transaction.voided', 'id', txn.id as string)).toEqual([
      expect.objectContaining({
        status: 'VOIDED',
        balance_cents: 5_000,
        released_cents: 2_000,
        held_cents: 0,
      }),
    ]);
    await f.expectSound();
  });

  it('returns what a closed card gets back to the wallet', async () => {
    const { cardId, userId } = await cardWith(3_000);
    const txn = await f.authorize(cardId, 1_000);
    await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.sandbox });
    expect(await f.wallet(userId)).toBe(2_000);
    await simulate('void', { transaction_id: txn.id });
    expect(await f.wallet(userId)).toBe(3_000);
    expect(await balanceOf(cardId)).toBe(0);
  });

  it('closes a multi-use card whose whole limit is spent, at the charge that spends it', async () => {
    const { cardId, userId } = await cardWith(1_000);
    const txn = await f.authorize(cardId, 1_000);
    const card = async () => (await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.sandbox })).json();
    expect(await card()).toMatchObject({ status: 'CLOSED', closed_reason: 'balance_exhausted' });
    await simulate('clear', { transaction_id: txn.id });
    expect(await card()).toMatchObject({
      status: 'CLOSED',
      closed_reason: 'balance_exhausted',
      balance_cents: 0,
    });
    expect(await eventsFor('card.closed', 'id', cardId)).toEqual([
      expect.objectContaining({ reason: 'balance_exhausted' }),
    ]);
    // Spent to zero in two charges, and cleared for less: the released rest goes to the wallet.
    const other = await cardWith(1_000);
    await f.authorize(other.cardId, 400);
    const last = await f.authorize(other.cardId, 600);
    expect(await eventsFor('card.closed', 'id', other.cardId)).toHaveLength(1);
    const walletBefore = await f.wallet(other.userId);
    await simulate('clear', { transaction_id: last.id, amount_cents: 500 });
    expect(await f.wallet(other.userId)).toBe(walletBefore + 100);
    expect(await balanceOf(other.cardId)).toBe(0);
    expect(await f.wallet(userId)).toBe(0);
    await f.expectSound();
  });

  it('closes a card closed upstream', async () => {
    const { cardId, userId } = await cardWith(1_000);
    const closed = await simulate('provider_close', { card_id: cardId });
    expect(closed.json()).toMatchObject({ status: 'CLOSED', closed_reason: 'provider_closed' });
    expect(await f.wallet(userId)).toBe(1_000);
    expect(await eventsFor('card.closed', 'id', cardId)).toEqual([
      expect.objectContaining({ reason: 'provider_closed' }),
    ]);
  });

  it('voids authorizations never cleared once they expire (7 days), through the worker', async () => {
    const { cardId } = await cardWith(2_000);
    const txn = await f.authorize(cardId, 700);
    const worker = new Worker(f.t.ctx, { info: () => {}, error: () => {} });
    f.t.clock.advance(7 * DAY - 1_000);
    expect(await f.t.ctx.cards.network.expireAuthorizations()).toBe(0);
    f.t.clock.advance(1_000);
    await worker.runOnce();
    await f.renewTokens();
    expect(
      (await f.t.call('GET', `/api/v2/transactions/${txn.id}`, { token: f.sandbox })).json(),
    ).toMatchObject({
      status: 'VOIDED',
    });
    expect(await balanceOf(cardId)).toBe(2_000);
    expect(await eventsFor('transaction.voided', 'id', txn.id as string)).toHaveLength(1);
  });
});

describe('transactions', () => {
  it('lists by card or user, newest first, and 404s across scopes', async () => {
    const { cardId, userId } = await cardWith(5_000);
    const first = await f.authorize(cardId, 100);
    f.t.clock.advance(1_000);
    const second = await f.authorize(cardId, 200);
    const byCard = (
      await f.t.call('GET', `/api/v2/transactions?card_id=${cardId}`, { token: f.sandbox })
    ).json();
    expect(byCard).toMatchObject({ object: 'list', has_more: false });
    expect(byCard.data.map((t: { id: string }) => t.id)).toEqual([second.id, first.id]);
    const byUser = (
      await f.t.call('GET', `/api/v2/transactions?user_id=${userId}&limit=1`, { token: f.sandbox })
    ).json();
    expect(byUser).toMatchObject({ has_more: true, data: [{ id: second.id }] });
    expectError(
      await f.t.call('GET', `/api/v2/transactions/${first.id}`, { token: f.production }),
      404,
      'not_found',
    );
    expectError(
      await f.t.call('GET', '/api/v2/transactions/txn_nope', { token: f.sandbox }),
      404,
      'not_found',
    );
  });
});

describe('rewards', () => {
  it('routes the reward share of the interchange to the user as tokens on each settled charge', async () => {
    const apiKey = f.org.sandbox.api_key;
    const orgId = f.org.organization_id;
    const config = (body?: unknown, key = apiKey, id = orgId) =>
      f.t.call(body === undefined ? 'GET' : 'PATCH', `/orgs/${id}/revenue-config`, {
        body,
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await config()).json()).toEqual({
      object: 'revenue_config',
      organization_id: orgId,
      rewardShareBps: 0,
    });
    for (const bad of [-1, 10_001, 1.5, '5000', null])
      expectError(await config({ rewardShareBps: bad }), 400, 'invalid_request');
    expectError(await config({}), 400, 'invalid_request');
    expectError(await config(undefined, f.sandbox), 401, 'unauthorized');
    const other = await f.t.createOrg('Other');
    expectError(await config(undefined, apiKey, other.organization_id), 404, 'not_found');
    expect((await config({ rewardShareBps: 5_000 })).json()).toMatchObject({ rewardShareBps: 5_000 });

    const { cardId, userId } = await cardWith(50_000);
    const before = await f.wallet(userId);
    // 12,345 cents × 100 bps interchange = 123.45 cents of pool; half of it, rounded down, is 61 tokens.
    const txn = await f.authorize(cardId, 12_345, 'Bookshop');
    await simulate('clear', { transaction_id: txn.id });
    expect(await f.wallet(userId)).toBe(before + 61);
    expect(await eventsFor('reward.earned', 'card_id', cardId)).toEqual([
      { tokens: 61, merchant: 'Bookshop', card_id: cardId, user_id: userId },
    ]);
    // Too small a charge earns no whole token: nothing fires.
    const tiny = await f.authorize(cardId, 150);
    await simulate('clear', { transaction_id: tiny.id });
    expect(await eventsFor('reward.earned', 'card_id', cardId)).toHaveLength(1);
    await config({ rewardShareBps: 0 });
    await f.expectSound();
  });
});

describe('partial voids', () => {
  const transaction = async (id: unknown) =>
    (await f.t.call('GET', `/api/v2/transactions/${id}`, { token: f.sandbox })).json();

  it('keep the authorized amount, record what was released and fire transaction.voided each time', async () => {
    const { cardId, card } = await cardWith(5_000);
    const txn = await f.authorize(cardId, 2_000);
    const partial = await simulate('void', { transaction_id: txn.id, amount_cents: 500 });
    expect(partial.statusCode, partial.body).toBe(200);
    const expected = { status: 'PENDING', amount_cents: 1_500, authorized_cents: 2_000, voided_cents: 500 };
    expect(partial.json()).toMatchObject(expected);
    expect(await transaction(txn.id)).toMatchObject(expected);
    expect(await balanceOf(cardId)).toBe(3_500);
    // More than is still held is refused, and nothing moves.
    const over = await simulate('void', { transaction_id: txn.id, amount_cents: 1_501 });
    expectError(over, 400, 'invalid_request');
    expect(Object.keys(over.json().error.field_errors)).toEqual(['amount_cents']);
    expect(await transaction(txn.id)).toMatchObject(expected);

    const second = await simulate('void', { transaction_id: txn.id, amount_cents: 700 });
    expect(second.json()).toMatchObject({ status: 'PENDING', amount_cents: 800, voided_cents: 1_200 });
    const rest = await simulate('void', { transaction_id: txn.id });
    expect(rest.json()).toMatchObject({
      status: 'VOIDED',
      amount_cents: 2_000,
      authorized_cents: 2_000,
      voided_cents: 2_000,
    });
    expect(await balanceOf(cardId)).toBe(5_000);
    const common = { id: txn.id, card_id: cardId, last4: card.last4, merchant: 'Corner Shop', mcc: '5411' };
    expect(await eventsFor('transaction.voided', 'id', txn.id as string)).toEqual([
      {
        ...common,
        status: 'PENDING',
        amount_cents: 1_500,
        balance_cents: 3_500,
        released_cents: 500,
        held_cents: 1_500,
      },
      {
        ...common,
        status: 'PENDING',
        amount_cents: 800,
        balance_cents: 4_200,
        released_cents: 700,
        held_cents: 800,
      },
      {
        ...common,
        status: 'VOIDED',
        amount_cents: 2_000,
        balance_cents: 5_000,
        released_cents: 800,
        held_cents: 0,
      },
    ]);
    await f.expectSound();
  });

  it('leave a clearing only what is still held: by default all of it, less releases the rest, more is charged', async () => {
    for (const [clearAt, settled, balance] of [
      [undefined, 1_500, 3_500],
      [1_200, 1_200, 3_800],
      [1_800, 1_800, 3_200],
    ] as const) {
      const { cardId } = await cardWith(5_000);
      const txn = await f.authorize(cardId, 2_000);
      await simulate('void', { transaction_id: txn.id, amount_cents: 500 });
      const cleared = await simulate('clear', {
        transaction_id: txn.id,
        ...(clearAt === undefined ? {} : { amount_cents: clearAt }),
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json()).toMatchObject({
        status: 'SETTLED',
        amount_cents: settled,
        authorized_cents: 2_000,
        voided_cents: 500,
      });
      expect(await balanceOf(cardId)).toBe(balance);
      expect(await eventsFor('transaction.cleared', 'id', txn.id as string)).toEqual([
        expect.objectContaining({ amount_cents: settled, balance_cents: balance }),
      ]);
    }
    await f.expectSound();
  });

  it('leave the expiry the rest to release, with transaction.voided', async () => {
    const { cardId } = await cardWith(5_000);
    const txn = await f.authorize(cardId, 2_000);
    await simulate('void', { transaction_id: txn.id, amount_cents: 500 });
    f.t.clock.advance(8 * DAY);
    expect(await f.t.ctx.cards.network.expireAuthorizations()).toBeGreaterThan(0);
    await f.renewTokens();
    expect(await transaction(txn.id)).toMatchObject({ status: 'VOIDED', voided_cents: 2_000 });
    expect(await balanceOf(cardId)).toBe(5_000);
    expect(
      (await eventsFor('transaction.voided', 'id', txn.id as string)).map((e) => [
        e.released_cents,
        e.held_cents,
      ]),
    ).toEqual([
      [500, 1_500],
      [1_500, 0],
    ]);
    await f.expectSound();
  });

  it('count the issuer’s partial reversals too (a lower hold on a pending transaction)', async () => {
    const { cardId } = await cardWith(5_000);
    const txn = await f.authorize(cardId, 2_000);
    const scope = { organizationId: f.org.organization_id, livemode: false };
    const report = { id: txn.id as string, settledCents: 0, merchant: 'Corner Shop', mcc: '5411' };
    await f.t.ctx.cards.network.applyIssuerReport(scope, cardId, {
      ...report,
      status: 'PENDING',
      heldCents: 1_200,
      version: 1,
    });
    expect(await transaction(txn.id)).toMatchObject({
      status: 'PENDING',
      amount_cents: 1_200,
      authorized_cents: 2_000,
      voided_cents: 800,
    });
    expect(await balanceOf(cardId)).toBe(3_800);
    await f.t.ctx.cards.network.applyIssuerReport(scope, cardId, {
      ...report,
      status: 'VOIDED',
      heldCents: 0,
      version: 2,
    });
    expect(await transaction(txn.id)).toMatchObject({ status: 'VOIDED', voided_cents: 2_000 });
    expect(
      (await eventsFor('transaction.voided', 'id', txn.id as string)).map((e) => [
        e.status,
        e.released_cents,
        e.held_cents,
      ]),
    ).toEqual([
      ['PENDING', 800, 1_200],
      ['VOIDED', 1_200, 0],
    ]);
    await f.expectSound();
  });
});
