import { describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/core/clock.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { quiet } from '../helpers/fixtures.ts';
import { expectError, useFunding } from './helpers.ts';

/*
 * The company-funded card flow (spec §3, §4 collection_succeeded, §6 card_flow.*, transfer.*):
 * every step once, in the spec's event order, every failure with its reason and the reservation
 * released, netting of released funds, fees, and the release of a closed card's balance.
 */

const f = useFunding();

const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('the company-funded card flow', () => {
  it('reserves the pool, then approves, initiates, completes and issues the card, in the spec’s order', async () => {
    await f.fundPool(100_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 5000, { external_user_id: 'customer-42', type: 'single_use' });
    expect(started).toMatchObject({
      object: 'card_flow',
      transfer_id: expect.stringMatching(/^tr_/),
      status: 'started',
      amount_cents: 5000,
      transfer_cents: 5000,
      fee_cents: 0,
      ack_required: false,
      ack_deadline: null,
      card_id: null,
      test_mode: true,
    });
    // Reserved at once: the pool can no longer spend it.
    expect(await f.pool()).toMatchObject({ balance_cents: 95_000, reserved_cents: 5000 });

    const done = await f.drive(started.transfer_id);
    expect(done).toMatchObject({ status: 'card_created', approved_via: 'auto', tx_hash: null });
    const events = await f.flowEvents(started.transfer_id);
    expect(types(events)).toEqual([
      'card_flow.started',
      'transfer.approved',
      'transfer.initiated',
      'transfer.completed',
      'card.created',
    ]);
    const [flowStarted, approved, initiated, completed, created] = events.map((e) => e.data);
    expect(flowStarted).toEqual({
      transfer_id: started.transfer_id,
      cardholder_id: started.cardholder_id,
      external_user_id: 'customer-42',
      amount_cents: 5000,
      fee_cents: 0,
      transfer_cents: 5000,
      ack_required: false,
      ack_deadline: null,
      client_id: f.org.sandbox.client_id,
    });
    expect(approved).toEqual({ transfer_id: started.transfer_id, approved_via: 'auto' });
    expect(initiated).toMatchObject({ transfer_id: started.transfer_id, tx_hash: null });
    expect(completed).toEqual({
      transfer_id: started.transfer_id,
      cardholder_id: started.cardholder_id,
      amount_cents: 5000,
      transferred_cents: 5000,
      tx_hash: null,
    });
    expect(created).toMatchObject({
      id: done.card_id,
      transfer_id: started.transfer_id,
      balance_cents: 5000,
      spend_limit_cents: 5000,
    });

    const card = await f.t.call('GET', `/api/v2/cards/${done.card_id}`, { token: f.sandbox });
    expect(card.json()).toMatchObject({ type: 'single_use', balance_cents: 5000, user_id: userId });
    // The pool paid; the user's wallet only passed the money on to the card.
    expect(await f.pool()).toMatchObject({ balance_cents: 95_000, reserved_cents: 0 });
    expect(await f.wallet(userId)).toBe(0);
    // Nothing more is due: a further pass changes nothing.
    expect(await f.t.ctx.funding.flows.takeStep(started.transfer_id)).toBe(false);
    expect(await f.flowEvents(started.transfer_id)).toHaveLength(5);
  });

  it('is advanced by the worker', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 2000);
    const worker = new Worker(f.t.ctx, quiet);
    await worker.runOnce();
    expect((await f.getFlow(started.transfer_id)).json().status).toBe('card_created');
  });

  it('waits for collection_succeeded (v1 API key) when ack_required, then approves via the API', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 3000, { ack_required: true });
    expect(started).toMatchObject({ status: 'awaiting_collection', ack_required: true });
    expect(Date.parse(started.ack_deadline ?? '') - f.t.clock.now()).toBe(15 * MINUTE);
    expect((await f.flowEvents(started.transfer_id))[0]?.data).toMatchObject({
      ack_required: true,
      ack_deadline: started.ack_deadline,
    });
    // The worker does not approve it by itself.
    expect((await f.drive(started.transfer_id)).status).toBe('awaiting_collection');

    const acked = await f.ack(started.transfer_id, 'collection_succeeded');
    expect(acked.statusCode, acked.body).toBe(200);
    expect(acked.json()).toMatchObject({ status: 'approved', approved_via: 'api' });
    // A retried acknowledgement answers the same; it approves nothing twice.
    const again = await f.ack(started.transfer_id, 'collection_succeeded');
    expect(again.statusCode).toBe(200);
    expect((await f.drive(started.transfer_id)).status).toBe('card_created');
    const events = await f.flowEvents(started.transfer_id);
    expect(types(events)).toEqual([
      'card_flow.started',
      'transfer.approved',
      'transfer.initiated',
      'transfer.completed',
      'card.created',
    ]);
    expect(events[1]?.data.approved_via).toBe('api');
    // Once approved, it can no longer be denied.
    expectError(await f.ack(started.transfer_id, 'collection_failed'), 409, 'transfer_not_awaiting_ack');
  });

  it('fails with ack_denied on collection_failed and releases the reservation', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 4000, { ack_required: true });
    const denied = await f.ack(started.transfer_id, 'collection_failed');
    expect(denied.statusCode, denied.body).toBe(200);
    expect(denied.json()).toMatchObject({ status: 'failed', failure_reason: 'ack_denied' });
    expect(await f.pool()).toMatchObject({ balance_cents: 10_000, reserved_cents: 0 });
    expect(types(await f.flowEvents(started.transfer_id))).toEqual(['card_flow.started', 'transfer.failed']);
    expect((await f.flowEvents(started.transfer_id))[1]?.data).toEqual({
      transfer_id: started.transfer_id,
      cardholder_id: started.cardholder_id,
      amount_cents: 4000,
      reason: 'ack_denied',
    });
    expectError(await f.ack(started.transfer_id, 'collection_succeeded'), 409, 'transfer_not_awaiting_ack');
  });

  it('fails with ack_timeout when the deadline passes, swept by the worker or met by a late ack', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const swept = await f.flow(userId, 1000, { ack_required: true });
    const late = await f.flow(userId, 2000, { ack_required: true });
    f.t.clock.set(Date.parse(swept.ack_deadline ?? '') - 1);
    expect(await f.t.ctx.funding.flows.takeStep(swept.transfer_id)).toBe(false);
    f.t.clock.set(Date.parse(late.ack_deadline ?? ''));
    // A late acknowledgement fails the flow, and says so.
    expectError(await f.ack(late.transfer_id, 'collection_succeeded'), 409, 'ack_deadline_passed');
    expect(await f.t.ctx.funding.advanceFlows()).toBe(1);
    for (const flow of [swept, late]) {
      expect((await f.getFlow(flow.transfer_id)).json()).toMatchObject({
        status: 'failed',
        failure_reason: 'ack_timeout',
      });
      const events = await f.flowEvents(flow.transfer_id);
      expect(types(events)).toEqual(['card_flow.started', 'transfer.failed']);
      expect(events[1]?.data.reason).toBe('ack_timeout');
    }
    expect(await f.pool()).toMatchObject({ balance_cents: 10_000, reserved_cents: 0 });
  });

  it('fails with insufficient_org_funds at start when the pool does not cover it, reserving nothing', async () => {
    await f.fundPool(4999);
    const userId = await f.approvedUser();
    const refused = await f.flow(userId, 5000);
    expect(refused).toMatchObject({ status: 'failed', failure_reason: 'insufficient_org_funds' });
    const events = await f.flowEvents(refused.transfer_id);
    expect(types(events)).toEqual(['transfer.failed']);
    expect(events[0]?.data).toMatchObject({ reason: 'insufficient_org_funds', amount_cents: 5000 });
    expect(await f.pool()).toMatchObject({ balance_cents: 4999, reserved_cents: 0 });
    expect((await f.drive(refused.transfer_id)).status).toBe('failed');
  });

  it('fails with transfer_failed when the chain reverts the transfer, and releases the reservation', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 6000);
    f.chain.fail(started.transfer_id);
    expect(await f.drive(started.transfer_id)).toMatchObject({
      status: 'failed',
      failure_reason: 'transfer_failed',
    });
    expect(types(await f.flowEvents(started.transfer_id))).toEqual([
      'card_flow.started',
      'transfer.approved',
      'transfer.initiated',
      'transfer.failed',
    ]);
    expect(await f.pool()).toMatchObject({ balance_cents: 10_000, reserved_cents: 0 });
    expect(await f.wallet(userId)).toBe(0);
  });

  it('keeps the money as spending power when the card cannot be issued, and nets it against the next card', async () => {
    await f.fundPool(20_000);
    const userId = await f.approvedUser();
    const first = await f.flow(userId, 3000);
    // Approve, initiate, complete; then the user's verification is withdrawn before the mint.
    for (let i = 0; i < 3; i++) await f.step(first.transfer_id);
    const revoked = await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: userId, outcome: 'rejected' },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(await f.drive(first.transfer_id)).toMatchObject({ status: 'card_failed', card_id: null });
    const events = await f.flowEvents(first.transfer_id);
    expect(types(events)).toEqual([
      'card_flow.started',
      'transfer.approved',
      'transfer.initiated',
      'transfer.completed',
      'card_flow.failed',
    ]);
    expect(events[4]?.data).toEqual({
      transfer_id: first.transfer_id,
      cardholder_id: first.cardholder_id,
      amount_cents: 3000,
      reason: 'mint_failed',
      funds_status: 'released_to_headroom',
    });
    expect(await f.wallet(userId)).toBe(3000);
    expect((await f.pool()).balance_cents).toBe(17_000);

    await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: userId, outcome: 'approved' },
    });
    // The next card nets the 3000 first: only 2000 leave the pool.
    const second = await f.flow(userId, 5000);
    expect(second).toMatchObject({ netted_cents: 3000, transfer_cents: 2000 });
    expect((await f.drive(second.transfer_id)).status).toBe('card_created');
    expect((await f.pool()).balance_cents).toBe(15_000);
    expect(await f.wallet(userId)).toBe(0);
    const completed = (await f.flowEvents(second.transfer_id)).find((e) => e.type === 'transfer.completed');
    expect(completed?.data).toMatchObject({ amount_cents: 5000, transferred_cents: 2000 });

    // Netted once only: a third card transfers in full.
    const third = await f.flow(userId, 1000);
    expect(third).toMatchObject({ netted_cents: 0, transfer_cents: 1000 });
    expect((await f.drive(third.transfer_id)).status).toBe('card_created');
  });

  it('moves nothing on the chain for a fully netted transfer (tx_hash null)', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const first = await f.flow(userId, 4000);
    for (let i = 0; i < 3; i++) await f.step(first.transfer_id);
    await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: userId, outcome: 'rejected' },
    });
    expect((await f.drive(first.transfer_id)).status).toBe('card_failed');
    await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: userId, outcome: 'approved' },
    });

    const netted = await f.flow(userId, 4000);
    expect(netted).toMatchObject({ netted_cents: 4000, transfer_cents: 0, fee_cents: 0 });
    // A chain that would revert it is never asked.
    f.chain.fail(netted.transfer_id);
    expect(await f.drive(netted.transfer_id)).toMatchObject({ status: 'card_created', tx_hash: null });
    const initiated = (await f.flowEvents(netted.transfer_id)).find((e) => e.type === 'transfer.initiated');
    expect(initiated?.data.tx_hash).toBeNull();
    expect((await f.pool()).balance_cents).toBe(6000);
  });

  it('charges the organization’s fee (bps + fixed) from the pool into the fees account, released on failure', async () => {
    await f.t.ctx.funding.setFees(
      { organizationId: f.org.organization_id, livemode: false },
      { bps: 150, fixedCents: 25 },
    );
    await f.fundPool(20_000);
    const userId = await f.approvedUser();
    const paid = await f.flow(userId, 10_001);
    // floor(10001 × 150 / 10000) + 25 = 150 + 25
    expect(paid).toMatchObject({ fee_cents: 175, transfer_cents: 10_001 });
    expect(await f.pool()).toMatchObject({ balance_cents: 20_000 - 10_176, reserved_cents: 10_176 });
    expect((await f.drive(paid.transfer_id)).status).toBe('card_created');
    expect((await f.account('fees')).available).toBe(175);

    const failed = await f.flow(userId, 1000, { ack_required: true });
    expect(failed.fee_cents).toBe(40);
    await f.ack(failed.transfer_id, 'collection_failed');
    expect(await f.pool()).toMatchObject({ balance_cents: 20_000 - 10_176, reserved_cents: 0 });
    expect((await f.account('fees')).available).toBe(175);
  });

  it('returns a closed company-funded card’s unused balance to the pool with transfer.released', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 5000);
    const { card_id: cardId } = await f.drive(started.transfer_id);
    await f.authorize(cardId ?? '', 1200);
    const closed = await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.sandbox });
    expect(closed.statusCode, closed.body).toBe(200);
    const released = (await f.flowEvents(started.transfer_id)).filter((e) => e.type === 'transfer.released');
    expect(released.map((e) => e.data)).toEqual([
      {
        transfer_id: started.transfer_id,
        cardholder_id: started.cardholder_id,
        card_id: cardId,
        amount_cents: 3800,
        tx_hash: null, // sandbox: no chain
      },
    ]);
    expect((await f.pool()).balance_cents).toBe(5000 + 3800);
    expect(await f.wallet(userId)).toBe(0);
    // Closing again changes nothing and fires nothing.
    await f.t.call('POST', `/api/v2/cards/${cardId}/close`, { token: f.sandbox });
    expect(
      (await f.flowEvents(started.transfer_id)).filter((e) => e.type === 'transfer.released'),
    ).toHaveLength(1);
  });

  it('leaves a wallet-funded card’s close as it was: back to the wallet, no transfer.released', async () => {
    const userId = await f.approvedUser(3000);
    const card = await f.createCard(userId, 3000);
    await f.t.call('POST', `/api/v2/cards/${card.id}/close`, { token: f.sandbox });
    expect(await f.wallet(userId)).toBe(3000);
    expect(types(await f.flowEvents()).filter((t) => t === 'transfer.released')).toEqual([]);
  });
});

describe('the flow’s edges', () => {
  it('answers 404 for another organization’s or mode’s flow, on v2 and v1', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 1000, { ack_required: true });
    expectError(await f.getFlow(started.transfer_id, f.production), 404, 'not_found');
    expectError(
      await f.ack(started.transfer_id, 'collection_succeeded', f.org.production.api_key),
      404,
      'not_found',
    );
    const other = await f.t.createOrg('Other');
    const otherToken = await f.t.platformToken(other.sandbox);
    expectError(await f.getFlow(started.transfer_id, otherToken), 404, 'not_found');
    expectError(
      await f.ack(started.transfer_id, 'collection_failed', other.sandbox.api_key),
      404,
      'not_found',
    );
    expectError(await f.ack(started.transfer_id, 'collection_failed', 'sk_test_nope'), 401, 'unauthorized');
    expect((await f.getFlow(started.transfer_id)).json().status).toBe('awaiting_collection');
  });

  it('refuses what it cannot start: no approval, no user, company-only fields without company funding', async () => {
    await f.fundPool(10_000);
    expectError(await f.startFlow(await f.connectedUser(), 1000), 422, 'kyc_required');
    expectError(await f.startFlow('usr_unknown', 1000), 404, 'not_found');
    const userId = await f.approvedUser(1000);
    const plain = await f.t.call('POST', '/api/v2/cards', {
      token: f.sandbox,
      body: { user_id: userId, amount_cents: 1000, type: 'multi_use', ack_required: true },
    });
    expectError(plain, 400, 'invalid_request');
    expectError(await f.startFlow(userId, 1000, { memo: 'x' }), 400, 'invalid_request');
    expectError(await f.startFlow(userId, 0), 400, 'invalid_request');
    expect(await f.pool()).toMatchObject({ balance_cents: 10_000, reserved_cents: 0 });
  });

  it('takes spending_controls: checked before anything is reserved, set on the card the flow mints, judged by the engine', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    // Bad controls: 400 naming the fields, no flow, nothing reserved.
    const bad = await f.startFlow(userId, 2000, {
      spending_controls: { allowed_categories: ['5411'], blocked_categories: ['7995'] },
    });
    expectError(bad, 400, 'invalid_request');
    expect(Object.keys(bad.json().error.field_errors).sort()).toEqual([
      'spending_controls.allowed_categories',
      'spending_controls.blocked_categories',
    ]);
    expect(await f.pool()).toMatchObject({ balance_cents: 10_000, reserved_cents: 0 });
    expect(types(await f.flowEvents()).filter((t) => t.startsWith('card_flow.'))).toEqual([]);

    const started = await f.flow(userId, 2000, {
      spending_controls: {
        blocked_categories: ['betting_casino_gambling'],
        allowed_merchant_countries: ['us'],
        spending_limits: [{ amount_cents: 1500, interval: 'daily' }],
      },
    });
    const done = await f.drive(started.transfer_id);
    expect(done.status).toBe('card_created');
    const card = (await f.t.call('GET', `/api/v2/cards/${done.card_id}`, { token: f.sandbox })).json();
    expect(card).toMatchObject({
      balance_cents: 2000,
      spending_controls: {
        allowed_categories: [],
        blocked_categories: ['betting_casino_gambling'],
        allowed_merchant_countries: ['US'],
        blocked_merchant_countries: [],
        spending_limits: [{ amount_cents: 1500, interval: 'daily' }],
      },
    });
    const charge = (body: Record<string, unknown>) =>
      f.t.call('POST', '/api/v2/simulate/authorize', {
        token: f.sandbox,
        body: { card_id: done.card_id, merchant: 'Shop', merchant_country: 'US', mcc: '5411', ...body },
      });
    expect((await charge({ amount_cents: 100, mcc: '7995' })).json()).toMatchObject({
      status: 'DECLINED',
      decline_reason: 'CATEGORY_BLOCKED',
      spending_control: { source: 'card', rule: 'blocked_categories' },
    });
    expect((await charge({ amount_cents: 100, merchant_country: 'FR' })).json()).toMatchObject({
      decline_reason: 'COUNTRY_BLOCKED',
    });
    expect((await charge({ amount_cents: 1000 })).json().status).toBe('PENDING');
    expect((await charge({ amount_cents: 600 })).json()).toMatchObject({
      decline_reason: 'SPENDING_LIMIT_EXCEEDED',
      spending_control: { interval: 'daily', limit_cents: 1500, spent_cents: 1000 },
    });
    await f.expectSound();
  });

  it('starts one flow for one Idempotency-Key', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const key = { 'idempotency-key': 'flow-once-1' };
    const first = await f.startFlow(userId, 2500, {}, key);
    const again = await f.startFlow(userId, 2500, {}, key);
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().transfer_id).toBe(first.json().transfer_id);
    expect(await f.pool()).toMatchObject({ balance_cents: 7500, reserved_cents: 2500 });
    expect(types(await f.flowEvents()).filter((t) => t === 'card_flow.started')).toHaveLength(1);
  });

  it('acknowledges once for one Idempotency-Key', async () => {
    await f.fundPool(10_000);
    const userId = await f.approvedUser();
    const started = await f.flow(userId, 1000, { ack_required: true });
    f.t.clock.advance(1);
    const call = () =>
      f.t.call('POST', `/api/v1/wallet/transfers/${started.transfer_id}/collection_failed`, {
        token: f.org.sandbox.api_key,
        headers: { 'idempotency-key': 'deny-1' },
      });
    expect((await call()).statusCode).toBe(200);
    const replay = await call();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(types(await f.flowEvents(started.transfer_id))).toEqual(['card_flow.started', 'transfer.failed']);
  });
});
