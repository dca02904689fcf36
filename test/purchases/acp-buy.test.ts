import { createHmac } from 'node:crypto';
import { expect, it } from 'vitest';
import { transactionIdOf } from '../../src/domains/purchases/checkout.ts';
import { FakeAcpMerchant } from '../helpers/fake-acp-merchant.ts';
import { connectUser } from '../helpers/fixtures.ts';
import { type Envelope, usePurchases } from './helpers.ts';

/*
 * Production `/buy` at a merchant speaking the Agentic Commerce Protocol (a local fake that checks
 * every request against the protocol's schemas): the confirm delegates the single-use card, the
 * merchant completes and charges it once, and failures end with no order and no charge.
 */

const API_KEY = 'acp_live_key_0123456789';
const WEBHOOK_SECRET = 'whsec_teashop_0123456789abcdef';
const fake = new FakeAcpMerchant(API_KEY);
const f = usePurchases({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' });
const address = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  city: 'Springfield',
  region: 'IL',
  postal_code: '62701',
  country: 'US',
};

let merchantAdded = false;
async function liveShopper(fund: number) {
  if (!merchantAdded) {
    await fake.start();
    await f.t.ctx.merchants.add({
      slug: 'teashop',
      name: 'Tea Shop',
      acpUrl: fake.url,
      apiKey: API_KEY,
      webhookSecret: WEBHOOK_SECRET,
      countries: ['US'],
      currency: 'usd',
    });
    merchantAdded = true;
  }
  const connected = await connectUser(
    f.t,
    f.production,
    { email: `tea.${Date.now()}.${Math.random()}@example.com` },
    { production: true },
  );
  const userId = connected.userId;
  // Approved and funded as a review and a deposit would (neither runs in a test).
  await f.t.call('GET', `/api/v2/kyc?user_id=${userId}`, { token: f.production });
  await f.t.ctx.db
    .updateTable('kyc_verifications')
    .set({ status: 'approved' })
    .where('user_id', '=', userId)
    .execute();
  const scope = { organizationId: f.org.organization_id, livemode: true };
  const [source, wallet] = await Promise.all([
    f.t.ctx.ledger.accountId(f.t.ctx.db, { ...scope, kind: 'funding_source', ownerId: scope.organizationId }),
    f.t.ctx.ledger.accountId(f.t.ctx.db, { ...scope, kind: 'user_wallet', ownerId: userId }),
  ]);
  await f.t.ctx.ledger.move([
    {
      type: 'posted',
      id: `deposit_${userId}`,
      debitAccountId: source,
      creditAccountId: wallet,
      amount: fund,
      code: 'deposit',
    },
  ]);
  return { userId, token: connected.accessToken };
}

async function liveWallet(userId: string): Promise<number> {
  const response = await f.t.call('GET', `/api/v2/users/${userId}/wallet`, { token: f.production });
  return response.json().balance_cents;
}

async function teaCart(token: string): Promise<Envelope> {
  const turn = await f.turn(token, { ask: '2 blue ceramic mugs from tea shop', delivery_address: address });
  expect(turn.cart).toMatchObject({ merchant: 'teashop', currency: 'usd' });
  return turn;
}

it('places a production order at an ACP merchant: one delegated card, one charge, the order confirmed by webhook once', async () => {
  fake.complete = 'ok';
  fake.orderStatus = 'created';
  const { userId, token } = await liveShopper(10_000);
  const turn = await teaCart(token);
  const cart = turn.cart!;
  expect(cart.items).toEqual([{ name: 'Blue ceramic mug', qty: 2, priceCents: 1250, product_id: 'sku_mug' }]);
  const placed = await f.turn(token, { confirm: cart.hash, conversation_id: turn.conversation_id });
  expect(placed).toMatchObject({ status: 'order_placed', charge_status: 'settled' });
  expect(fake.charges).toHaveLength(1);
  const order = (await f.t.call('GET', `/buy/orders/${placed.order_id}`, { token })).json();
  expect(order.total_cents).toBe(fake.charges[0]!.amount);
  expect(order.total_cents).toBeLessThanOrEqual(cart.approvedCeilingCents ?? cart.totalCents);
  expect(await liveWallet(userId)).toBe(10_000 - order.total_cents);
  expect(fake.validationErrors).toEqual([]);

  // The merchant's order webhook confirms it, once however often it is sent.
  const row = await f.t.ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', placed.order_id!)
    .executeTakeFirstOrThrow();
  expect(row.status).toBe('placed');
  expect((await f.events('order.confirmed')).some((d) => d.order_id === placed.order_id)).toBe(false);
  // An event that overtakes the answer to complete (the order still pending) is refused, to be sent
  // again, rather than acknowledged and lost.
  const setStatus = (status: 'pending' | 'placed') =>
    f.t.ctx.db.updateTable('orders').set({ status }).where('id', '=', row.id).execute();
  await setStatus('pending');
  const early = fake.orderWebhook(row.merchant_ref!, WEBHOOK_SECRET, { status: 'confirmed' });
  const tooEarly = await f.t.request({
    method: 'POST',
    url: '/buy/merchants/teashop/webhooks',
    headers: early.headers,
    payload: early.body,
  });
  expect(tooEarly.statusCode).toBe(409);
  expect(tooEarly.json().error.code).toBe('order_not_placed');
  await setStatus('placed');
  for (const status of ['confirmed', 'confirmed', 'shipped']) {
    const hook = fake.orderWebhook(row.merchant_ref!, WEBHOOK_SECRET, { status });
    const answer = await f.t.request({
      method: 'POST',
      url: '/buy/merchants/teashop/webhooks',
      headers: hook.headers,
      payload: hook.body,
    });
    expect(answer.statusCode, answer.body).toBe(200);
  }
  fake.orderStatus = 'confirmed';
  const confirmed = (await f.events('order.confirmed')).filter((d) => d.order_id === placed.order_id);
  expect(confirmed).toHaveLength(1);
  expect((await f.t.call('GET', `/buy/orders/${placed.order_id}`, { token })).json().status).toBe(
    'confirmed',
  );
  await f.expectSound();
});

it("the order's completed refunds give money back to the wallet, each once, never more than was charged", async () => {
  fake.complete = 'ok';
  fake.orderStatus = 'created';
  const { userId, token } = await liveShopper(10_000);
  const turn = await teaCart(token);
  const placed = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
  expect(placed).toMatchObject({ status: 'order_placed', charge_status: 'settled' });
  const charged = fake.charges[fake.charges.length - 1]!.amount;
  const row = await f.t.ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', placed.order_id!)
    .executeTakeFirstOrThrow();
  const refund = (id: string, amount: number, status = 'completed', type = 'refund') => ({
    id,
    type,
    status,
    amount,
    currency: 'usd',
    occurred_at: '2026-11-27T18:00:00Z',
    description: 'Defective item refund (inclusive of tax)',
  });
  const send = async (adjustments: Record<string, unknown>[]) => {
    const hook = fake.orderWebhook(row.merchant_ref!, WEBHOOK_SECRET, { status: 'completed', adjustments });
    const answer = await f.t.request({
      method: 'POST',
      url: '/buy/merchants/teashop/webhooks',
      headers: hook.headers,
      payload: hook.body,
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const charge = transactionIdOf(row.id);
  const refundsOf = async () =>
    (await f.t.call('GET', `/api/v2/transactions?user_id=${userId}&limit=100`, { token: f.production }))
      .json()
      .data.filter((t: { type: string }) => t.type === 'refund');

  // A completed refund, sent twice (merchants repeat whole orders); pending, failed and other
  // adjustments give nothing back.
  const first = [
    refund('adj_1', 1_000),
    refund('adj_p', 300, 'pending'),
    refund('adj_c', 200, 'completed', 'credit'),
  ];
  await send(first);
  await send(first);
  expect(await liveWallet(userId)).toBe(10_000 - charged + 1_000);
  expect(await refundsOf()).toEqual([
    expect.objectContaining({
      type: 'refund',
      status: 'SETTLED',
      amount_cents: 1_000,
      original_transaction_id: charge,
    }),
  ]);
  // The next refund asks for more than is left: what is left comes back, and no more ever.
  await send([refund('adj_1', 1_000), refund('adj_2', charged)]);
  await send([refund('adj_1', 1_000), refund('adj_2', charged), refund('adj_3', 50)]);
  expect(await liveWallet(userId)).toBe(10_000);
  const refunds = await refundsOf();
  expect(
    refunds.map((r: { amount_cents: number }) => r.amount_cents).sort((a: number, b: number) => a - b),
  ).toEqual([1_000, charged - 1_000].sort((a, b) => a - b));
  const purchase = (await f.t.call('GET', `/api/v2/transactions/${charge}`, { token: f.production })).json();
  expect(purchase).toMatchObject({ refunded_cents: charged });
  const events = (await f.events('transaction.refunded')).filter((e) => e.original_transaction_id === charge);
  expect(events).toHaveLength(2);
  expect(fake.validationErrors).toEqual([]);
  await f.expectSound();
});

it("shows the merchant's tax and shipping inside the total; the hash covers them, so a new split of the same total is a new cart", async () => {
  fake.complete = 'ok';
  const { token } = await liveShopper(10_000);
  const turn = await teaCart(token);
  // 2 × 12.50, the 0.99 fee, 8 % tax on the items and 5.00 shipping (the session's `tax` and `fulfillment` totals).
  expect(turn.cart).toMatchObject({ taxCents: 200, shippingCents: 500, totalCents: 2500 + 99 + 200 + 500 });
  expect(turn.cart!.approvedCeilingCents).toBeNull();
  expect(turn.reply).toContain('tax $2.00, shipping $5.00. Total $32.99.');
  // The same total split otherwise: what the user saw is not what would be charged.
  fake.taxBps = 1200;
  fake.shippingCents = 400;
  const charges = fake.charges.length;
  try {
    const moved = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
    expect(moved).toMatchObject({ status: 'declined', decline_code: 'cart_changed' });
    expect(moved.cart).toMatchObject({ taxCents: 300, shippingCents: 400, totalCents: 3299 });
    expect(moved.cart!.hash).not.toBe(turn.cart!.hash);
    expect(fake.charges).toHaveLength(charges);
  } finally {
    fake.taxBps = 800;
    fake.shippingCents = 500;
  }
  await f.expectSound();
});

it('an order webhook shaped like the protocol example (no data.id) confirms the order; shipped moves its fulfillment once, with order.updated', async () => {
  fake.complete = 'ok';
  fake.orderStatus = 'created';
  const { token } = await liveShopper(10_000);
  const turn = await teaCart(token);
  const placed = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
  expect(placed).toMatchObject({ status: 'order_placed' });
  const orderId = placed.order_id!;
  const row = await f.t.ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({ status: 'placed', fulfillment_status: 'unfulfilled' });

  // `WebhookEvent.example` of openapi.agentic_checkout_webhook.yaml: `EventDataOrder` requires
  // type, checkout_session_id, permalink_url and status; no `id`.
  const send = async (status: string) => {
    const body = JSON.stringify({
      type: 'order_update',
      data: {
        type: 'order',
        checkout_session_id: row.merchant_ref,
        permalink_url: `https://merchant.example.com/orders/${row.merchant_ref}`,
        status,
      },
    });
    const t = Math.floor(f.t.clock.now() / 1000);
    const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex');
    const answer = await f.t.request({
      method: 'POST',
      url: '/buy/merchants/teashop/webhooks',
      headers: { 'content-type': 'application/json', 'merchant-signature': `t=${t},v1=${v1}` },
      payload: body,
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const read = async () => (await f.t.call('GET', `/buy/orders/${orderId}`, { token })).json();
  const updates = async () => (await f.events('order.updated')).filter((d) => d.order_id === orderId);

  await send('processing');
  expect(await read()).toMatchObject({ status: 'confirmed', fulfillment_status: 'processing' });
  expect((await f.events('order.confirmed')).filter((d) => d.order_id === orderId)).toEqual([
    expect.objectContaining({ merchant_order_id: row.merchant_order_id }),
  ]);
  // The merchant's order_update with status shipped, twice, then a late processing: one move.
  await send('shipped');
  await send('shipped');
  await send('processing');
  await send('a_status_from_a_later_release');
  expect(await read()).toMatchObject({ status: 'confirmed', fulfillment_status: 'shipped' });
  expect((await updates()).map((d) => d.fulfillment_status)).toEqual(['processing', 'shipped']);
  expect((await updates()).at(-1)).toEqual({
    order_id: orderId,
    conversation_id: turn.conversation_id,
    user_id: row.user_id,
    merchant: 'teashop',
    total_cents: row.final_cents,
    currency: 'usd',
    card_id: row.card_id,
    merchant_order_id: row.merchant_order_id,
    status: 'confirmed',
    fulfillment_status: 'shipped',
    permalink_url: `https://merchant.example.com/orders/${row.merchant_ref}`,
  });
  // The conversation says it too.
  const conversation = (
    await f.t.call('GET', `/buy/conversations/${turn.conversation_id}`, { token })
  ).json();
  expect(conversation.orders).toEqual([
    expect.objectContaining({ order_id: orderId, status: 'confirmed', fulfillment_status: 'shipped' }),
  ]);
  await send('completed');
  expect(await read()).toMatchObject({ fulfillment_status: 'completed' });
  await send('canceled');
  expect(await read()).toMatchObject({ fulfillment_status: 'completed' });
  expect((await updates()).map((d) => d.fulfillment_status)).toEqual(['processing', 'shipped', 'completed']);
  await f.expectSound();
});

it('a declined payment, a 400 and a 500 from the merchant each end with no charge; the wallet is whole', async () => {
  const { userId, token } = await liveShopper(10_000);
  for (const [knob, code] of [
    ['payment_declined', 'payment_declined'],
    ['error_400', 'merchant_unavailable'],
  ] as const) {
    fake.complete = knob;
    const turn = await teaCart(token);
    const declined = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
    expect(declined, knob).toMatchObject({ status: 'declined', decline_code: code, charge_status: 'none' });
    expect(await liveWallet(userId)).toBe(10_000);
  }
  fake.complete = 'error_500';
  const turn = await teaCart(token);
  const unknown = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
  expect(unknown).toMatchObject({
    status: 'declined',
    decline_code: 'merchant_unavailable',
    charge_status: 'unknown',
  });
  // The worker asks the merchant again: it never completed, so the card is closed and the money returned.
  f.t.clock.advance(60_000);
  await f.t.ctx.purchases.checkout.resolveDue();
  const order = (await f.t.call('GET', `/buy/orders/${unknown.order_id}`, { token })).json();
  expect(order).toMatchObject({ status: 'failed', charge_status: 'none' });
  expect(await liveWallet(userId)).toBe(10_000);
  expect(fake.charges.filter((c) => c.amount > 0 && c.sessionId === turn.cart!.hash)).toEqual([]);
  fake.complete = 'ok';
  await f.renewTokens();
  await f.expectSound();
});

it('an item sold out at confirm, then the merchant failing the new price, answers items_unavailable in a 200', async () => {
  fake.complete = 'ok';
  const { userId, token } = await liveShopper(10_000);
  const turn = await f.turn(token, {
    ask: 'a blue ceramic mug and green tea from tea shop',
    delivery_address: address,
  });
  expect(turn.cart?.items).toHaveLength(2);
  const tea = fake.catalog.get('sku_tea')!;
  tea.stock = 0;
  fake.updatesBeforeOutage = 1; // the confirm's price check answers; pricing what is left fails
  try {
    const response = await f.buy(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'declined',
      decline_code: 'items_unavailable',
      charge_status: 'none',
      order_id: null,
    });
    // The cart stays as it was shown, to confirm again once the merchant answers.
    expect(response.json().carts.map((c: { hash: string }) => c.hash)).toEqual([turn.cart!.hash]);
  } finally {
    fake.updatesBeforeOutage = null;
    tea.stock = 5;
  }
  expect(await liveWallet(userId)).toBe(10_000);
  await f.expectSound();
});

it('a merchant that charged but whose answer was lost ends with one settled charge once the worker asks again', async () => {
  const { userId, token } = await liveShopper(10_000);
  fake.complete = 'complete_then_500';
  const charges = fake.charges.length;
  const turn = await teaCart(token);
  const lost = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
  expect(lost).toMatchObject({ charge_status: 'unknown', decline_code: 'merchant_unavailable' });
  expect(fake.charges.length).toBe(charges + 1);
  fake.complete = 'ok';
  f.t.clock.advance(60_000);
  await f.t.ctx.purchases.checkout.resolveDue();
  const order = (await f.t.call('GET', `/buy/orders/${lost.order_id}`, { token })).json();
  expect(order).toMatchObject({ charge_status: 'settled' });
  expect(['placed', 'confirmed']).toContain(order.status);
  expect(order.total_cents).toBe(fake.charges.at(-1)!.amount);
  expect(await liveWallet(userId)).toBe(10_000 - order.total_cents);
  const txn = await f.t.ctx.db
    .selectFrom('card_transactions')
    .select('status')
    .where('id', '=', transactionIdOf(order.id))
    .execute();
  expect(txn).toEqual([{ status: 'SETTLED' }]);
  await f.renewTokens();
  await f.expectSound();
});

it('a sandbox token never places at a merchant taking real money', async () => {
  const { token } = await f.shopper(10_000);
  const turn = await f.turn(token, { ask: 'a blue ceramic mug from tea shop' });
  expect(turn.cart!.merchant).toBe('teashop');
  const refused = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
  expect(refused).toMatchObject({ status: 'declined', decline_code: 'sandbox_mode' });
});
