import { compactVerify, createLocalJWKSet } from 'jose';
import { describe, expect, it } from 'vitest';
import { callOk, useMcp } from '../mcp/helpers.ts';
import { activate, createMandate } from './helpers.ts';

/*
 * Purchases under a mandate (issue 28; docs/mandates.md "Purchases"): a `/buy` confirm or the MCP
 * `buy` tool with a token of the mandate's app, within its terms, is placed without a per-purchase
 * approval and takes the charge from the budget with the hold; outside them it declines with
 * `mandate_exceeded` (or asks for approval when the organization says so); concurrent confirms never
 * spend past the budget; voids and refunds give back; cards the app creates under the mandate are
 * held to its terms by the engine; and every order placed under a mandate has a signed receipt.
 */

const f = useMcp();

type Envelope = {
  conversation_id: string;
  status: string;
  reply: string;
  order_id: string | null;
  decline_code: string | null;
  approval_url: string | null;
  cart: { hash: string; totalCents: number; approvedCeilingCents: number | null } | null;
};

/**
 * A connected user with `fund` cents and their connection token (the sandbox app's), verified: a
 * verified user is a cardholder already, which concurrent first cards would otherwise race to create.
 */
async function shopper(fund: number) {
  const user = await f.connect();
  const kyc = await f.t.call('POST', '/api/v2/kyc/simulate', {
    token: f.sandbox,
    body: { user_id: user.userId, outcome: 'approved' },
  });
  expect(kyc.statusCode, kyc.body).toBe(200);
  if (fund > 0) expect((await f.fund(user.userId, fund)).statusCode).toBe(200);
  return user;
}

async function buy(token: string, body: Record<string, unknown>): Promise<Envelope> {
  f.t.clock.advance(1);
  const response = await f.t.call('POST', '/buy', { token, body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** A cart of `ask` in a new conversation, then its confirm. */
async function cartOf(token: string, ask = '1 latte from coffee') {
  const asked = await buy(token, { ask });
  expect(asked.cart, asked.reply).not.toBeNull();
  return { conversation_id: asked.conversation_id, hash: asked.cart!.hash, total: asked.cart!.totalCents };
}
const confirm = (token: string, cart: { conversation_id: string; hash: string }) =>
  buy(token, { confirm: cart.hash, conversation_id: cart.conversation_id });

async function mandate(userId: string, over: Parameters<typeof createMandate>[2] = {}) {
  const created = await createMandate(f, userId, over);
  await activate(f, created);
  return created;
}

const read = async (id: string) =>
  (await f.t.call('GET', `/api/v2/mandates/${id}`, { token: f.sandbox })).json();

async function verify(jws: string) {
  const jwks = await f.t.call('GET', '/.well-known/jwks.json');
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(jwks.json()), {
    algorithms: ['ES256'],
  });
  return { claims: JSON.parse(new TextDecoder().decode(payload)), header: protectedHeader };
}

const threshold = (cents: number | null) => f.t.ctx.vault.setApprovalThreshold(f.org.organization_id, cents);

describe('a confirm within the terms', () => {
  it('is placed without approval whatever the threshold, takes the budget, and has a verifiable receipt', async () => {
    const { userId, accessToken } = await shopper(10_000);
    const terms = await mandate(userId, { allowed_merchants: ['coffee'], allowed_categories: ['5814'] });
    await threshold(0);
    try {
      const cart = await cartOf(accessToken);
      const placed = await confirm(accessToken, cart);
      expect(placed, placed.reply).toMatchObject({
        status: 'order_placed',
        decline_code: null,
        approval_url: null,
      });
      const orderId = placed.order_id!;
      expect(await read(terms.id)).toMatchObject({
        spent_cents: cart.total,
        remaining_cents: 20_000 - cart.total,
      });
      expect(await f.wallet(userId)).toBe(10_000 - cart.total);

      // The order's card is held to the mandate: its charge is the spend.
      const order = (await f.t.call('GET', `/buy/orders/${orderId}`, { token: accessToken })).json();
      const card = (await f.t.call('GET', `/api/v2/cards/${order.card_id}`, { token: f.sandbox })).json();
      expect(card).toMatchObject({ status: 'CLOSED' });

      // The receipt: served to the platform, carried by order.placed, verified with jose.
      const response = await f.t.call('GET', `/api/v2/orders/${orderId}/receipt`, { token: f.sandbox });
      expect(response.statusCode, response.body).toBe(200);
      const receipt = response.json();
      const { claims, header } = await verify(receipt.jws);
      expect(claims).toEqual({
        mandate_id: terms.id,
        terms_hash: terms.terms_hash,
        cart_hash: cart.hash,
        order_id: orderId,
        amount_cents: cart.total,
        currency: 'usd',
        merchant: 'coffee',
        placed_at: order.placed_at,
      });
      expect(header.kid).toBe(receipt.kid);
      const event = (await f.events('order.placed')).find((data) => data.order_id === orderId);
      expect(event).toMatchObject({ mandate_id: terms.id, receipt: receipt.jws });
    } finally {
      await threshold(null);
    }
  });

  it('is placed through the MCP buy tool the same way', async () => {
    const { userId, accessToken } = await shopper(10_000);
    const terms = await mandate(userId);
    await threshold(0);
    try {
      const client = await f.client(accessToken);
      const asked = await callOk(client, 'buy', { ask: '1 latte from coffee' });
      const cart = asked.data.cart as { hash: string; totalCents: number };
      const placed = await callOk(client, 'buy', {
        confirm: cart.hash,
        conversation_id: asked.data.conversation_id,
      });
      expect(placed.data).toMatchObject({ status: 'order_placed', approval_url: null });
      expect(await read(terms.id)).toMatchObject({ spent_cents: cart.totalCents });
      const receipt = await f.t.call('GET', `/api/v2/orders/${placed.data.order_id}/receipt`, {
        token: f.sandbox,
      });
      expect((await verify(receipt.json().jws)).claims.mandate_id).toBe(terms.id);
    } finally {
      await threshold(null);
    }
  });

  it('orders placed without a mandate have no receipt, and order.placed says so', async () => {
    const { accessToken } = await shopper(10_000);
    const placed = await confirm(accessToken, await cartOf(accessToken));
    expect(placed.status).toBe('order_placed');
    const receipt = await f.t.call('GET', `/api/v2/orders/${placed.order_id}/receipt`, { token: f.sandbox });
    expect(receipt.statusCode).toBe(404);
    const event = (await f.events('order.placed')).find((data) => data.order_id === placed.order_id);
    expect(event).toMatchObject({ mandate_id: null, receipt: null });
  });
});

describe('a confirm outside the terms', () => {
  it('declines with mandate_exceeded naming the term, moving nothing', async () => {
    const { userId, accessToken } = await shopper(10_000);
    const cases: [Parameters<typeof createMandate>[2], RegExp][] = [
      [
        { max_amount_cents: 100, budget: { amount_cents: 10_000, interval: 'monthly' } },
        /\$1\.00 per purchase/,
      ],
      [{ allowed_merchants: ['grocery'] }, /allowed merchants \(grocery\)/],
      [{ allowed_categories: ['5411'] }, /allowed categories \(5411\)/],
      [
        { budget: { amount_cents: 100, interval: 'daily' }, max_amount_cents: 100 },
        /per purchase|daily budget/,
      ],
    ];
    for (const [over, reply] of cases) {
      const terms = await mandate(userId, over);
      const declined = await confirm(accessToken, await cartOf(accessToken));
      expect(declined, JSON.stringify(over)).toMatchObject({
        status: 'declined',
        decline_code: 'mandate_exceeded',
        order_id: null,
        approval_url: null,
      });
      expect(declined.reply).toMatch(reply);
      await f.t.call('DELETE', `/api/v2/mandates/${terms.id}`, { token: f.sandbox });
    }
    expect(await f.wallet(userId)).toBe(10_000);
    const cards = await f.t.call('GET', `/api/v2/cards?user_id=${userId}`, { token: f.sandbox });
    expect(cards.json().data).toEqual([]);
  });

  it('asks for the passkey approval instead when the organization chose approval', async () => {
    const { userId, accessToken } = await shopper(10_000);
    await mandate(userId, { allowed_merchants: ['grocery'] });
    await f.t.ctx.vault.setMandateOverflow(f.org.organization_id, 'approval');
    try {
      const paused = await confirm(accessToken, await cartOf(accessToken));
      expect(paused).toMatchObject({
        status: 'declined',
        decline_code: 'vault_approval_required',
        approval_url: expect.stringMatching(/\/approve\/apv_/),
      });
      expect(await f.wallet(userId)).toBe(10_000);
    } finally {
      await f.t.ctx.vault.setMandateOverflow(f.org.organization_id, 'decline');
    }
  });

  it('a revoked mandate no longer spares the approval', async () => {
    const { userId, accessToken } = await shopper(10_000);
    const terms = await mandate(userId);
    await f.t.call('DELETE', `/api/v2/mandates/${terms.id}`, { token: f.sandbox });
    await threshold(0);
    try {
      const paused = await confirm(accessToken, await cartOf(accessToken));
      expect(paused).toMatchObject({ status: 'declined', decline_code: 'vault_approval_required' });
    } finally {
      await threshold(null);
    }
  });
});

describe('concurrent confirms', () => {
  it('20 at once against a budget for 5: exactly 5 placed, the rest mandate_exceeded, never past the budget', async () => {
    const { userId, accessToken } = await shopper(100_000);
    const carts = [];
    for (let i = 0; i < 20; i++) carts.push(await cartOf(accessToken));
    const total = carts[0]!.total;
    const terms = await mandate(userId, {
      max_amount_cents: total,
      budget: { amount_cents: total * 5, interval: 'weekly' },
    });
    const results = await Promise.all(carts.map((cart) => confirm(accessToken, cart)));
    const placed = results.filter((r) => r.status === 'order_placed');
    expect(placed, JSON.stringify(results.map((r) => [r.status, r.decline_code]))).toHaveLength(5);
    for (const declined of results.filter((r) => r.status !== 'order_placed')) {
      expect(declined).toMatchObject({ status: 'declined', decline_code: 'mandate_exceeded' });
      expect(declined.reply).toMatch(/budget/);
    }
    expect(await read(terms.id)).toMatchObject({ spent_cents: total * 5, remaining_cents: 0 });
    expect(await f.wallet(userId)).toBe(100_000 - total * 5);
    // The budget is decided at the charge, under the mandate's lock: the engine declined the rest.
    const listed = await f.t.call('GET', `/api/v2/transactions?user_id=${userId}&limit=100`, {
      token: f.sandbox,
    });
    const charges = listed.json().data as { status: string; decline_reason: string | null }[];
    expect(charges.filter((txn) => txn.status === 'SETTLED')).toHaveLength(5);
    for (const txn of charges.filter((txn) => txn.status !== 'SETTLED'))
      expect(txn).toMatchObject({ status: 'DECLINED', decline_reason: 'MANDATE_EXCEEDED' });
    for (const { order_id } of placed) {
      const receipt = await f.t.call('GET', `/api/v2/orders/${order_id}/receipt`, { token: f.sandbox });
      expect(receipt.statusCode).toBe(200);
    }
    await f.expectSound();
  });
});

describe('refunds and voids', () => {
  it('a refund of an order placed under a mandate gives the budget back', async () => {
    const { userId, accessToken } = await shopper(10_000);
    const terms = await mandate(userId, { budget: { amount_cents: 20_000, interval: 'total' } });
    const cart = await cartOf(accessToken);
    const placed = await confirm(accessToken, cart);
    expect(placed.status).toBe('order_placed');
    expect(await read(terms.id)).toMatchObject({ spent_cents: cart.total });
    const order = (await f.t.call('GET', `/buy/orders/${placed.order_id}`, { token: accessToken })).json();
    const txnId = `txn_${order.id.slice('ord_'.length)}`;
    const part = await f.t.call('POST', '/api/v2/simulate/refund', {
      token: f.sandbox,
      body: { transaction_id: txnId, amount_cents: 100 },
    });
    expect(part.statusCode, part.body).toBe(200);
    expect(await read(terms.id)).toMatchObject({ spent_cents: cart.total - 100 });
    const rest = await f.t.call('POST', '/api/v2/simulate/refund', {
      token: f.sandbox,
      body: { transaction_id: txnId },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(await read(terms.id)).toMatchObject({ spent_cents: 0, remaining_cents: 20_000 });
    expect(await f.wallet(userId)).toBe(10_000);
    await f.expectSound();
  });
});

describe('cards the app creates under the mandate', () => {
  it('are held to its terms by the engine: outside declines, inside takes the budget, a void gives back', async () => {
    const { userId, accessToken } = await shopper(10_000);
    const terms = await mandate(userId, {
      max_amount_cents: 2_000,
      budget: { amount_cents: 3_000, interval: 'monthly' },
      allowed_categories: ['5411'],
    });
    const client = await f.client(accessToken);
    const card = (await callOk(client, 'create_card', { amount_cents: 5_000 })).data as { id: string };
    const authorize = async (amount: number, mcc: string) => {
      const response = await f.t.call('POST', '/api/v2/simulate/authorize', {
        token: f.sandbox,
        body: { card_id: card.id, amount_cents: amount, merchant: 'Corner Shop', mcc },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };

    expect(await authorize(500, '5812')).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'MANDATE_EXCEEDED',
      spending_control: { source: 'mandate', rule: 'allowed_categories', mandate_id: terms.id },
    });
    expect(await authorize(2_001, '5411')).toMatchObject({
      status: 'DECLINED',
      spending_control: { source: 'mandate', rule: 'max_amount_cents' },
    });
    const held = await authorize(2_000, '5411');
    expect(held).toMatchObject({ status: 'PENDING' });
    expect(await read(terms.id)).toMatchObject({ spent_cents: 2_000, remaining_cents: 1_000 });
    expect(await authorize(1_001, '5411')).toMatchObject({
      status: 'DECLINED',
      spending_control: { source: 'mandate', rule: 'budget' },
    });
    const voided = await f.t.call('POST', '/api/v2/simulate/void', {
      token: f.sandbox,
      body: { transaction_id: held.id },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(await read(terms.id)).toMatchObject({ spent_cents: 0, remaining_cents: 3_000 });
    expect(await authorize(1_500, '5411')).toMatchObject({ status: 'PENDING' });
    expect(await read(terms.id)).toMatchObject({ spent_cents: 1_500 });

    // A card the platform creates for the same user is not the app's: no mandate holds it.
    const platformCard = await f.createCard(userId, 1_000);
    const response = await f.t.call('POST', '/api/v2/simulate/authorize', {
      token: f.sandbox,
      body: { card_id: platformCard.id, amount_cents: 500, merchant: 'Diner', mcc: '5812' },
    });
    expect(response.json()).toMatchObject({ status: 'PENDING' });
    expect(await read(terms.id)).toMatchObject({ spent_cents: 1_500 });
    await f.expectSound();
  });
});
