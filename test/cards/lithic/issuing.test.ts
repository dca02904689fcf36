import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../helpers.ts';
import { type LithicFixture, startLithic } from './helpers.ts';

let l: LithicFixture;
beforeEach(async () => {
  l = await startLithic();
});
afterEach(async () => {
  await l.close();
});

const row = (id: string) =>
  l.f.t.ctx.db.selectFrom('cards').selectAll().where('id', '=', id).executeTakeFirst();

describe('issuing through Lithic', () => {
  it('creates a live card there (VIRTUAL / SINGLE_USE), keyed by our card id, and keeps its number sealed', async () => {
    const user = await l.liveUser(2_000);
    const multi = await l.issue(user, 700);
    const single = await l.issue(user, 300, 'single_use');
    const creates = l.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/cards');
    expect(creates.map((r) => [r.idempotencyKey, r.body.type, r.body.spend_limit])).toEqual([
      [multi.id, 'VIRTUAL', 700],
      [single.id, 'SINGLE_USE', 300],
    ]);
    const upstream = l.fake.cardByLast4(multi.last4 as string);
    expect(multi.expiry).toBe('07/30');
    expect((await row(multi.id as string))?.provider_ref).toBe(upstream.token);
    expect(await l.liveWallet(user)).toBe(1_000);
    await l.f.t.ctx.cards.setLiveCardDetails(l.f.org.organization_id, true);
    const details = await l.f.t.call('GET', `/api/v2/cards/${multi.id}/details`, { token: l.f.production });
    expect(details.json()).toMatchObject({ number: upstream.pan, cvv: upstream.cvv });
    expect(l.f.t.logs.text).not.toContain(upstream.pan);
  });

  it('keeps test-mode cards on the built-in network', async () => {
    const user = await l.f.approvedUser(500);
    const card = await l.f.createCard(user, 500);
    expect(card.last4).toMatch(/^\d{4}$/);
    expect((await row(card.id as string))?.provider_ref).toBeNull();
    expect(l.fake.requests).toEqual([]);
  });

  it('refuses an uncovered amount before asking Lithic', async () => {
    const user = await l.liveUser(100);
    const refused = await l.f.t.call('POST', '/api/v2/cards', {
      token: l.f.production,
      body: { user_id: user, amount_cents: 101, type: 'multi_use' },
    });
    expectError(refused, 402, 'insufficient_funds');
    expect(l.fake.requests).toEqual([]);
  });

  it('closes the Lithic card again when the wallet refuses at commit (compensation)', async () => {
    const user = await l.liveUser(500);
    // The wallet is spent elsewhere while Lithic makes the card.
    l.fake.onCreate = () => l.deposit(user, -500);
    const refused = await l.f.t.call('POST', '/api/v2/cards', {
      token: l.f.production,
      body: { user_id: user, amount_cents: 400, type: 'multi_use' },
    });
    expectError(refused, 402, 'insufficient_funds');
    const [created] = [...l.fake.cards.values()];
    expect(created?.state).toBe('CLOSED');
    const compensation = l.fake.requests.find((r) => r.method === 'PATCH');
    expect(compensation?.body).toEqual({ state: 'CLOSED' });
    expect(await l.f.t.ctx.db.selectFrom('cards').select('id').execute()).toEqual([]);
    expect(await l.liveWallet(user)).toBe(0);
  });

  it('answers 502 issuer_error when Lithic refuses, and changes nothing', async () => {
    const user = await l.liveUser(500);
    l.fake.failNext('POST', /^\/v1\/cards$/);
    const refused = await l.f.t.call('POST', '/api/v2/cards', {
      token: l.f.production,
      body: { user_id: user, amount_cents: 400, type: 'multi_use' },
    });
    expectError(refused, 502, 'issuer_error');
    expect(await l.f.t.ctx.db.selectFrom('cards').select('id').execute()).toEqual([]);
    expect(await l.liveWallet(user)).toBe(500);
  });
});

describe('lifecycle mirrored to Lithic', () => {
  it('pauses, resumes, changes the limit and closes there first, each with its own key', async () => {
    const user = await l.liveUser(1_000);
    const card = await l.issue(user, 500);
    const upstream = l.fake.cardByLast4(card.last4 as string);
    const post = (action: string) =>
      l.f.t.call('POST', `/api/v2/cards/${card.id}/${action}`, { token: l.f.production });
    expect((await post('pause')).json().status).toBe('PAUSED');
    expect(upstream.state).toBe('PAUSED');
    expect((await post('pause')).statusCode).toBe(200); // already paused: nothing asked of Lithic
    expect((await post('resume')).json().status).toBe('ACTIVE');
    expect(upstream.state).toBe('OPEN');
    const raised = await l.f.t.call('PATCH', `/api/v2/cards/${card.id}`, {
      token: l.f.production,
      body: { spend_limit_cents: 800 },
    });
    expect(raised.json().spend_limit_cents).toBe(800);
    expect(upstream.spend_limit).toBe(800);
    expect((await post('close')).json().status).toBe('closed');
    expect(upstream.state).toBe('CLOSED');
    expect((await post('close')).statusCode).toBe(200);
    const patches = l.fake.requests.filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.body)).toEqual([
      { state: 'PAUSED' },
      { state: 'OPEN' },
      { spend_limit: 800 },
      { state: 'CLOSED' },
    ]);
    expect(new Set(patches.map((r) => r.idempotencyKey)).size).toBe(4);
    expect(await l.liveWallet(user)).toBe(1_000);
  });

  it('changes nothing locally when Lithic refuses (502 issuer_error)', async () => {
    const user = await l.liveUser(1_000);
    const card = await l.issue(user, 500);
    for (const action of ['pause', 'close']) {
      l.fake.failNext('PATCH', /^\/v1\/cards\//);
      const refused = await l.f.t.call('POST', `/api/v2/cards/${card.id}/${action}`, {
        token: l.f.production,
      });
      expectError(refused, 502, 'issuer_error');
    }
    l.fake.failNext('PATCH', /^\/v1\/cards\//);
    expectError(
      await l.f.t.call('PATCH', `/api/v2/cards/${card.id}`, {
        token: l.f.production,
        body: { spend_limit_cents: 600 },
      }),
      502,
      'issuer_error',
    );
    expect(await l.liveCard(card.id as string)).toMatchObject({ status: 'ACTIVE', spend_limit_cents: 500 });
    expect(await l.liveWallet(user)).toBe(500);
  });

  it('puts the Lithic limit back when the wallet refuses a raise', async () => {
    const user = await l.liveUser(600);
    const card = await l.issue(user, 500);
    const refused = await l.f.t.call('PATCH', `/api/v2/cards/${card.id}`, {
      token: l.f.production,
      body: { spend_limit_cents: 700 },
    });
    expectError(refused, 402, 'insufficient_funds');
    expect(l.fake.cardByLast4(card.last4 as string).spend_limit).toBe(500);
    expect(await l.liveCard(card.id as string)).toMatchObject({ spend_limit_cents: 500 });
    // Once the wallet covers it, the same change goes through at Lithic too (not a replay of the undone one).
    await l.deposit(user, 200);
    const raised = await l.f.t.call('PATCH', `/api/v2/cards/${card.id}`, {
      token: l.f.production,
      body: { spend_limit_cents: 700 },
    });
    expect(raised.json().spend_limit_cents).toBe(700);
    expect(l.fake.cardByLast4(card.last4 as string).spend_limit).toBe(700);
  });

  it('closes the card when Lithic reports it closed upstream, once', async () => {
    const user = await l.liveUser(1_000);
    const card = await l.issue(user, 500);
    const token = l.fake.cardByLast4(card.last4 as string).token;
    expect((await l.fake.closeUpstream(token)).status).toBe(200);
    expect((await l.fake.closeUpstream(token)).status).toBe(200);
    expect(await l.liveCard(card.id as string)).toMatchObject({
      status: 'CLOSED',
      closed_reason: 'provider_closed',
    });
    expect(await l.liveWallet(user)).toBe(1_000);
    expect(await l.f.events('card.closed')).toHaveLength(1);
  });

  it('closes a card Lithic closed before telling us', async () => {
    const user = await l.liveUser(1_000);
    const card = await l.issue(user, 500);
    l.fake.cardByLast4(card.last4 as string).state = 'CLOSED';
    const closed = await l.f.t.call('POST', `/api/v2/cards/${card.id}/close`, { token: l.f.production });
    expect(closed.json()).toMatchObject({ status: 'closed', closed_reason: 'manual' });
    expect(await l.liveWallet(user)).toBe(1_000);
  });
});
