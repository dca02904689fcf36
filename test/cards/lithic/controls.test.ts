import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
