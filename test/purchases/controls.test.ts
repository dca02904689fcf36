import { describe, expect, it } from 'vitest';
import { usePurchases } from './helpers.ts';

/*
 * `/buy` and the spending controls (issue 27; docs/purchases.md): a cart the user's controls refuse
 * is declined with `decline_code: spending_controls` before any money moves (no card, no charge);
 * a cart they allow is charged through the engine with the merchant's category and country.
 */

const f = usePurchases();

async function controls(userId: string, body: Record<string, unknown>) {
  const response = await f.t.call('PUT', `/api/v2/users/${userId}/spending_controls`, {
    token: f.sandbox,
    body,
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe('/buy under spending controls', () => {
  it('declines a cart the controls refuse with spending_controls, before any money moves', async () => {
    const { token, userId } = await f.shopper(10_000);
    await controls(userId, { blocked_categories: ['grocery_stores_supermarkets'] });
    const asked = await f.turn(token, { ask: '2 milk from grocery' });
    const declined = await f.turn(token, {
      confirm: asked.cart!.hash,
      conversation_id: asked.conversation_id,
    });
    expect(declined).toMatchObject({
      status: 'declined',
      decline_code: 'spending_controls',
      charge_status: 'none',
    });
    expect(await f.wallet(userId)).toBe(10_000);
    const cards = await f.t.call('GET', `/api/v2/cards?user_id=${userId}`, { token: f.sandbox });
    expect(cards.json().data).toEqual([]);

    // A limit the cart's ceiling would pass declines it the same way.
    await controls(userId, { spending_limits: [{ amount_cents: 1_000, interval: 'daily' }] });
    const again = await f.turn(token, { confirm: asked.cart!.hash, conversation_id: asked.conversation_id });
    expect(again).toMatchObject({ status: 'declined', decline_code: 'spending_controls' });
    expect(await f.wallet(userId)).toBe(10_000);
    await f.expectSound();
  });

  it("places a cart the controls allow, charged with the merchant's category and country", async () => {
    const { token, userId } = await f.shopper(10_000);
    await controls(userId, {
      allowed_categories: ['5814'],
      allowed_merchant_countries: ['US'],
      spending_limits: [{ amount_cents: 5_000, interval: 'daily' }],
    });
    const merchants = await f.t.call('GET', '/buy/merchants', { token });
    expect(merchants.json().data).toContainEqual(
      expect.objectContaining({ slug: 'coffee', mcc: '5814', country: 'US' }),
    );
    const asked = await f.turn(token, { ask: '2 latte from coffee' });
    const placed = await f.turn(token, { confirm: asked.cart!.hash, conversation_id: asked.conversation_id });
    expect(placed.status, JSON.stringify(placed)).toBe('order_placed');
    const transactions = await f.t.call('GET', `/api/v2/transactions?user_id=${userId}`, {
      token: f.sandbox,
    });
    expect(transactions.json().data).toMatchObject([
      { status: 'SETTLED', mcc: '5814', merchant_country: 'US', authorization_decided_by: 'engine' },
    ]);
    await f.expectSound();
  });
});
