import { describe, expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import { expectError, useCards } from './helpers.ts';

/*
 * Spending controls (issue 27; docs/cards.md "Spending controls"): on cards and on users, checked
 * by the one engine after the card's status and before its balance, a refusal DECLINED with the
 * rule that refused it; limits count approved authorizations less what voids and refunds gave back,
 * and concurrent charges never pass a limit together.
 */

const f = useCards();

type Json = Record<string, unknown>;

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) =>
  f.t.call(method, url, { token: f.sandbox, ...(body === undefined ? {} : { body }) });

async function charge(
  cardId: string,
  amount: number,
  where: { mcc?: string; merchant_country?: string } = { mcc: '5411', merchant_country: 'US' },
): Promise<Json> {
  const response = await call('POST', '/api/v2/simulate/authorize', {
    card_id: cardId,
    amount_cents: amount,
    merchant: 'Corner Shop',
    ...where,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function cardWith(
  controls: Json,
  amount = 10_000,
  userId?: string,
): Promise<{ id: string; user: string }> {
  const user = userId ?? (await f.approvedUser(amount));
  const response = await call('POST', '/api/v2/cards', {
    user_id: user,
    amount_cents: amount,
    type: 'multi_use',
    spending_controls: controls,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().id, user };
}

async function balance(cardId: string): Promise<number> {
  return (await call('GET', `/api/v2/cards/${cardId}`)).json().balance_cents;
}

describe('the merchant category catalog', () => {
  it('names ISO 18245 codes, travel chains as ranges of their category', async () => {
    const response = await call('GET', '/api/v2/merchant_categories');
    expect(response.statusCode).toBe(200);
    const categories = response.json().data as Json[];
    expect(categories.length).toBeGreaterThan(250);
    expect(categories).toContainEqual({
      object: 'merchant_category',
      name: 'grocery_stores_supermarkets',
      description: 'Grocery Stores, Supermarkets',
      mccs: ['5411'],
    });
    expect(categories.find((c) => c.name === 'airlines_air_carriers')?.mccs).toEqual(['4511', '3000-3350']);
    expect(new Set(categories.map((c) => c.name)).size).toBe(categories.length);
  });
});

describe('categories and countries', () => {
  it('a blocked category (by name, covering its range) is DECLINED CATEGORY_BLOCKED, naming the rule; nothing moves', async () => {
    const { id } = await cardWith({ blocked_categories: ['airlines_air_carriers', '7995'] });
    for (const mcc of ['3005', '4511', '7995']) {
      const declined = await charge(id, 500, { mcc });
      expect(declined).toMatchObject({
        status: 'DECLINED',
        decline_reason: 'CATEGORY_BLOCKED',
        spending_control: { source: 'card', rule: 'blocked_categories' },
        authorization_decided_by: 'engine',
      });
    }
    expect(await balance(id)).toBe(10_000);
    const event = (await f.events('transaction.declined')).find((e) => e.card_id === id);
    expect(event).toMatchObject({
      decline_reason: 'CATEGORY_BLOCKED',
      spending_control: { source: 'card', rule: 'blocked_categories' },
    });
    expect(await charge(id, 500, { mcc: '5411' })).toMatchObject({
      status: 'PENDING',
      spending_control: null,
    });
    expect(await charge(id, 500, {})).toMatchObject({ status: 'PENDING' });
  });

  it('an allow list refuses any other category, and a charge without one', async () => {
    const { id } = await cardWith({ allowed_categories: ['grocery_stores_supermarkets'] });
    expect(await charge(id, 500, { mcc: '5411' })).toMatchObject({ status: 'PENDING' });
    for (const where of [{ mcc: '5812' }, {}]) {
      expect(await charge(id, 500, where)).toMatchObject({
        status: 'DECLINED',
        decline_reason: 'CATEGORY_BLOCKED',
        spending_control: { source: 'card', rule: 'allowed_categories' },
      });
    }
  });

  it('countries: allowed (any case given) and blocked, a charge without a country failing only an allow list', async () => {
    const allowed = await cardWith({ allowed_merchant_countries: ['us', 'CA'] });
    const card = (await call('GET', `/api/v2/cards/${allowed.id}`)).json();
    expect(card.spending_controls.allowed_merchant_countries).toEqual(['US', 'CA']);
    expect(await charge(allowed.id, 500, { merchant_country: 'CA' })).toMatchObject({
      status: 'PENDING',
      merchant_country: 'CA',
    });
    for (const where of [{ merchant_country: 'FR' }, {}]) {
      expect(await charge(allowed.id, 500, where)).toMatchObject({
        status: 'DECLINED',
        decline_reason: 'COUNTRY_BLOCKED',
        spending_control: { source: 'card', rule: 'allowed_merchant_countries' },
      });
    }
    const blocked = await cardWith({ blocked_merchant_countries: ['FR'] });
    expect(await charge(blocked.id, 500, { merchant_country: 'FR' })).toMatchObject({
      decline_reason: 'COUNTRY_BLOCKED',
      spending_control: { rule: 'blocked_merchant_countries' },
    });
    expect(await charge(blocked.id, 500, {})).toMatchObject({ status: 'PENDING' });
  });

  it('are checked after the status and before the balance', async () => {
    const { id } = await cardWith({ blocked_categories: ['7995'] }, 1_000);
    expect(await charge(id, 5_000, { mcc: '7995' })).toMatchObject({ decline_reason: 'CATEGORY_BLOCKED' });
    expect(await charge(id, 5_000, { mcc: '5411' })).toMatchObject({
      decline_reason: 'INSUFFICIENT_FUNDS',
      spending_control: null,
    });
    expect((await call('POST', `/api/v2/cards/${id}/pause`)).statusCode).toBe(200);
    expect(await charge(id, 500, { mcc: '7995' })).toMatchObject({ decline_reason: 'CARD_PAUSED' });
  });
});

describe('bad controls', () => {
  it('are 400 naming each field, and nothing is issued or paid', async () => {
    const userId = await f.approvedUser(5_000);
    const cases: [Json, string[]][] = [
      [
        { allowed_categories: ['5411'], blocked_categories: ['7995'] },
        ['allowed_categories', 'blocked_categories'],
      ],
      [
        { allowed_merchant_countries: ['US'], blocked_merchant_countries: ['FR'] },
        ['allowed_merchant_countries', 'blocked_merchant_countries'],
      ],
      [{ blocked_categories: ['casinos'] }, ['blocked_categories']],
      [{ blocked_merchant_countries: ['QQ'] }, ['blocked_merchant_countries']],
      [
        { spending_limits: [{ amount_cents: 100, interval: 'daily', categories: ['x'] }] },
        ['spending_limits[0].categories'],
      ],
    ];
    for (const [controls, fields] of cases) {
      const response = await call('POST', '/api/v2/cards', {
        user_id: userId,
        amount_cents: 1_000,
        type: 'multi_use',
        spending_controls: controls,
      });
      expectError(response, 400, 'invalid_request');
      expect(Object.keys(response.json().error.field_errors).sort()).toEqual(
        fields.map((field) => `spending_controls.${field}`).sort(),
      );
    }
    const schema = await call('POST', '/api/v2/cards', {
      user_id: userId,
      amount_cents: 1_000,
      type: 'multi_use',
      spending_controls: { spending_limits: [{ amount_cents: 100, interval: 'hourly' }] },
    });
    expectError(schema, 400, 'invalid_request');
    expect(await f.wallet(userId)).toBe(5_000);
    expect((await call('GET', `/api/v2/cards?user_id=${userId}`)).json().data).toEqual([]);
  });
});

describe('spending limits', () => {
  it('count approved authorizations less voids and refunds, and say what was spent', async () => {
    const { id } = await cardWith({ spending_limits: [{ amount_cents: 5_000, interval: 'daily' }] });
    const first = await charge(id, 3_000);
    expect(first.status).toBe('PENDING');
    const over = await charge(id, 2_500);
    expect(over).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'SPENDING_LIMIT_EXCEEDED',
      spending_control: {
        source: 'card',
        rule: 'spending_limits',
        interval: 'daily',
        limit_cents: 5_000,
        spent_cents: 3_000,
      },
    });
    // A partial void gives back what it releases; the rest still counts.
    expect(
      (await call('POST', '/api/v2/simulate/void', { transaction_id: first.id, amount_cents: 1_000 }))
        .statusCode,
    ).toBe(200);
    expect(await charge(id, 2_500)).toMatchObject({ status: 'PENDING' });
    expect(await charge(id, 600)).toMatchObject({ spending_control: { spent_cents: 4_500 } });
    // Settled, then refunded in part: what the refund gave back can be spent again.
    expect((await call('POST', '/api/v2/simulate/clear', { transaction_id: first.id })).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/v2/simulate/refund', { transaction_id: first.id, amount_cents: 1_500 }))
        .statusCode,
    ).toBe(200);
    expect(await charge(id, 2_000)).toMatchObject({ status: 'PENDING' });
    expect(await charge(id, 1)).toMatchObject({ decline_reason: 'SPENDING_LIMIT_EXCEEDED' });
  });

  it('per authorization, and limited to categories: other charges neither count nor are limited', async () => {
    const { id } = await cardWith({
      spending_limits: [
        { amount_cents: 1_000, interval: 'per_authorization' },
        { amount_cents: 1_500, interval: 'all_time', categories: ['eating_places_restaurants'] },
      ],
    });
    expect(await charge(id, 1_001)).toMatchObject({
      decline_reason: 'SPENDING_LIMIT_EXCEEDED',
      spending_control: { interval: 'per_authorization', limit_cents: 1_000 },
    });
    expect((await charge(id, 1_001)).spending_control).not.toHaveProperty('spent_cents');
    expect(await charge(id, 1_000, { mcc: '5411' })).toMatchObject({ status: 'PENDING' });
    expect(await charge(id, 1_000, { mcc: '5812' })).toMatchObject({ status: 'PENDING' });
    expect(await charge(id, 600, { mcc: '5812' })).toMatchObject({
      spending_control: { interval: 'all_time', limit_cents: 1_500, spent_cents: 1_000 },
    });
    expect(await charge(id, 1_000, { mcc: '5411' })).toMatchObject({ status: 'PENDING' });
  });

  it('windows are calendar days in UTC: a new day spends anew', async () => {
    const { id } = await cardWith({ spending_limits: [{ amount_cents: 1_000, interval: 'daily' }] });
    const now = f.t.clock.now();
    f.t.clock.set(
      Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate()) +
        DAY -
        60_000,
    );
    await f.renewTokens();
    expect(await charge(id, 1_000)).toMatchObject({ status: 'PENDING' });
    expect(await charge(id, 1)).toMatchObject({ decline_reason: 'SPENDING_LIMIT_EXCEEDED' });
    f.t.clock.advance(60_000);
    expect(await charge(id, 1_000)).toMatchObject({ status: 'PENDING' });
  });
});

describe("a user's controls", () => {
  it("apply to every card of the user, after the card's own, and are 404 for a user of another organization", async () => {
    const userId = await f.approvedUser(20_000);
    expect((await call('GET', `/api/v2/users/${userId}/spending_controls`)).json()).toEqual({
      object: 'spending_controls',
      user_id: userId,
      allowed_categories: [],
      blocked_categories: [],
      allowed_merchant_countries: [],
      blocked_merchant_countries: [],
      spending_limits: [],
    });
    const set = await call('PUT', `/api/v2/users/${userId}/spending_controls`, {
      blocked_categories: ['7995'],
      spending_limits: [{ amount_cents: 3_000, interval: 'weekly' }],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      user_id: userId,
      blocked_categories: ['7995'],
      allowed_categories: [],
    });
    expect((await call('GET', `/api/v2/users/${userId}/spending_controls`)).json()).toEqual(set.json());

    const one = await cardWith({ blocked_categories: ['5812'] }, 5_000, userId);
    const two = await cardWith({}, 5_000, userId);
    expect(await charge(one.id, 100, { mcc: '5812' })).toMatchObject({
      spending_control: { source: 'card' },
    });
    expect(await charge(two.id, 100, { mcc: '7995' })).toMatchObject({
      decline_reason: 'CATEGORY_BLOCKED',
      spending_control: { source: 'user', rule: 'blocked_categories' },
    });
    expect(await charge(one.id, 2_000)).toMatchObject({ status: 'PENDING' });
    expect(await charge(two.id, 1_500)).toMatchObject({
      decline_reason: 'SPENDING_LIMIT_EXCEEDED',
      spending_control: { source: 'user', interval: 'weekly', limit_cents: 3_000, spent_cents: 2_000 },
    });
    expect(await charge(two.id, 1_000)).toMatchObject({ status: 'PENDING' });

    // PUT replaces them whole.
    await call('PUT', `/api/v2/users/${userId}/spending_controls`, {});
    expect(await charge(two.id, 100, { mcc: '7995' })).toMatchObject({ status: 'PENDING' });

    const other = await f.t.createOrg('Other');
    const otherToken = await f.t.platformToken(other.sandbox);
    for (const method of ['GET', 'PUT'] as const) {
      const response = await f.t.call(method, `/api/v2/users/${userId}/spending_controls`, {
        token: otherToken,
        ...(method === 'PUT' ? { body: {} } : {}),
      });
      expectError(response, 404, 'not_found');
    }
    expectError(
      await call('PUT', `/api/v2/users/${userId}/spending_controls`, {
        allowed_categories: ['5411'],
        blocked_categories: ['5812'],
      }),
      400,
      'invalid_request',
    );
  });
});

describe('changing a card', () => {
  it('PATCH replaces the lists it names and keeps the others, with card.updated; a closed card is 409', async () => {
    const { id } = await cardWith({
      blocked_categories: ['7995'],
      spending_limits: [{ amount_cents: 900, interval: 'daily' }],
    });
    const patched = await call('PATCH', `/api/v2/cards/${id}`, {
      spending_controls: { blocked_merchant_countries: ['FR'] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().spending_controls).toEqual({
      allowed_categories: [],
      blocked_categories: ['7995'],
      allowed_merchant_countries: [],
      blocked_merchant_countries: ['FR'],
      spending_limits: [{ amount_cents: 900, interval: 'daily' }],
    });
    expect((await f.events('card.updated')).some((e) => e.id === id)).toBe(true);
    expectError(
      await call('PATCH', `/api/v2/cards/${id}`, { spending_controls: { allowed_categories: ['5411'] } }),
      400,
      'invalid_request',
    );
    const both = await call('PATCH', `/api/v2/cards/${id}`, {
      spend_limit_cents: 8_000,
      spending_controls: { spending_limits: [] },
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json()).toMatchObject({
      spend_limit_cents: 8_000,
      spending_controls: { spending_limits: [] },
    });
    expect((await call('POST', `/api/v2/cards/${id}/close`)).statusCode).toBe(200);
    expectError(await call('PATCH', `/api/v2/cards/${id}`, { spending_controls: {} }), 409, 'card_closed');
    expectError(await call('PATCH', `/api/v2/cards/${id}`, {}), 400, 'invalid_request');
  });
});

describe('concurrent charges', () => {
  it('never pass a limit together: 30 at once against a daily limit covering 10', async () => {
    const { id } = await cardWith({ spending_limits: [{ amount_cents: 1_000, interval: 'daily' }] }, 5_000);
    const results = await Promise.all(Array.from({ length: 30 }, () => charge(id, 100)));
    expect(results.filter((r) => r.status === 'PENDING')).toHaveLength(10);
    expect(results.filter((r) => r.decline_reason === 'SPENDING_LIMIT_EXCEEDED')).toHaveLength(20);
    expect(await balance(id)).toBe(4_000);
  });

  it("nor a user's limit from several cards at once", async () => {
    const userId = await f.approvedUser(9_000);
    await call('PUT', `/api/v2/users/${userId}/spending_controls`, {
      spending_limits: [{ amount_cents: 1_000, interval: 'daily' }],
    });
    const cards = [
      await cardWith({}, 3_000, userId),
      await cardWith({}, 3_000, userId),
      await cardWith({}, 3_000, userId),
    ];
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => charge(cards[i % 3]!.id, 100)));
    expect(results.filter((r) => r.status === 'PENDING')).toHaveLength(10);
    expect(results.filter((r) => r.decline_reason === 'SPENDING_LIMIT_EXCEEDED')).toHaveLength(20);
  });
});
