import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeCard } from '../../helpers/fake-lithic.ts';
import { driveTwice, type LithicFixture, startLithic } from './helpers.ts';

/*
 * The issuer's money after the authorization (docs/cards.md, "Lithic, events"): every
 * `card_transaction.updated` brings the books in step with the transaction as Lithic reports it,
 * once, whatever the order and however often it arrives. Each case runs on a card with Lithic's
 * events held back, then delivers them in order and all again; then the same case on a second card,
 * the events newest first and then all again in another order: both cards end with the same money,
 * and the ledger proves its invariants after every delivery.
 */

let l: LithicFixture;
beforeAll(async () => {
  l = await startLithic();
});
afterAll(async () => {
  await l?.close();
});

interface Live {
  user: string;
  card: Record<string, unknown>;
  upstream: FakeCard;
  /** The company-funded flow the card came from, if any. */
  transferId?: string;
  /** The Lithic transactions the case made on it, in the order it made them. */
  tokens: string[];
}

const get = async (path: string) => {
  const response = await l.f.t.call('GET', path, { token: l.f.production });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const transactionsOf = async (cardId: string) =>
  (await get(`/api/v2/transactions?card_id=${cardId}&limit=100`)).data as Record<string, unknown>[];

/** A funded live user (`fund` cents in the wallet before the card) and a card of `amount` issued at Lithic. */
async function userCard(amount: number, fund = amount + 1_000): Promise<Live> {
  const user = await l.liveUser(fund);
  const card = await l.issue(user, amount);
  return { user, card, upstream: l.fake.cardByLast4(card.last4 as string), tokens: [] };
}

/** Money into the organization's production pool (a deposit, as the chain watcher credits one). */
async function fundPool(amount: number) {
  const scope = { organizationId: l.f.org.organization_id, livemode: true };
  const db = l.f.t.ctx.db;
  const [source, pool] = await Promise.all([
    l.f.t.ctx.ledger.account(db, { ...scope, kind: 'funding_source', ownerId: scope.organizationId }),
    l.f.t.ctx.ledger.account(db, { ...scope, kind: 'company_pool', ownerId: scope.organizationId }),
  ]);
  await l.f.t.ctx.ledger.move([
    {
      type: 'posted',
      id: `pool_deposit_${l.f.t.clock.now()}`,
      debitAccountId: source.id,
      creditAccountId: pool.id,
      amount,
      code: 'deposit',
    },
  ]);
}

/** A company-funded live card through the whole flow. */
async function companyCard(amount: number, type: 'single_use' | 'multi_use'): Promise<Live> {
  const user = await l.liveUser(0);
  const started = await l.f.t.call('POST', '/api/v2/cards', {
    token: l.f.production,
    body: { user_id: user, amount_cents: amount, type, funding: 'company' },
  });
  expect(started.statusCode, started.body).toBe(202);
  const transferId = started.json().transfer_id as string;
  for (let i = 0; i < 20; i++) {
    l.f.t.clock.advance(1);
    if (!(await l.f.t.ctx.funding.flows.takeStep(transferId))) break;
  }
  const flow = await get(`/api/v2/card_flows/${transferId}`);
  expect(flow.status).toBe('card_created');
  const card = await get(`/api/v2/cards/${flow.card_id}`);
  return { user, card, upstream: l.fake.cardByLast4(card.last4 as string), transferId, tokens: [] };
}

/** What a card's money came to: its balance and state, what it spent net of refunds, where the rest went. */
async function moneyOf(live: Live) {
  const card = await l.liveCard(live.card.id as string);
  const transactions = await transactionsOf(live.card.id as string);
  const settled = (type: string) =>
    transactions
      .filter((t) => t.type === type && t.status === 'SETTLED')
      .reduce((sum, t) => sum + (t.amount_cents as number), 0);
  const released = live.transferId
    ? (await l.f.events('transfer.released'))
        .filter((e) => e.transfer_id === live.transferId)
        .reduce((sum, e) => sum + (e.amount_cents as number), 0)
    : 0;
  return {
    balance: card.balance_cents as number,
    status: card.status as string,
    spent: settled('purchase') - settled('refund'),
    wallet: await l.liveWallet(live.user),
    released,
  };
}

/**
 * A case twice (`driveTwice`): in order then again on one card, out of order then again on another;
 * both end with the same money, which is returned with the first card and its events.
 */
const drive = (
  setup: () => Promise<Live>,
  scenario: (live: Live) => Promise<unknown>,
  options: { afterEach?: (index: number, live: Live) => Promise<void> } = {},
) => driveTwice(l, { setup, scenario, state: moneyOf, ...options });

const pan = (live: Live) => live.upstream.pan;
async function authorize(live: Live, amount: number, mcc = '5411', descriptor = 'Corner Shop') {
  const { token } = await l.driver.transactions.simulateAuthorization({
    amount,
    descriptor,
    pan: pan(live),
    mcc,
  });
  live.tokens.push(token as string);
  return token as string;
}
const clear = (token: string, amount?: number) =>
  l.driver.transactions.simulateClearing({ token, ...(amount === undefined ? {} : { amount }) });
const transaction = (id: string) => get(`/api/v2/transactions/${id}`);

describe('clearings', () => {
  it('incremental and later clearings, and a correction raising the settlement (1000 → 1234), each charged once', async () => {
    const { live, end } = await drive(
      () => userCard(5_000),
      async (live) => {
        const token = await authorize(live, 1_000);
        await clear(token, 400);
        await clear(token, 600);
        await l.fake.correct(token, 234);
      },
    );
    expect(end).toMatchObject({ balance: 5_000 - 1_234, spent: 1_234, wallet: 1_000, status: 'ACTIVE' });
    expect(await transaction(live.tokens[0] as string)).toMatchObject({
      status: 'SETTLED',
      amount_cents: 1_234,
      force_posted: false,
    });
  });

  it('a settlement lowered to zero gives the money back as a refund of the purchase', async () => {
    const { live, end } = await drive(
      () => userCard(5_000),
      async (live) => {
        const token = await authorize(live, 1_000);
        await clear(token);
        await l.fake.correct(token, -1_000);
      },
    );
    const token = live.tokens[0] as string;
    expect(end).toMatchObject({ balance: 5_000, spent: 0, wallet: 1_000 });
    const refunds = (await transactionsOf(live.card.id as string)).filter((t) => t.type === 'refund');
    expect(refunds).toEqual([
      expect.objectContaining({ original_transaction_id: token, amount_cents: 1_000, status: 'SETTLED' }),
    ]);
    expect(await transaction(token)).toMatchObject({ refunded_cents: 1_000 });
  });

  it('a clearing after a void or after the expiry is charged and flagged as a force post', async () => {
    const { live, end } = await drive(
      () => userCard(5_000),
      async (live) => {
        const voided = await authorize(live, 600);
        await l.driver.transactions.simulateVoid({ token: voided });
        await l.fake.clearLate(voided, 500);
        const expired = await authorize(live, 700);
        await l.driver.transactions.expireAuthorization(expired);
        await l.fake.clearLate(expired, 700);
      },
    );
    expect(end).toMatchObject({ balance: 5_000 - 1_200, spent: 1_200 });
    // In order, each clearing found its hold released: a force post. (Newest first, on the second
    // card, the clearings found the holds still open and posted them.)
    for (const token of live.tokens) {
      expect(await transaction(token)).toMatchObject({ status: 'SETTLED', force_posted: true });
    }
  });
});

describe('force posts', () => {
  it('charge the card, then its owner, then the funding source for a shortfall, and are flagged', async () => {
    const { end } = await drive(
      () => userCard(1_000, 1_300),
      async (live) => {
        await l.fake.forcePost(live.upstream.token, 1_500);
        await l.fake.forcePost(live.upstream.token, 400);
      },
    );
    // The card (1000) and the wallet (300) paid 1300 of 1900; the organization's funding source 600.
    expect(end).toMatchObject({ balance: 0, wallet: 0, spent: 1_900, status: 'CLOSED' });
    expect(l.f.t.logs.text).toContain('shortfall');
  });

  it('are recorded under the issuer token, flagged, and applied once', async () => {
    const live = await userCard(2_000);
    const token = await l.fake.forcePost(live.upstream.token, 750);
    await l.fake.report(l.fake.transaction(token));
    expect(await transaction(token)).toMatchObject({
      status: 'SETTLED',
      amount_cents: 750,
      force_posted: true,
      merchant: 'Forced Merchant',
    });
    expect((await l.liveCard(live.card.id as string)).balance_cents).toBe(1_250);
    expect(await l.f.events('transaction.cleared')).toContainEqual(expect.objectContaining({ id: token }));
  });
});

describe('returns and reversals', () => {
  it('a return refunds the purchase it matches, and its reversal takes it back', async () => {
    const { live, end } = await drive(
      () => userCard(5_000),
      async (live) => {
        const purchase = await authorize(live, 800);
        await clear(purchase);
        await l.driver.transactions.simulateReturn({
          amount: 300,
          descriptor: 'Corner Shop',
          pan: pan(live),
        });
        const reversed = await l.driver.transactions.simulateReturn({
          amount: 200,
          descriptor: 'Corner Shop',
          pan: pan(live),
        });
        await l.driver.transactions.simulateReturnReversal({ token: reversed.token as string });
      },
    );
    expect(end).toMatchObject({ balance: 5_000 - 800 + 300, spent: 500 });
    // On the first card (in order) both returns matched the purchase; the reversed one gave nothing.
    expect(await transaction(live.tokens[0] as string)).toMatchObject({ refunded_cents: 300 });
    // The reversal voided the return: its event says what it took back, and that nothing holds.
    const voids = (await get('/api/v2/events?type=transaction.voided&limit=100')).data as {
      data: Record<string, unknown>;
    }[];
    const ofReturn = voids.filter((event) => event.data.card_id === live.card.id);
    expect(ofReturn.map((event) => event.data)).toEqual([
      expect.objectContaining({ status: 'VOIDED', released_cents: 200, held_cents: 0 }),
    ]);
  });

  it('a partial reversal releases part of the hold and a full one the rest; an advice moves the hold', async () => {
    const { end } = await drive(
      () => userCard(5_000),
      async (live) => {
        const reversed = await authorize(live, 1_000);
        await l.driver.transactions.simulateVoid({ token: reversed, amount: 400 });
        await l.driver.transactions.simulateVoid({ token: reversed });
        const advised = await authorize(live, 500);
        await l.driver.transactions.simulateAuthorizationAdvice({ token: advised, amount: 800 });
        await clear(advised);
      },
    );
    expect(end).toMatchObject({ balance: 5_000 - 800, spent: 800 });
  });
});

describe('holds', () => {
  it('follow amounts.hold: a fuel pre-authorization holds what Lithic holds, and declines what that cannot cover', async () => {
    l.fake.holdFor = (amount, mcc) => (mcc === '5542' ? amount + 2_500 : amount);
    try {
      const { end } = await drive(
        () => userCard(5_000),
        async (live) => {
          const fuel = await authorize(live, 1_000, '5542', 'Fuel Stop');
          expect((await l.liveCard(live.card.id as string)).balance_cents).toBe(1_500);
          // 1000 fits in the 1500 left, its 3500 hold does not.
          const again = await authorize(live, 1_000, '5542', 'Fuel Stop');
          expect(l.fake.transaction(again).result).toBe('INSUFFICIENT_FUNDS');
          await clear(fuel, 4_200);
        },
      );
      expect(end).toMatchObject({ balance: 800, spent: 4_200 });
    } finally {
      l.fake.holdFor = (amount) => amount;
    }
  });

  it('an incremental authorization holds the difference or is declined; an older report does not shrink it', async () => {
    const { live, end } = await drive(
      () => userCard(5_000),
      async (live) => {
        const token = await authorize(live, 200);
        expect(await l.fake.increment(token, 3_000)).toBe('APPROVED');
        expect((await l.liveCard(live.card.id as string)).balance_cents).toBe(2_000);
        // 6000 more than the 2000 left: declined, the 3000 stays held.
        expect(await l.fake.increment(token, 9_000)).toBe('INSUFFICIENT_FUNDS');
        expect((await l.liveCard(live.card.id as string)).balance_cents).toBe(2_000);
        await clear(token, 2_800);
      },
      {
        // The report of the first authorization (200 held) arrives after the increment: still 3000 held.
        afterEach: async (index, live) => {
          const balance = (await l.liveCard(live.card.id as string)).balance_cents;
          expect(balance, `after event ${index}`).toBe(index < 3 ? 2_000 : 2_200);
        },
      },
    );
    expect(end).toMatchObject({ balance: 2_200, spent: 2_800 });
    expect(await transaction(live.tokens[0] as string)).toMatchObject({
      status: 'SETTLED',
      amount_cents: 2_800,
      authorized_cents: 3_000,
    });
  });
});

describe('company-funded cards', () => {
  it('release company money to the pool with transfer.released, never to the wallet', async () => {
    const pool = async () => (await get('/api/v2/wallet')).balance_cents as number;
    await fundPool(20_000);
    const before = await pool();
    const { end } = await drive(
      () => companyCard(5_000, 'single_use'),
      async (live) => {
        const token = await authorize(live, 3_000);
        await clear(token, 2_500);
        await l.fake.correct(token, -500);
      },
    );
    // Of 5000: 2000 at the close, then 500 the clearing left and 500 refunded: 3000 back per card.
    expect(end).toMatchObject({ balance: 0, status: 'CLOSED', spent: 2_000, wallet: 0, released: 3_000 });
    expect(await pool()).toBe(before - 2 * 5_000 + 2 * 3_000);
  });
});
