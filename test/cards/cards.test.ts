import { describe, expect, it } from 'vitest';
import { isLuhnValid } from '../../src/domains/cards/numbers.ts';
import { connectedUser } from '../helpers/fixtures.ts';
import { expectError, startCards, useCards } from './helpers.ts';

const f = useCards();

const CARD_KEYS = [
  'balance_cents',
  'cardholder_id',
  'closed_reason',
  'created_at',
  'expiry',
  'id',
  'last4',
  'object',
  'spend_limit_cents',
  'spending_controls',
  'status',
  'type',
  'user_id',
];

describe('wallets', () => {
  it('funds a wallet in test mode and reports it', async () => {
    const userId = await f.connectedUser();
    const funded = await f.fund(userId, 2_500);
    expect(funded.statusCode).toBe(200);
    expect(funded.json()).toEqual({
      object: 'wallet',
      user_id: userId,
      balance_cents: 2_500,
      pending_cents: 0,
      currency: 'usd',
      test_mode: true,
    });
    expect(await f.wallet(userId)).toBe(2_500);
  });

  it('refuses simulated funding with a live token, unknown users and bad amounts', async () => {
    const userId = await f.connectedUser();
    const live = await f.t.call('POST', '/api/v2/simulate/wallet_funding', {
      token: f.production,
      body: { user_id: userId, amount_cents: 100 },
    });
    expectError(live, 403, 'sandbox_only');
    expectError(await f.fund('usr_unknown', 100), 404, 'not_found');
    for (const amount of [0, -1, 1.5, '100', null]) {
      const response = await f.t.call('POST', '/api/v2/simulate/wallet_funding', {
        token: f.sandbox,
        body: { user_id: userId, amount_cents: amount },
      });
      expectError(response, 400, 'invalid_request');
    }
    expect(await f.wallet(userId)).toBe(0);
  });

  it('answers 404 for a user of another mode or organization', async () => {
    const userId = await f.connectedUser();
    expectError(
      await f.t.call('GET', `/api/v2/users/${userId}/wallet`, { token: f.production }),
      404,
      'not_found',
    );
    const other = await f.t.createOrg('Other');
    const otherToken = await f.t.platformToken(other.sandbox);
    expectError(
      await f.t.call('GET', `/api/v2/users/${userId}/wallet`, { token: otherToken }),
      404,
      'not_found',
    );
  });
});

describe('issuing', () => {
  it('moves the amount from the wallet to a new card and fires card.created', async () => {
    const userId = await f.approvedUser(10_000);
    const card = await f.createCard(userId, 4_000, 'multi_use');
    expect(Object.keys(card).sort()).toEqual(CARD_KEYS);
    expect(card).toMatchObject({
      object: 'card',
      user_id: userId,
      type: 'multi_use',
      status: 'ACTIVE',
      spend_limit_cents: 4_000,
      balance_cents: 4_000,
      closed_reason: null,
    });
    expect(card.id).toMatch(/^card_/);
    expect(card.cardholder_id).toMatch(/^ch_/);
    expect(card.last4).toMatch(/^\d{4}$/);
    expect(card.expiry).toMatch(/^(0[1-9]|1[0-2])\/\d{2}$/);
    expect(await f.wallet(userId)).toBe(6_000);
    const [created] = (await f.events('card.created')).filter((e) => e.id === card.id);
    expect(created).toEqual({
      id: card.id,
      cardholder_id: card.cardholder_id,
      last4: card.last4,
      expiry: card.expiry,
      spend_limit_cents: 4_000,
      balance_cents: 4_000,
      status: 'ACTIVE',
      created_at: card.created_at,
      transfer_id: null,
    });
  });

  it('refuses what the wallet cannot cover, unapproved and unknown users, and amounts out of bounds', async () => {
    const userId = await f.approvedUser(1_000);
    const post = (body: unknown) => f.t.call('POST', '/api/v2/cards', { token: f.sandbox, body });
    expectError(
      await post({ user_id: userId, amount_cents: 1_001, type: 'single_use' }),
      402,
      'insufficient_funds',
    );
    const unverified = await f.connectedUser();
    await f.fund(unverified, 1_000);
    expectError(
      await post({ user_id: unverified, amount_cents: 100, type: 'single_use' }),
      422,
      'kyc_required',
    );
    expectError(
      await post({ user_id: 'usr_nobody', amount_cents: 100, type: 'single_use' }),
      404,
      'not_found',
    );
    expectError(
      await post({ user_id: userId, amount_cents: 50_001, type: 'multi_use' }),
      400,
      'invalid_request',
    );
    for (const body of [
      { user_id: userId, amount_cents: 0, type: 'single_use' },
      { user_id: userId, amount_cents: 10, type: 'debit' },
      { user_id: userId, amount_cents: 10 },
      { user_id: userId, amount_cents: 10, type: 'single_use', extra: true },
    ]) {
      expectError(await post(body), 400, 'invalid_request');
    }
    const misspelt = await post({ user_id: userId, amount_cents: 10, type: 'debit' });
    expect(misspelt.json().error.field_errors).toEqual({ type: 'must be one of: single_use, multi_use' });
    expect(await f.wallet(userId)).toBe(1_000);
    const live = await f.t.call('POST', '/api/v2/cards', {
      token: f.production,
      body: { user_id: userId, amount_cents: 100, type: 'single_use' },
    });
    expectError(live, 404, 'not_found');
  });

  it('honours the configured bounds', async () => {
    const g = await startCards({ CARD_MIN_AMOUNT_CENTS: '500', CARD_MAX_AMOUNT_CENTS: '2000' });
    try {
      const userId = await g.approvedUser(10_000);
      const post = (amount: number) =>
        g.t.call('POST', '/api/v2/cards', {
          token: g.sandbox,
          body: { user_id: userId, amount_cents: amount, type: 'multi_use' },
        });
      expectError(await post(499), 400, 'invalid_request');
      expectError(await post(2_001), 400, 'invalid_request');
      expect((await post(2_000)).statusCode).toBe(201);
    } finally {
      await g.close();
    }
  });

  it('gets and lists cards with filters and pagination, newest first, and 404s across scopes', async () => {
    const userId = await f.approvedUser(10_000);
    const cards = [];
    for (let i = 0; i < 3; i++) {
      cards.push(await f.createCard(userId, 100 + i));
      f.t.clock.advance(1_000);
    }
    const got = await f.t.call('GET', `/api/v2/cards/${cards[0]?.id}`, { token: f.sandbox });
    expect(got.json()).toEqual(cards[0]);
    const page1 = (
      await f.t.call('GET', `/api/v2/cards?user_id=${userId}&limit=2`, { token: f.sandbox })
    ).json();
    expect(page1).toMatchObject({ object: 'list', has_more: true });
    expect(page1.data.map((c: { id: string }) => c.id)).toEqual([cards[2]?.id, cards[1]?.id]);
    const page2 = (
      await f.t.call('GET', `/api/v2/cards?user_id=${userId}&limit=2&starting_after=${cards[1]?.id}`, {
        token: f.sandbox,
      })
    ).json();
    expect(page2).toMatchObject({ has_more: false, data: [{ id: cards[0]?.id }] });
    await f.t.call('POST', `/api/v2/cards/${cards[0]?.id}/close`, { token: f.sandbox });
    const closed = (
      await f.t.call('GET', `/api/v2/cards?user_id=${userId}&status=CLOSED`, { token: f.sandbox })
    ).json();
    expect(closed.data.map((c: { id: string }) => c.id)).toEqual([cards[0]?.id]);
    expectError(
      await f.t.call('GET', '/api/v2/cards?status=open', { token: f.sandbox }),
      400,
      'invalid_request',
    );
    expectError(
      await f.t.call('GET', '/api/v2/cards?limit=101', { token: f.sandbox }),
      400,
      'invalid_request',
    );
    expectError(
      await f.t.call('GET', `/api/v2/cards/${cards[1]?.id}`, { token: f.production }),
      404,
      'not_found',
    );
    expectError(await f.t.call('GET', '/api/v2/cards/card_nope', { token: f.sandbox }), 404, 'not_found');
    const other = await f.t.platformToken((await f.t.createOrg('Other')).sandbox);
    expectError(await f.t.call('GET', `/api/v2/cards/${cards[1]?.id}`, { token: other }), 404, 'not_found');
    expectError(
      await f.t.call('POST', `/api/v2/cards/${cards[1]?.id}/close`, { token: other }),
      404,
      'not_found',
    );
    expect((await f.t.call('GET', `/api/v2/cards?user_id=${userId}`, { token: other })).json().data).toEqual(
      [],
    );
  });
});

describe('lifecycle', () => {
  it('closes a card once, returns its balance to the wallet, and answers 200 again', async () => {
    const userId = await f.approvedUser(3_000);
    const card = await f.createCard(userId, 2_000);
    const first = await f.t.call('POST', `/api/v2/cards/${card.id}/close`, { token: f.sandbox });
    expect(first.statusCode).toBe(200);
    // Spec §2: the close response is `{object: 'card', id, status: 'closed'}` (lower case there).
    expect(first.json()).toMatchObject({
      object: 'card',
      id: card.id,
      status: 'closed',
      closed_reason: 'manual',
      balance_cents: 0,
    });
    expect((await f.t.call('GET', `/api/v2/cards/${card.id}`, { token: f.sandbox })).json().status).toBe(
      'CLOSED',
    );
    expect(await f.wallet(userId)).toBe(3_000);
    const again = await f.t.call('POST', `/api/v2/cards/${card.id}/close`, { token: f.sandbox });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'closed' });
    const closedEvents = (await f.events('card.closed')).filter((e) => e.id === card.id);
    expect(closedEvents).toEqual([
      {
        id: card.id,
        cardholder_id: card.cardholder_id,
        last4: card.last4,
        status: 'CLOSED',
        reason: 'manual',
      },
    ]);
    for (const action of ['pause', 'resume']) {
      expectError(
        await f.t.call('POST', `/api/v2/cards/${card.id}/${action}`, { token: f.sandbox }),
        409,
        'card_closed',
      );
    }
    expectError(
      await f.t.call('PATCH', `/api/v2/cards/${card.id}`, {
        token: f.sandbox,
        body: { spend_limit_cents: 10 },
      }),
      409,
      'card_closed',
    );
    expect(await f.wallet(userId)).toBe(3_000);
  });

  it('pauses and resumes with card.updated', async () => {
    const userId = await f.approvedUser(1_000);
    const card = await f.createCard(userId, 1_000);
    const paused = await f.t.call('POST', `/api/v2/cards/${card.id}/pause`, { token: f.sandbox });
    expect(paused.json()).toMatchObject({ status: 'PAUSED' });
    f.t.clock.advance(1_000);
    const resumed = await f.t.call('POST', `/api/v2/cards/${card.id}/resume`, { token: f.sandbox });
    expect(resumed.json()).toMatchObject({ status: 'ACTIVE' });
    const updates = (await f.events('card.updated')).filter((e) => e.id === card.id);
    expect(updates.map((e) => e.status)).toEqual(['PAUSED', 'ACTIVE']);
    expect(updates[0]).toEqual({
      id: card.id,
      cardholder_id: card.cardholder_id,
      last4: card.last4,
      status: 'PAUSED',
      balance_cents: 1_000,
      spend_limit_cents: 1_000,
    });
  });

  it('takes an empty body sent as JSON on the actions that take none, and refuses one where a body is needed', async () => {
    const userId = await f.approvedUser(1_000);
    const card = await f.createCard(userId, 1_000);
    const asJson = (path: string) =>
      f.t.request({
        method: 'POST',
        url: path,
        headers: { authorization: `Bearer ${f.sandbox}`, 'content-type': 'application/json' },
        payload: '',
      });
    for (const [action, status] of [
      ['pause', 'PAUSED'],
      ['resume', 'ACTIVE'],
      ['close', 'closed'],
    ]) {
      const response = await asJson(`/api/v2/cards/${card.id}/${action}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().status).toBe(status);
    }
    expectError(await asJson('/api/v2/cards'), 400, 'invalid_request');
  });

  it('raises and lowers a multi-use spend limit through the wallet', async () => {
    const userId = await f.approvedUser(5_000);
    const card = await f.createCard(userId, 1_000);
    const patch = (cents: unknown, id = card.id) =>
      f.t.call('PATCH', `/api/v2/cards/${id}`, { token: f.sandbox, body: { spend_limit_cents: cents } });
    expect((await patch(3_000)).json()).toMatchObject({ spend_limit_cents: 3_000, balance_cents: 3_000 });
    expect(await f.wallet(userId)).toBe(2_000);
    expect((await patch(2_500)).json()).toMatchObject({ spend_limit_cents: 2_500, balance_cents: 2_500 });
    expect(await f.wallet(userId)).toBe(2_500);
    expectError(await patch(6_001), 402, 'insufficient_funds');
    await f.authorize(card.id as string, 2_000);
    expectError(await patch(1_000), 409, 'spend_limit_below_spent');
    for (const bad of [0, -5, 1.5, 'x', 50_001]) expectError(await patch(bad), 400, 'invalid_request');
    const single = await f.createCard(userId, 100, 'single_use');
    expectError(await patch(200, single.id as string), 409, 'card_not_multi_use');
    await f.expectSound();
  });

  it('reveals the number with no-store, records each reveal, and keeps it out of everything else', async () => {
    const userId = await f.approvedUser(1_000);
    const card = await f.createCard(userId, 500);
    const response = await f.t.call('GET', `/api/v2/cards/${card.id}/details`, { token: f.sandbox });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const details = response.json();
    expect(details).toMatchObject({
      object: 'card_details',
      id: card.id,
      expiry: card.expiry,
      last4: card.last4,
    });
    expect(isLuhnValid(details.number)).toBe(true);
    expect(details.number.endsWith(card.last4 as string)).toBe(true);
    expect(details.cvv).toMatch(/^\d{3}$/);
    const reveals = await f.t.ctx.db
      .selectFrom('card_detail_reveals')
      .selectAll()
      .where('card_id', '=', card.id as string)
      .execute();
    expect(reveals).toHaveLength(1);
    const stored = await f.t.ctx.db
      .selectFrom('cards')
      .selectAll()
      .where('id', '=', card.id as string)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(details.number);
    const events = await f.t.ctx.db.selectFrom('events').select('data').execute();
    expect(JSON.stringify(events)).not.toContain(details.number);
    const list = await f.t.call('GET', `/api/v2/cards?user_id=${userId}`, { token: f.sandbox });
    expect(list.body).not.toContain(details.number);
    expect(f.t.logs.text).not.toContain(details.number);
  });
});

describe('production card numbers', () => {
  it('are revealed only where the operator enabled it', async () => {
    // A live user, approved and funded as a review and a deposit would (neither runs in a test).
    const userId = await connectedUser(f.t, f.production, { prefix: 'live', production: true });
    expect((await f.t.call('GET', `/api/v2/kyc?user_id=${userId}`, { token: f.production })).statusCode).toBe(
      200,
    );
    await f.t.ctx.db
      .updateTable('kyc_verifications')
      .set({ status: 'approved' })
      .where('user_id', '=', userId)
      .execute();
    const scope = { organizationId: f.org.organization_id, livemode: true };
    const source = await f.t.ctx.ledger.account(f.t.ctx.db, {
      ...scope,
      kind: 'funding_source',
      ownerId: scope.organizationId,
    });
    const wallet = await f.t.ctx.ledger.account(f.t.ctx.db, {
      ...scope,
      kind: 'user_wallet',
      ownerId: userId,
    });
    await f.t.ctx.ledger.move([
      {
        type: 'posted',
        id: 'live_deposit',
        debitAccountId: source.id,
        creditAccountId: wallet.id,
        amount: 1_000,
        code: 'deposit',
      },
    ]);
    const created = await f.t.call('POST', '/api/v2/cards', {
      token: f.production,
      body: { user_id: userId, amount_cents: 400, type: 'single_use' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const details = `/api/v2/cards/${created.json().id}/details`;
    expectError(await f.t.call('GET', details, { token: f.production }), 403, 'card_details_unavailable');
    await f.t.ctx.cards.setLiveCardDetails(f.org.organization_id, true);
    const revealed = await f.t.call('GET', details, { token: f.production });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.headers['cache-control']).toBe('no-store');
    expectError(await f.t.call('GET', details, { token: f.sandbox }), 404, 'not_found');
  });
});

describe('retries', () => {
  it('issue one card and move money once for a retried Idempotency-Key, also in parallel', async () => {
    const userId = await f.approvedUser(5_000);
    const issue = () =>
      f.t.call('POST', '/api/v2/cards', {
        token: f.sandbox,
        body: { user_id: userId, amount_cents: 1_000, type: 'multi_use' },
        headers: { 'idempotency-key': 'issue-once' },
      });
    const answers = await Promise.all([issue(), issue(), issue()]);
    const again = await issue();
    const created = [...answers, again].filter((r) => r.statusCode === 201);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await f.wallet(userId)).toBe(4_000);
    const cards = (await f.t.call('GET', `/api/v2/cards?user_id=${userId}`, { token: f.sandbox })).json()
      .data;
    expect(cards).toHaveLength(1);
    await f.expectSound();
  });
});

describe('retries of every money move', () => {
  it('act once per Idempotency-Key: the retry replays the answer and moves nothing more', async () => {
    const userId = await f.approvedUser(10_000);
    const card = await f.createCard(userId, 3_000);
    const toClear = await f.authorize(card.id as string, 100);
    const toVoid = await f.authorize(card.id as string, 200);
    const toClose = await f.createCard(userId, 1_000);
    const upstream = await f.createCard(userId, 500);
    const moves: [string, string, unknown?][] = [
      ['POST', '/api/v2/simulate/wallet_funding', { user_id: userId, amount_cents: 7 }],
      ['POST', '/api/v2/simulate/authorize', { card_id: card.id, amount_cents: 5, merchant: 'X' }],
      ['POST', '/api/v2/simulate/clear', { transaction_id: toClear.id, amount_cents: 50 }],
      ['POST', '/api/v2/simulate/void', { transaction_id: toVoid.id, amount_cents: 10 }],
      ['PATCH', `/api/v2/cards/${card.id}`, { spend_limit_cents: 3_500 }],
      ['POST', `/api/v2/cards/${toClose.id}/close`],
      ['POST', '/api/v2/simulate/provider_close', { card_id: upstream.id }],
    ];
    for (const [method, url, body] of moves) {
      const send = () =>
        f.t.call(method, url, {
          token: f.sandbox,
          ...(body ? { body } : {}),
          headers: { 'idempotency-key': `money-${method}-${url}` },
        });
      const first = await send();
      expect(first.statusCode, `${method} ${url} ${first.body}`).toBe(200);
      const again = await send();
      expect(again.headers['idempotent-replayed'], url).toBe('true');
      expect(again.json()).toEqual(first.json());
    }
    // 10,000 less three cards (4,500), plus 7 funded, less 500 raised, plus 1,000 and 500 closed.
    expect(await f.wallet(userId)).toBe(6_507);
    const card1 = (await f.t.call('GET', `/api/v2/cards/${card.id}`, { token: f.sandbox })).json();
    // 3,500 limit less 50 settled, 190 still held (200 voided by 10), 5 authorized.
    expect(card1.balance_cents).toBe(3_500 - 50 - 190 - 5);
    const txns = (
      await f.t.call('GET', `/api/v2/transactions?card_id=${card.id}`, { token: f.sandbox })
    ).json().data;
    expect(txns).toHaveLength(3);
    await f.expectSound();
  });
});

describe('scopes', () => {
  it('answers 404 (never 403) on every card, transaction and wallet route across organizations and modes, and 403 sandbox_only on every simulator with a live token', async () => {
    const userId = await f.approvedUser(5_000);
    const card = await f.createCard(userId, 3_000);
    const txn = await f.authorize(card.id as string, 100);
    const otherSandbox = await f.t.platformToken((await f.t.createOrg('Other')).sandbox);
    const otherLive = await f.t.platformToken((await f.t.createOrg('Other live')).production);
    const owned: [string, string, unknown?][] = [
      ['GET', `/api/v2/cards/${card.id}`],
      ['GET', `/api/v2/cards/${card.id}/details`],
      ['POST', `/api/v2/cards/${card.id}/pause`],
      ['POST', `/api/v2/cards/${card.id}/resume`],
      ['PATCH', `/api/v2/cards/${card.id}`, { spend_limit_cents: 4_000 }],
      ['POST', `/api/v2/cards/${card.id}/close`],
      ['GET', `/api/v2/transactions/${txn.id}`],
      ['GET', `/api/v2/users/${userId}/wallet`],
      ['POST', '/api/v2/cards', { user_id: userId, amount_cents: 100, type: 'multi_use' }],
    ];
    const simulators: [string, unknown][] = [
      ['authorize', { card_id: card.id, amount_cents: 1, merchant: 'X' }],
      ['clear', { transaction_id: txn.id }],
      ['void', { transaction_id: txn.id }],
      ['provider_close', { card_id: card.id }],
      ['wallet_funding', { user_id: userId, amount_cents: 1 }],
    ];
    for (const token of [f.production, otherSandbox, otherLive]) {
      for (const [method, url, body] of owned) {
        expectError(await f.t.call(method, url, { token, ...(body ? { body } : {}) }), 404, 'not_found');
      }
      for (const [action, body] of simulators) {
        const response = await f.t.call('POST', `/api/v2/simulate/${action}`, { token, body });
        if (token === otherSandbox) expectError(response, 404, 'not_found');
        else expectError(response, 403, 'sandbox_only');
        // A live token is refused before its body is read.
        if (token !== otherSandbox) {
          for (const bad of [{}, { amount_cents: 'many' }]) {
            const refused = await f.t.call('POST', `/api/v2/simulate/${action}`, { token, body: bad });
            expectError(refused, 403, 'sandbox_only');
          }
        }
      }
      for (const list of [`/api/v2/cards?user_id=${userId}`, `/api/v2/transactions?card_id=${card.id}`]) {
        expect((await f.t.call('GET', list, { token })).json()).toEqual({
          object: 'list',
          data: [],
          has_more: false,
        });
      }
    }
    // Nothing moved: the card is as it was, the hold still open, the wallet untouched.
    expect((await f.t.call('GET', `/api/v2/cards/${card.id}`, { token: f.sandbox })).json()).toMatchObject({
      status: 'ACTIVE',
      balance_cents: 2_900,
      spend_limit_cents: 3_000,
    });
    expect(
      (await f.t.call('GET', `/api/v2/transactions/${txn.id}`, { token: f.sandbox })).json().status,
    ).toBe('PENDING');
    expect(await f.wallet(userId)).toBe(2_000);
    await f.expectSound();
  });

  it('answers 404 for an empty, malformed or foreign-prefix path id on every money route, with a valid body', async () => {
    const userId = await f.approvedUser(1_000);
    const card = await f.createCard(userId, 500);
    const apiKey = f.org.sandbox.api_key;
    const cardholder = (await f.t.call('GET', `/api/v2/cards/${card.id}`, { token: f.sandbox })).json()
      .cardholder_id as string;
    for (const id of ['', '%20', 'x', 'card_', 'card_!!', `${card.id}x`, userId, cardholder, 'txn_abc']) {
      const routes: [string, string, string, unknown?][] = [
        ['GET', `/api/v2/cards/${id}/details`, f.sandbox],
        ['POST', `/api/v2/cards/${id}/pause`, f.sandbox],
        ['POST', `/api/v2/cards/${id}/resume`, f.sandbox],
        ['POST', `/api/v2/cards/${id}/close`, f.sandbox],
        ['GET', `/api/v2/users/${id}/wallet`, f.sandbox],
        ['GET', `/api/v1/cardholders/${id}/payment-method/status`, apiKey],
        ['PATCH', `/api/v1/cardholders/${id}`, apiKey, { last_name: 'X' }],
        ['PATCH', `/orgs/${id}/revenue-config`, apiKey, { rewardShareBps: 1 }],
      ];
      // An empty last segment is the collection itself (a list or a create), so only ids in the middle.
      if (id !== '') {
        routes.push(['GET', `/api/v2/cards/${id}`, f.sandbox]);
        routes.push(['PATCH', `/api/v2/cards/${id}`, f.sandbox, { spend_limit_cents: 600 }]);
        routes.push(['GET', `/api/v2/transactions/${id}`, f.sandbox]);
        routes.push(['GET', `/api/v1/cardholders/${id}`, apiKey]);
      }
      for (const [method, url, token, body] of routes) {
        // The one route each real id belongs to.
        if (id === cardholder && url.startsWith('/api/v1/cardholders')) continue;
        if (id === userId && url.startsWith('/api/v2/users/')) continue;
        const response = await f.t.call(method, url, { token, ...(body ? { body } : {}) });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expectError(response, 404, 'not_found');
      }
    }
    expect((await f.t.call('GET', `/api/v2/cards/${card.id}`, { token: f.sandbox })).json()).toEqual(card);
    expect(await f.wallet(userId)).toBe(500);
  });
});
