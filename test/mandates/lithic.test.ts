import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MandateTermsInput } from '../../src/domains/mandates/terms.ts';
import { driveTwice, type LithicFixture, startLithic } from '../cards/lithic/helpers.ts';
import type { FakeCard } from '../helpers/fake-lithic.ts';
import { callOk, mcpClient } from '../mcp/helpers.ts';
import { activate, createMandate } from './helpers.ts';

/*
 * A card held to a mandate at the issuer (CARD_ISSUER=lithic; docs/mandates.md "Giving back"): the
 * mandate's budget follows what the card's books hold and settled through every issuer event — an
 * incremental authorization takes its increment (or is declined by the terms), a clearing above
 * the hold takes the difference, one below it, a void, an expiry and a return give back, a reversal
 * and a force post take again — each exactly once, whatever the order of Lithic's reports. Each
 * case runs twice (test/cards/lithic/helpers.ts `driveTwice`): its events delivered in order and
 * again on one card, newest first and then shuffled on another; after every delivery the mandate
 * has spent exactly what left the card, and both cards end the same.
 */

let l: LithicFixture;
beforeAll(async () => {
  l = await startLithic();
});
afterAll(async () => {
  await l?.close();
});

const CARD_CENTS = 6_000;

interface Held {
  mandateId: string;
  cardId: string;
  upstream: FakeCard;
  tokens: string[];
}

/** A live user with an active production mandate of `terms`, and a card of 6000 their app created under it (MCP `create_card`). */
async function heldCard(terms: Partial<MandateTermsInput>): Promise<Held> {
  const { userId, accessToken } = await l.liveConnection(CARD_CENTS + 1_000);
  const mandate = await createMandate(l.f, userId, terms, 'production');
  await activate(l.f, mandate);
  const client = await mcpClient(l.fake.purserUrl, accessToken);
  try {
    const card = (await callOk(client, 'create_card', { amount_cents: CARD_CENTS })).data;
    return {
      mandateId: mandate.id,
      cardId: card.id as string,
      upstream: l.fake.cardByLast4(card.last4 as string),
      tokens: [],
    };
  } finally {
    await client.close();
  }
}

const get = async (path: string) => {
  const response = await l.f.t.call('GET', path, { token: l.f.production });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** The card's balance, and the mandate's budget and status. */
async function state(held: Held) {
  const [card, mandate] = await Promise.all([
    get(`/api/v2/cards/${held.cardId}`),
    get(`/api/v2/mandates/${held.mandateId}`),
  ]);
  return {
    balance: card.balance_cents as number,
    spent: mandate.spent_cents as number,
    remaining: mandate.remaining_cents as number,
    status: mandate.status as string,
  };
}

/** After every delivery: the mandate has spent exactly what left the card (held, settled, less returns). */
async function inStep(held: Held) {
  const now = await state(held);
  expect(now.spent, JSON.stringify(now)).toBe(CARD_CENTS - now.balance);
}

const drive = (terms: Partial<MandateTermsInput>, scenario: (held: Held) => Promise<unknown>) =>
  driveTwice(l, { setup: () => heldCard(terms), scenario, state, afterEvery: inStep });

async function authorize(held: Held, amount: number) {
  const { token, ...rest } = await l.driver.transactions.simulateAuthorization({
    amount,
    descriptor: 'Corner Shop',
    pan: held.upstream.pan,
    mcc: '5411',
  });
  held.tokens.push(token as string);
  expect(l.fake.transaction(token as string).result, JSON.stringify(rest)).toBe('APPROVED');
  return token as string;
}
const clear = (token: string, amount?: number) =>
  l.driver.transactions.simulateClearing({ token, ...(amount === undefined ? {} : { amount }) });
const budget = (amount_cents: number) => ({
  max_amount_cents: 3_000,
  budget: { amount_cents, interval: 'total' as const },
});

describe('a card held to a mandate at Lithic', () => {
  it('incremental authorizations take the increment or are declined by the terms; clearings above and below the hold follow', async () => {
    const { end } = await drive(budget(5_000), async (held) => {
      const first = await authorize(held, 1_000);
      expect(await l.fake.increment(first, 1_800)).toBe('APPROVED');
      expect((await state(held)).spent).toBe(1_800);
      // 3500 in all is more than the 3000 per purchase: declined, the 1800 stays taken.
      expect(await l.fake.increment(first, 3_500)).toBe('UNAUTHORIZED_MERCHANT');
      const second = await authorize(held, 2_500);
      expect(await l.fake.increment(second, 3_000)).toBe('APPROVED');
      expect((await state(held)).spent).toBe(4_800);
      // 300 more is past the 200 left of the budget: declined.
      expect(await l.fake.increment(first, 2_100)).toBe('UNAUTHORIZED_MERCHANT');
      expect(await state(held)).toMatchObject({ spent: 4_800, balance: CARD_CENTS - 4_800 });
      // A tip: 200 above the 1800 held; the second clears 400 below its hold.
      await clear(first, 2_000);
      await clear(second, 2_600);
    });
    expect(end).toEqual({ balance: CARD_CENTS - 4_600, spent: 4_600, remaining: 400, status: 'active' });
  });

  it('voids, expiries and clearings below the hold give back; a total budget used up is exhausted, then active again', async () => {
    const { live, end } = await drive(budget(5_000), async (held) => {
      const first = await authorize(held, 3_000);
      const second = await authorize(held, 2_000);
      expect(await state(held)).toMatchObject({ spent: 5_000, status: 'exhausted' });
      await l.driver.transactions.simulateVoid({ token: first, amount: 500 });
      await l.driver.transactions.expireAuthorization(second);
      await clear(first, 2_000);
    });
    expect(end).toEqual({ balance: CARD_CENTS - 2_000, spent: 2_000, remaining: 3_000, status: 'active' });
    // Exhausted once, by the second authorization; the reports reopened it without another event.
    const exhausted = (await l.f.events('mandate.exhausted')).filter((e) => e.id === live.mandateId);
    expect(exhausted).toHaveLength(1);
  });

  it('a clearing above the hold can use up the budget; a return gives back, its reversal takes again, a force post counts', async () => {
    const { end } = await drive(budget(3_000), async (held) => {
      const purchase = await authorize(held, 2_800);
      await clear(purchase, 3_000);
      await l.driver.transactions.simulateReturn({
        amount: 700,
        descriptor: 'Corner Shop',
        pan: held.upstream.pan,
      });
      const reversed = await l.driver.transactions.simulateReturn({
        amount: 200,
        descriptor: 'Corner Shop',
        pan: held.upstream.pan,
      });
      await l.driver.transactions.simulateReturnReversal({ token: reversed.token as string });
      await l.fake.forcePost(held.upstream.token, 400);
    });
    // 3000 settled, 700 returned, 400 forced: 2700 of 3000.
    expect(end).toEqual({ balance: CARD_CENTS - 2_700, spent: 2_700, remaining: 300, status: 'active' });
  });
});
