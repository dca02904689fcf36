import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cardStore from '../../../src/domains/cards/store.ts';
import { type LithicFixture, startLithic } from './helpers.ts';

/*
 * The Lithic ASA handler judges the spending controls like every other path (docs/cards.md,
 * "Spending controls"): Lithic's `merchant.mcc` and alpha-3 `merchant.country` (as alpha-2), a
 * refusal answered in Lithic's vocabulary and recorded with the rule that refused it.
 */

let l: LithicFixture;
beforeAll(async () => {
  l = await startLithic();
});
afterAll(async () => {
  await l.f.expectSound();
  await l.close();
});

async function controlledCard(controls: Record<string, unknown>) {
  const user = await l.liveUser(3_000);
  const card = await l.issue(user, 2_000);
  const patched = await l.f.t.call('PATCH', `/api/v2/cards/${card.id}`, {
    token: l.f.production,
    body: { spending_controls: controls },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  return l.fake.cardByLast4(card.last4 as string).token as string;
}

/** An authorization through Lithic's simulator (a transaction it keeps, so that it can be incremented). */
async function simulated(cardToken: string, amount: number): Promise<string> {
  const pan = [...l.fake.cards.values()].find((c) => c.token === cardToken)?.pan as string;
  const { token } = await l.driver.transactions.simulateAuthorization({
    amount,
    descriptor: 'Corner Shop',
    pan,
    mcc: '5411',
  });
  return token as string;
}

const transaction = async (id: string) =>
  (await l.f.t.call('GET', `/api/v2/transactions/${id}`, { token: l.f.production })).json();

describe('Auth Stream Access under spending controls', () => {
  it("judges Lithic's merchant country (alpha-3) and category", async () => {
    const blocked = await controlledCard({ blocked_merchant_countries: ['US'] });
    const refused = await l.fake.asa(blocked, 300);
    expect(refused.result).toBe('UNAUTHORIZED_MERCHANT');
    expect(await transaction(refused.token)).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'COUNTRY_BLOCKED',
      merchant_country: 'US',
      spending_control: { source: 'card', rule: 'blocked_merchant_countries' },
    });
    const grocery = await controlledCard({ allowed_categories: ['grocery_stores_supermarkets'] });
    const approved = await l.fake.asa(grocery, 300);
    expect(approved.result).toBe('APPROVED');
    expect(await transaction(approved.token)).toMatchObject({
      status: 'PENDING',
      mcc: '5411',
      merchant_country: 'US',
    });
  });

  it('answers a spending limit as VELOCITY_EXCEEDED', async () => {
    const limited = await controlledCard({ spending_limits: [{ amount_cents: 500, interval: 'monthly' }] });
    expect((await l.fake.asa(limited, 400)).result).toBe('APPROVED');
    const over = await l.fake.asa(limited, 200);
    expect(over.result).toBe('VELOCITY_EXCEEDED');
    expect(await transaction(over.token)).toMatchObject({
      decline_reason: 'SPENDING_LIMIT_EXCEEDED',
      spending_control: { interval: 'monthly', limit_cents: 500, spent_cents: 400 },
    });
  });

  it('counts an incremental authorization against the limits like any charge; a declined one leaves the hold as it was', async () => {
    const limited = await controlledCard({
      spending_limits: [
        { amount_cents: 1_000, interval: 'daily' },
        { amount_cents: 900, interval: 'per_authorization' },
      ],
    });
    const first = { token: await simulated(limited, 500) };
    expect(await transaction(first.token)).toMatchObject({ status: 'PENDING', amount_cents: 500 });
    // 500 → 800: the increment (300) fits the day's 1000 and the authorization's 900.
    expect(await l.fake.increment(first.token, 800)).toBe('APPROVED');
    expect(await transaction(first.token)).toMatchObject({ status: 'PENDING', amount_cents: 800 });
    // 800 → 950: the whole authorization is over its per_authorization 900, though the day has room.
    expect(await l.fake.increment(first.token, 950)).toBe('VELOCITY_EXCEEDED');
    expect(l.f.t.logs.text).toMatch(
      /"reason":"SPENDING_LIMIT_EXCEEDED","spending_control":\{"source":"card","rule":"spending_limits","interval":"per_authorization","limit_cents":900\}/,
    );
    const second = { token: await simulated(limited, 100) };
    expect((await transaction(second.token)).status).toBe('PENDING');
    // 100 → 300 is 200 more: the day has spent 900 of its 1000.
    expect(await l.fake.increment(second.token, 300)).toBe('VELOCITY_EXCEEDED');
    expect(l.f.t.logs.text).toMatch(
      /"spending_control":\{"source":"card","rule":"spending_limits","interval":"daily","limit_cents":1000,"spent_cents":900\}/,
    );
    // Declined increments hold nothing more: 800 + 100 held, the card's 2000 less that.
    expect(await transaction(first.token)).toMatchObject({ status: 'PENDING', amount_cents: 800 });
    expect(await transaction(second.token)).toMatchObject({ status: 'PENDING', amount_cents: 100 });
    const row = await cardStore.transactionById(l.f.t.ctx.db, first.token);
    expect((await l.liveCard(row!.card_id)).balance_cents).toBe(1_100);
    // Within the day's room, an increment is approved again: the limit counts what it holds.
    expect(await l.fake.increment(second.token, 200)).toBe('APPROVED');
    await l.f.expectSound();
  });

  it("judges an increment by the user's controls too, on the authorization's merchant", async () => {
    const user = await l.liveUser(3_000);
    const card = await l.issue(user, 2_000);
    const token = l.fake.cardByLast4(card.last4 as string).token as string;
    const first = { token: await simulated(token, 400) };
    expect((await transaction(first.token)).status).toBe('PENDING');
    const put = await l.f.t.call('PUT', `/api/v2/users/${user}/spending_controls`, {
      token: l.f.production,
      body: { blocked_categories: ['5411'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    // The authorization's merchant (5411) is blocked now: its increment is refused, the hold stays.
    expect(await l.fake.increment(first.token, 600)).toBe('UNAUTHORIZED_MERCHANT');
    expect(await transaction(first.token)).toMatchObject({ status: 'PENDING', amount_cents: 400 });
    expect((await l.liveCard(card.id as string)).balance_cents).toBe(1_600);
    await l.f.expectSound();
  });
});
