import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { takeTurn } from '../../src/domains/purchases/store.ts';
import { CART_KEYS, ENVELOPE_KEYS, expectError, usePurchases } from './helpers.ts';

const f = usePurchases();
const ADDRESS = { name: 'Ada', line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' };

describe('POST /buy: who may call', () => {
  it('refuses a missing token, a platform token and an API key with 401 in the v2 body', async () => {
    const missing = await f.t.call('POST', '/buy', { body: { ask: 'a latte' } });
    expectError(missing, 401, 'unauthorized');
    const platform = await f.buy(f.sandbox, { ask: 'a latte' });
    expectError(platform, 401, 'user_token_required');
    const apiKey = await f.buy(f.org.sandbox.api_key, { ask: 'a latte' });
    expectError(apiKey, 401, 'unauthorized');
  });

  it('refuses bad bodies with 400 invalid_request naming the field, and changes nothing', async () => {
    const { token } = await f.shopper();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'ask'],
      [{ ask: '' }, 'ask'],
      [{ ask: 'x'.repeat(2001) }, 'ask'],
      [{ ask: 'a latte', surprise: 1 }, 'surprise'],
      [{ confirm: 42 }, 'confirm'],
      [{ confirm: [] }, 'confirm'],
      [{ ask: 'a latte', payment_source: 'cash' }, 'payment_source'],
      [{ ask: 'a latte', delivery_address: { name: 'A' } }, 'delivery_address'],
      [{ ask: 'a latte', conversation_id: 7 }, 'conversation_id'],
    ];
    for (const [body, field] of cases) {
      const response = await f.buy(token, body);
      expectError(response, 400, 'invalid_request');
      const fields = Object.keys(response.json().error.field_errors).join(' ');
      expect(fields, JSON.stringify(body)).toContain(field);
    }
    expect(await f.t.ctx.db.selectFrom('conversations').select('id').execute()).toEqual([]);
  });

  it('answers 404 for a conversation of another user', async () => {
    const first = await f.shopper();
    const second = await f.shopper();
    const turn = await f.turn(first.token, { ask: 'a latte from coffee' });
    expectError(
      await f.buy(second.token, { ask: 'a latte', conversation_id: turn.conversation_id }),
      404,
      'not_found',
    );
    const read = await f.t.call('GET', `/buy/conversations/${turn.conversation_id}`, { token: second.token });
    expectError(read, 404, 'not_found');
  });
});

describe('carts', () => {
  it('builds an exact cart from plain words, hashed over its priced content', async () => {
    const { token } = await f.shopper();
    const turn = await f.turn(token, { ask: '2 lattes from coffee' });
    expect(turn.status).toBe('needs_input');
    expect(Object.keys(turn)).toEqual(ENVELOPE_KEYS);
    const cart = turn.cart!;
    expect(Object.keys(cart)).toEqual(CART_KEYS);
    expect(cart.items).toEqual([{ name: 'Latte', qty: 2, priceCents: 475, product_id: 'cof_latte' }]);
    // Sandbox Coffee tips 15% of the items by default.
    // No tax or shipping at a counter: stated as none, not pending.
    expect(cart).toMatchObject({
      merchant: 'coffee',
      tipCents: 143,
      serviceFeesCents: 0,
      taxCents: 0,
      shippingCents: 0,
      totalCents: 1093,
    });
    expect(cart.currency).toBe('usd');
    expect(cart.approvedCeilingCents).toBeNull();
    expect(turn.carts).toEqual([cart]);
    expect(turn.messages.length).toBeGreaterThan(0);
    expect(turn.reply).toBe(turn.messages.join('\n\n'));
    const content = canonicalize({
      merchant: 'coffee',
      items: [{ product_id: 'cof_latte', name: 'Latte', qty: 2, priceCents: 475 }],
      serviceFeesCents: 0,
      tipCents: 143,
      taxCents: 0,
      shippingCents: 0,
      totalCents: 1093,
      approvedCeilingCents: null,
      currency: 'usd',
      delivery_address: null,
    }) as string;
    expect(cart.hash).toBe(createHash('sha256').update(content).digest('base64url'));
    for (const key of [
      'order_id',
      'payment_source',
      'decline_code',
      'approval_url',
      'charge_status',
      'placements',
      'error_code',
    ])
      expect(turn[key], key).toBeNull();
  });

  it('follow-ups add, change and remove; every change is a new hash', async () => {
    const { token } = await f.shopper();
    const first = await f.turn(token, { ask: 'a latte from coffee' });
    const conversation_id = first.conversation_id;
    const added = await f.turn(token, { ask: 'add a croissant', conversation_id });
    expect(added.cart!.items.map((i) => [i.product_id, i.qty])).toEqual([
      ['cof_latte', 1],
      ['cof_croissant', 1],
    ]);
    expect(added.cart!.hash).not.toBe(first.cart!.hash);
    const changed = await f.turn(token, { ask: 'change latte to 3', conversation_id });
    expect(changed.cart!.items.find((i) => i.product_id === 'cof_latte')!.qty).toBe(3);
    const removed = await f.turn(token, { ask: 'remove the croissant', conversation_id });
    expect(removed.cart!.items.map((i) => i.product_id)).toEqual(['cof_latte']);
    const shown = await f.turn(token, { ask: 'show my cart', conversation_id });
    expect(shown.cart!.hash).toBe(removed.cart!.hash);
    const shipped = await f.turn(token, { ask: 'show my cart', conversation_id, delivery_address: ADDRESS });
    expect(shipped.cart!.hash).not.toBe(removed.cart!.hash);
  });

  it('opens one cart per merchant, searches catalogs, and reports what reached no cart', async () => {
    const { token } = await f.shopper();
    const turn = await f.turn(token, {
      ask: 'a latte from coffee and 2 notebooks from retail and 3 unicorns from retail',
    });
    expect(turn.carts.map((c) => c.merchant).sort()).toEqual(['coffee', 'retail']);
    expect(turn.unmatched).toEqual([
      expect.objectContaining({ merchant: 'retail', requested: 'unicorns', reason: 'not_found' }),
    ]);
    const soldOut = await f.turn(token, { ask: 'a game console', conversation_id: turn.conversation_id });
    expect(soldOut.unmatched[0]).toMatchObject({ reason: 'out_of_stock', merchant: 'retail' });
    const browse = await f.turn(token, {
      ask: 'what does grocery sell',
      conversation_id: turn.conversation_id,
    });
    expect(browse.catalog).toMatchObject({ merchant: 'grocery', query: '' });
    const items = (browse.catalog as { items: { product_id: string; currency: string; in_stock: boolean }[] })
      .items;
    expect(items.map((i) => i.product_id)).toContain('gro_milk');
    expect(Object.keys(items[0]!)).toEqual(['product_id', 'name', 'priceCents', 'currency', 'in_stock']);
    expect(typeof (browse.catalog as { as_of: string }).as_of).toBe('string');
  });

  it('keeps quantities to 1..99 and says so', async () => {
    const { token } = await f.shopper();
    for (const ask of ['100 lattes from coffee', '0 lattes from coffee', '-3 lattes from coffee']) {
      const turn = await f.turn(token, { ask });
      expect(turn.carts, ask).toEqual([]);
      expect(turn.unmatched[0]!.reason, ask).toBe('quantity_limit');
    }
  });

  it('a cart stops being confirmable once it expires', async () => {
    const { token } = await f.shopper(10_000);
    const turn = await f.turn(token, { ask: 'an espresso from coffee' });
    f.t.clock.advance(31 * 60 * 1000);
    const late = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
    expect(late).toMatchObject({ status: 'declined', decline_code: 'no_cart', order_id: null });
    await f.renewTokens();
  });
});

describe('confirm', () => {
  it('places a sandbox order end to end: one card, one charge, order events, the wallet debited once', async () => {
    const { token, userId } = await f.shopper(5_000);
    const turn = await f.turn(token, { ask: '2 lattes from coffee' });
    const hash = turn.cart!.hash;
    const placed = await f.turn(token, { confirm: hash, conversation_id: turn.conversation_id });
    expect(placed).toMatchObject({ status: 'order_placed', charge_status: 'settled', decline_code: null });
    expect(placed.order_id).toMatch(/^ord_/);
    expect(placed.payment_source).toEqual({
      source: 'balance',
      brand: 'visa',
      last4: expect.stringMatching(/^\d{4}$/),
    });
    expect(placed.carts).toEqual([]);
    expect(await f.wallet(userId)).toBe(5_000 - 1093);

    const orders = await f.events('order.placed');
    const event = orders.find((data) => data.order_id === placed.order_id)!;
    expect(event).toEqual({
      order_id: placed.order_id,
      conversation_id: turn.conversation_id,
      user_id: userId,
      merchant: 'coffee',
      total_cents: 1093,
      currency: 'usd',
      card_id: expect.stringMatching(/^card_/),
      mandate_id: null,
      receipt: null,
    });
    expect((await f.events('order.confirmed')).some((d) => d.order_id === placed.order_id)).toBe(true);
    const cardId = event.card_id as string;
    expect((await f.events('card.created')).some((d) => d.id === cardId || d.card_id === cardId)).toBe(true);
    const cleared = (await f.events('transaction.cleared')).filter((d) => d.card_id === cardId);
    expect(cleared).toHaveLength(1);

    // The same hash again: the same order, no second charge.
    const again = await f.turn(token, { confirm: hash, conversation_id: turn.conversation_id });
    expect(again).toMatchObject({ status: 'order_placed', order_id: placed.order_id });
    expect(await f.wallet(userId)).toBe(5_000 - 1093);

    const order = await f.t.call('GET', `/buy/orders/${placed.order_id}`, { token });
    expect(order.statusCode).toBe(200);
    expect(order.json()).toMatchObject({
      object: 'order',
      status: 'confirmed',
      total_cents: 1093,
      charge_status: 'settled',
      card_id: cardId,
    });
    const conversation = await f.t.call('GET', `/buy/conversations/${turn.conversation_id}`, { token });
    expect(conversation.json()).toMatchObject({
      object: 'conversation',
      turn_in_progress: false,
      carts: [],
      orders: [
        {
          order_id: placed.order_id,
          status: 'confirmed',
          merchant: 'coffee',
          total_cents: 1093,
          charge_status: 'settled',
        },
      ],
      last_checkout: { hashes: [hash], status: 'order_placed', order_id: placed.order_id },
    });
    await f.expectSound();
  });

  it('a cart rebuilt identical after its order was placed is bought again; a retried confirm answers its own order', async () => {
    const { token, userId } = await f.shopper(5_000);
    const first = await f.turn(token, { ask: '2 lattes from coffee' });
    const hash = first.cart!.hash;
    const conversation_id = first.conversation_id;
    const placed = await f.turn(token, { confirm: hash, conversation_id });
    expect(placed).toMatchObject({ status: 'order_placed', charge_status: 'settled' });

    // The same two lattes asked for again: the same hash, a new cart.
    const rebuilt = await f.turn(token, { ask: '2 lattes from coffee', conversation_id });
    expect(rebuilt.cart!.hash).toBe(hash);
    const second = await f.turn(token, { confirm: hash, conversation_id });
    expect(second).toMatchObject({ status: 'order_placed', charge_status: 'settled' });
    expect(second.order_id).not.toBe(placed.order_id);
    expect(await f.wallet(userId)).toBe(5_000 - 2 * 1093);

    // The confirm sent again answers the order it placed; nothing is charged a third time.
    const again = await f.turn(token, { confirm: hash, conversation_id });
    expect(again).toMatchObject({ status: 'order_placed', order_id: second.order_id });
    expect(await f.wallet(userId)).toBe(5_000 - 2 * 1093);
    const orders = (await f.events('order.placed')).filter((d) => d.conversation_id === conversation_id);
    expect(orders.map((d) => d.order_id).sort()).toEqual([placed.order_id, second.order_id].sort());
    await f.expectSound();
  });

  it('concurrent confirms of one hash place one order and charge once', async () => {
    const { token, userId } = await f.shopper(10_000);
    const turn = await f.turn(token, { ask: 'a notebook from retail' });
    const body = { confirm: turn.cart!.hash, conversation_id: turn.conversation_id };
    const answers = await Promise.all(Array.from({ length: 6 }, () => f.buy(token, body)));
    const envelopes = answers.map((a) => a.json());
    const placed = envelopes.filter((e) => e.status === 'order_placed');
    expect(placed.length).toBeGreaterThanOrEqual(1);
    expect(new Set(placed.map((e) => e.order_id)).size).toBe(1);
    // Each other answer is the hash being placed (a decline, no loop error) or a turn still running.
    for (const e of envelopes.filter((e) => e.status !== 'order_placed')) {
      if (e.decline_code === 'in_progress')
        expect(e).toMatchObject({ status: 'declined', charge_status: 'confirming', error_code: null });
      else expect(e).toMatchObject({ status: 'needs_input', error_code: 'turn_in_progress' });
    }
    const total = turn.cart!.totalCents;
    expect(await f.wallet(userId)).toBe(10_000 - total);
    const orders = await f.t.ctx.db
      .selectFrom('orders')
      .select('id')
      .where('conversation_id', '=', turn.conversation_id)
      .execute();
    expect(orders).toHaveLength(1);
    await f.expectSound();
  });

  it("an unverified user's first confirms, sent at once, place every order under one cardholder", async () => {
    // Each confirm's card makes the user's cardholder when there is none: one insert wins, the others
    // read its row (on PostgreSQL they used to fail on the unique key with a 500).
    const { token, userId } = await f.shopper(10_000);
    const turns = await Promise.all(
      Array.from({ length: 4 }, () => f.turn(token, { ask: 'a notebook from retail' })),
    );
    const answers = await Promise.all(
      turns.map((turn) => f.buy(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id })),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().status, answer.body).toBe('order_placed');
    }
    const cardholders = await f.t.ctx.db
      .selectFrom('cardholders')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(cardholders).toHaveLength(1);
    const created = (await f.events('cardholder.created')).filter((e) => e.id === cardholders[0]?.id);
    expect(created).toHaveLength(1);
    await f.expectSound();
  });

  it('authorizes the ceiling where tax and shipping finalize later, and charges the final amount', async () => {
    const { token, userId } = await f.shopper(10_000);
    const turn = await f.turn(token, { ask: '2 milk from grocery' });
    const cart = turn.cart!;
    // 2 × 449 + 299 service fee; ceiling adds 10% tax and 499 shipping.
    expect(cart).toMatchObject({ totalCents: 1197, taxCents: null, shippingCents: null });
    expect(cart.approvedCeilingCents).toBe(1197 + 90 + 499);
    const placed = await f.turn(token, { confirm: cart.hash, conversation_id: turn.conversation_id });
    expect(placed.status).toBe('order_placed');
    const final = 1197 + Math.ceil((898 * 825) / 10_000) + 499;
    expect(await f.wallet(userId)).toBe(10_000 - final);
    const order = (await f.t.call('GET', `/buy/orders/${placed.order_id}`, { token })).json();
    expect(order).toMatchObject({ total_cents: final, approved_cents: cart.approvedCeilingCents });
    await f.expectSound();
  });

  it('declines what it cannot place, moving nothing', async () => {
    const { token, userId } = await f.shopper(1_000);
    const big = await f.turn(token, { ask: 'wireless headphones from retail' });
    const id = big.conversation_id;
    const poor = await f.turn(token, { confirm: big.cart!.hash, conversation_id: id });
    expect(poor).toMatchObject({
      status: 'declined',
      decline_code: 'insufficient_funds',
      charge_status: 'none',
      order_id: null,
    });
    expect(poor.carts).toHaveLength(1);

    const unknown = await f.turn(token, { confirm: 'no-such-hash', conversation_id: id });
    expect(unknown).toMatchObject({ status: 'declined', decline_code: 'no_cart' });
    // The checks run in the documented order: no cart comes before the payment source.
    const neither = await f.turn(token, {
      confirm: ['no-such-hash'],
      conversation_id: id,
      payment_source: 'company_balance',
    });
    expect(neither.placements![0]).toMatchObject({ decline_code: 'no_cart' });

    const euro = await f.turn(token, { ask: 'a baguette from paris bakery', conversation_id: id });
    const bakery = euro.carts.find((c) => c.merchant === 'paris-bakery')!;
    expect(bakery.currency).toBe('eur');
    const currency = await f.turn(token, { confirm: bakery.hash, conversation_id: id });
    expect(currency).toMatchObject({ status: 'declined', decline_code: 'unsupported_currency' });

    const source = await f.turn(token, {
      confirm: bakery.hash,
      conversation_id: id,
      payment_source: 'company_balance',
    });
    expect(source).toMatchObject({ status: 'declined', decline_code: 'unsupported_payment_source' });
    const sourceAgain = await f.turn(token, {
      confirm: [bakery.hash],
      conversation_id: id,
      payment_source: 'company_balance',
    });
    expect(sourceAgain.placements![0]).toMatchObject({
      merchant: 'paris-bakery',
      decline_code: 'unsupported_payment_source',
    });
    expect(await f.wallet(userId)).toBe(1_000);
  });

  it('a decline that charged nothing names no order, though one was recorded', async () => {
    const { token, userId } = await f.shopper(2_000_000);
    const many = await f.turn(token, { ask: '99 wireless headphones from retail' });
    expect(many.cart!.totalCents).toBeGreaterThan(50_000); // over the card limit
    const confirm = { confirm: many.cart!.hash, conversation_id: many.conversation_id };
    const refused = await f.turn(token, confirm);
    expect(refused).toMatchObject({ status: 'declined', charge_status: 'none', order_id: null });
    expect(await f.turn(token, confirm)).toMatchObject({ status: 'declined', order_id: null });
    expect(await f.wallet(userId)).toBe(2_000_000);
  });

  it('a moved price or stock since the cart was shown is cart_changed or items_unavailable, never a charge', async () => {
    const { token, userId } = await f.shopper(10_000);
    const lamp = f.merchant('retail');
    const turn = await f.turn(token, { ask: 'a desk lamp and a phone case from retail' });
    const id = turn.conversation_id;
    lamp.setPrice('ret_desk_lamp', 4499);
    try {
      const changed = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: id });
      expect(changed).toMatchObject({
        status: 'declined',
        decline_code: 'cart_changed',
        charge_status: 'none',
      });
      expect(changed.cart!.hash).not.toBe(turn.cart!.hash);
      expect(changed.cart!.items.find((i) => i.product_id === 'ret_desk_lamp')!.priceCents).toBe(4499);
      lamp.setStock('ret_phone_case', false);
      const gone = await f.turn(token, { confirm: changed.cart!.hash, conversation_id: id });
      expect(gone).toMatchObject({ status: 'declined', decline_code: 'items_unavailable' });
      expect(gone.cart!.items.map((i) => i.product_id)).toEqual(['ret_desk_lamp']);
      expect(await f.wallet(userId)).toBe(10_000);
      const placed = await f.turn(token, { confirm: gone.cart!.hash, conversation_id: id });
      expect(placed.status).toBe('order_placed');
      expect(await f.wallet(userId)).toBe(10_000 - gone.cart!.totalCents);
    } finally {
      lamp.setPrice('ret_desk_lamp', 3999);
      lamp.setStock('ret_phone_case', true);
    }
  });

  it('a delivery address sent with the confirm that changes the cart answers cart_changed with it', async () => {
    const { token, userId } = await f.shopper(10_000);
    const turn = await f.turn(token, { ask: 'a notebook from retail' });
    const changed = await f.turn(token, {
      confirm: turn.cart!.hash,
      conversation_id: turn.conversation_id,
      delivery_address: ADDRESS,
    });
    expect(changed).toMatchObject({
      status: 'declined',
      decline_code: 'cart_changed',
      charge_status: 'none',
    });
    expect(changed.cart!.hash).not.toBe(turn.cart!.hash);
    expect(changed.carts.map((c) => c.hash)).toEqual([changed.cart!.hash]);
    expect(await f.wallet(userId)).toBe(10_000);
    // The same address again changes nothing: the cart as shown is placed.
    const placed = await f.turn(token, {
      confirm: changed.cart!.hash,
      conversation_id: turn.conversation_id,
      delivery_address: ADDRESS,
    });
    expect(placed.status).toBe('order_placed');
    expect(await f.wallet(userId)).toBe(10_000 - changed.cart!.totalCents);
    await f.expectSound();
  });

  it('a multi-cart confirm places each cart on its own', async () => {
    const { token, userId } = await f.shopper(3_000);
    const turn = await f.turn(token, {
      ask: 'an espresso from coffee and a notebook from retail and headphones from retail',
    });
    const [coffee, retail] = ['coffee', 'retail'].map((m) => turn.carts.find((c) => c.merchant === m)!);
    const partial = await f.turn(token, {
      confirm: [coffee!.hash, retail!.hash],
      conversation_id: turn.conversation_id,
    });
    expect(partial.status).toBe('partially_placed');
    expect(partial.placements).toEqual([
      {
        merchant: 'coffee',
        hash: coffee!.hash,
        status: 'placed',
        order_id: expect.stringMatching(/^ord_/),
        decline_code: null,
        charge_status: 'settled',
      },
      {
        merchant: 'retail',
        hash: retail!.hash,
        status: 'declined',
        order_id: null,
        decline_code: 'insufficient_funds',
        charge_status: 'none',
      },
    ]);
    expect(await f.wallet(userId)).toBe(3_000 - coffee!.totalCents);
    await f.fund(userId, 10_000);
    const rest = await f.turn(token, { confirm: [retail!.hash], conversation_id: turn.conversation_id });
    expect(rest.status).toBe('order_placed');
    expect(rest.placements).toHaveLength(1);
    // Sent again, the same answer: its placements listed, the order charged once.
    const again = await f.turn(token, { confirm: [retail!.hash], conversation_id: turn.conversation_id });
    expect(again).toMatchObject({
      status: 'order_placed',
      order_id: rest.order_id,
      placements: rest.placements,
    });
    expect(await f.wallet(userId)).toBe(13_000 - coffee!.totalCents - retail!.totalCents);
    await f.expectSound();
  });

  it('a turn still running answers turn_in_progress at once and changes nothing', async () => {
    const { token } = await f.shopper();
    const turn = await f.turn(token, { ask: 'a latte from coffee' });
    const now = f.t.clock.now();
    await takeTurn(f.t.ctx.db, turn.conversation_id, now, now - 1, [turn.cart!.hash]);
    const busy = await f.turn(token, { ask: 'add a muffin', conversation_id: turn.conversation_id });
    expect(busy).toMatchObject({ status: 'needs_input', error_code: 'turn_in_progress' });
    expect(busy.cart!.hash).toBe(turn.cart!.hash);
    const same = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
    expect(same).toMatchObject({ decline_code: 'in_progress', charge_status: 'confirming' });
    const read = (await f.t.call('GET', `/buy/conversations/${turn.conversation_id}`, { token })).json();
    expect(read.turn_in_progress).toBe(true);
    // A turn whose process died is taken over after the turn timeout.
    f.t.clock.advance(2 * 60 * 1000 + 1);
    const later = await f.turn(token, { ask: 'add a muffin', conversation_id: turn.conversation_id });
    expect(later.error_code).toBeNull();
    expect(later.cart!.items).toHaveLength(2);
    await f.renewTokens();
  });

  it('production money is never spent at a sandbox merchant', async () => {
    const connected = await (await import('../helpers/fixtures.ts')).connectUser(
      f.t,
      f.production,
      { email: 'prod.buyer@example.com' },
      { production: true },
    );
    const turn = await f.turn(connected.accessToken, { ask: 'a latte from coffee' });
    const refused = await f.turn(connected.accessToken, {
      confirm: turn.cart!.hash,
      conversation_id: turn.conversation_id,
    });
    expect(refused).toMatchObject({
      status: 'declined',
      decline_code: 'sandbox_mode',
      charge_status: 'none',
    });
  });

  it('replays a POST /buy sent again with the same Idempotency-Key', async () => {
    const { token } = await f.shopper();
    const headers = { 'idempotency-key': 'buy-once-1' };
    const first = await f.buy(token, { ask: 'a latte from coffee' }, headers);
    const second = await f.buy(token, { ask: 'a latte from coffee' }, headers);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().conversation_id).toBe(first.json().conversation_id);
  });

  it("never replays one user's answer to another user of the same client", async () => {
    const [first, second] = [await f.shopper(), await f.shopper()];
    const headers = { 'idempotency-key': 'shared-key-1' };
    const mine = await f.buy(first.token, { ask: 'a latte from coffee' }, headers);
    const theirs = await f.buy(second.token, { ask: 'a latte from coffee' }, headers);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().conversation_id).not.toBe(mine.json().conversation_id);
  });

  it("answers a suspended organization's users 403 access_denied, and moves nothing", async () => {
    const { userId, token } = await f.shopper(5_000);
    const turn = await f.turn(token, { ask: 'a latte from coffee' });
    const cardholder = await f.t.call('POST', '/api/v1/cardholders', {
      token: f.org.sandbox.api_key,
      body: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        date_of_birth: '1990-12-10',
        phone_number: '+14155550198',
      },
    });
    const buyToken = (
      await f.t.call('POST', `/api/v1/cardholders/${cardholder.json().id}/buy_token`, {
        token: f.org.sandbox.api_key,
      })
    ).json().token as string;
    await f.t.ctx.orgs.updateOrganization(f.org.organization_id, { status: 'suspended' });
    try {
      f.t.clock.advance(60_000); // past any cached authentication
      expectError(await f.buy(token, { ask: 'a latte from coffee' }), 403, 'access_denied');
      expectError(
        await f.buy(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id }),
        403,
        'access_denied',
      );
      expectError(await f.t.call('GET', '/buy/merchants', { token }), 403, 'access_denied');
      expectError(await f.buy(buyToken, { ask: 'a latte from coffee' }), 403, 'access_denied');
    } finally {
      await f.t.ctx.orgs.updateOrganization(f.org.organization_id, { status: 'active' });
    }
    expect(await f.wallet(userId)).toBe(5_000);
    await f.renewTokens();
  });
});

describe('merchants and buy tokens', () => {
  it('lists the merchants with their market, protocol and mode', async () => {
    const { token } = await f.shopper();
    const response = await f.t.call('GET', '/buy/merchants', { token });
    expect(response.statusCode).toBe(200);
    const list = response.json();
    expect(list.object).toBe('list');
    expect(list.data.map((m: { slug: string }) => m.slug)).toEqual(
      expect.arrayContaining(['retail', 'grocery', 'coffee']),
    );
    expect(list.data[0]).toEqual({
      slug: 'retail',
      name: 'Sandbox Retail',
      market: { countries: ['US'], currency: 'usd' },
      mcc: '5399',
      country: 'US',
      protocol: 'sandbox',
      sandbox: true,
    });
  });

  it('a cardholder buy token acts for the cardholder; it is stored as a digest', async () => {
    const created = await f.t.call('POST', '/api/v1/cardholders', {
      token: f.org.sandbox.api_key,
      body: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        date_of_birth: '1990-12-09',
        phone_number: '+14155550199',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const minted = await f.t.call('POST', `/api/v1/cardholders/${created.json().id}/buy_token`, {
      token: f.org.sandbox.api_key,
    });
    expect(minted.statusCode, minted.body).toBe(201);
    const { object, token, expires_at } = minted.json();
    expect(object).toBe('buy_token');
    expect(Date.parse(expires_at) - f.t.clock.now()).toBe(3600 * 1000);
    const rows = await f.t.ctx.db.selectFrom('buy_tokens').select('token_digest').execute();
    expect(rows.map((r) => r.token_digest)).not.toContain(token);
    const turn = await f.turn(token, { ask: 'a latte from coffee' });
    expect(turn.cart!.merchant).toBe('coffee');
    // Not linked to a user with a wallet: nothing to pay with.
    const confirm = await f.turn(token, { confirm: turn.cart!.hash, conversation_id: turn.conversation_id });
    expect(confirm.decline_code).toBe('wallet_required');
    expectError(
      await f.t.call('POST', '/api/v1/cardholders/ch_nope/buy_token', { token: f.org.sandbox.api_key }),
      404,
      'not_found',
    );
    expectError(
      await f.t.call('POST', `/api/v1/cardholders/${created.json().id}/buy_token`, { token: f.sandbox }),
      401,
      'unauthorized',
    );
    f.t.clock.advance(3600 * 1000);
    expectError(await f.buy(token, { ask: 'a latte' }), 401, 'unauthorized');
    await f.renewTokens();
  });
});
