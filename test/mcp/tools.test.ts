import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { activate, createMandate } from '../mandates/helpers.ts';
import { callError, callOk, useMcp } from './helpers.ts';

// The platform's authorization endpoint below is a local server: a private destination, allowed here.
const f = useMcp({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' });

const TOOL_NAMES = [
  'buy',
  'check_balance',
  'close_card',
  'create_card',
  'fund_wallet',
  'get_conversation',
  'get_kyc_status',
  'get_mandate',
  'get_spending_controls',
  'get_wallet',
  'list_cards',
  'list_connections',
  'list_merchants',
  'list_transactions',
  'pause_card',
  'resume_card',
  'revoke_connection',
  'start_kyc',
  'update_card_limit',
  'whoami',
];

/** A connected sandbox user whose verification is approved (the platform simulates the verdict). */
async function approved() {
  const user = await f.connect();
  const verdict = await f.t.call('POST', '/api/v2/kyc/simulate', {
    token: f.sandbox,
    body: { user_id: user.userId, outcome: 'approved' },
  });
  expect(verdict.statusCode, verdict.body).toBe(200);
  return { ...user, client: await f.client(user.accessToken) };
}

describe('tools/list', () => {
  it('lists every tool with a title, a description, an input schema and an output schema', async () => {
    const { accessToken } = await f.connect();
    const client = await f.client(accessToken);
    expect(client.getServerVersion()?.name).toBe('purser');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations, tool.name).toBeDefined();
    }
    const create = tools.find((tool) => tool.name === 'create_card')!;
    expect(create.inputSchema.required).toEqual(['amount_cents']);
    expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual(['amount_cents', 'memo', 'type']);
  });
});

describe('identity and connections', () => {
  it('whoami names the token’s user, client and mode', async () => {
    const email = `who.${Date.now()}@example.com`;
    const user = await f.connect({ email });
    const client = await f.client(user.accessToken);
    const { text, data } = await callOk(client, 'whoami');
    expect(data).toEqual({
      user: { id: user.userId, email, phone: null },
      client_id: f.org.sandbox.client_id,
      connection_id: expect.stringMatching(/^conn_/),
      organization_id: f.org.organization_id,
      test_mode: true,
    });
    expect(text).toContain(user.userId);
    expect(text).toContain('test mode');
  });

  it('whoami shows a change made to its user outside the process once AUTH_CACHE_TTL_MS has passed', async () => {
    const email = `who.later.${Date.now()}@example.com`;
    const user = await f.connect({ email });
    const client = await f.client(user.accessToken);
    expect((await callOk(client, 'whoami')).data.user).toEqual({ id: user.userId, email, phone: null });
    const changed = `who.changed.${Date.now()}@example.com`;
    await f.t.ctx.db.updateTable('users').set({ email: changed }).where('id', '=', user.userId).execute();
    // Read within the window: the user as it was (as a token revoked elsewhere still works within it).
    expect((await callOk(client, 'whoami')).data.user).toEqual({ id: user.userId, email, phone: null });
    f.t.clock.advance(1001);
    const { data, text } = await callOk(client, 'whoami');
    expect(data.user).toEqual({ id: user.userId, email: changed, phone: null });
    expect(text).toContain(changed);
  });

  it('get_kyc_status and start_kyc give the status and the hosted page link until it is decided', async () => {
    const user = await f.connect();
    const client = await f.client(user.accessToken);
    const status = await callOk(client, 'get_kyc_status');
    expect(status.data).toMatchObject({ object: 'kyc', status: 'awaiting_documents' });
    const started = await callOk(client, 'start_kyc');
    expect(started.data.status).toBe('awaiting_documents');
    expect(started.data.url).toMatch(/^http:\/\/purser\.test\//);
    expect(started.text).toContain(started.data.url as string);
    // The platform's own read gives the same link: one verification, one link.
    const platform = await f.t.call('GET', `/api/v2/kyc?user_id=${user.userId}`, { token: f.sandbox });
    expect(platform.json().iframe_url).toBe(started.data.url);

    await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: user.userId, outcome: 'approved' },
    });
    expect((await callOk(client, 'get_kyc_status')).data).toEqual({ object: 'kyc', status: 'approved' });
    const done = await callOk(client, 'start_kyc');
    expect(done.data).toEqual({ status: 'approved', url: null });
  });

  it('list_connections lists the user’s apps; revoke_connection ends this app’s tokens at once', async () => {
    const user = await f.connect();
    const client = await f.client(user.accessToken);
    const listed = await callOk(client, 'list_connections');
    const connections = listed.data.data as Record<string, unknown>[];
    expect(connections).toEqual([
      {
        object: 'connection',
        id: expect.stringMatching(/^conn_/),
        client_id: f.org.sandbox.client_id,
        app_name: expect.any(String),
        connected_at: expect.any(String),
        current: true,
      },
    ]);
    const id = connections[0]!.id as string;
    await callError(
      client,
      'revoke_connection',
      { connection_id: 'conn_someoneelse' },
      'connection_not_found',
    );

    const revoked = await callOk(client, 'revoke_connection', { connection_id: id });
    expect(revoked.data).toEqual({ object: 'connection', id, revoked: true });
    // Both tokens are dead: the access token at the tool server, the refresh token at connect.
    const after = await f.post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${user.accessToken}` },
    );
    expect(after.status).toBe(401);
    const refresh = await f.t.call('POST', '/api/v2/connect/refresh', {
      token: f.sandbox,
      body: { refresh_token: user.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json().error.code).toBe('invalid_refresh_token');
  });
});

describe('wallet and cards', () => {
  it('funds, issues, pauses, resumes, re-limits, lists and closes, with the money in the ledger', async () => {
    const { userId, client } = await approved();
    const funded = await callOk(client, 'fund_wallet', { amount_cents: 10_000 });
    expect(funded.data).toMatchObject({ object: 'wallet', user_id: userId, balance_cents: 10_000 });
    expect(funded.text).toContain('$100.00');
    expect((await callOk(client, 'get_wallet')).data).toEqual({
      object: 'wallet',
      user_id: userId,
      balance_cents: 10_000,
      pending_cents: 0,
      currency: 'usd',
      test_mode: true,
    });

    const created = await callOk(client, 'create_card', { amount_cents: 4_000, memo: 'Groceries' });
    const card = created.data as { id: string; status: string; balance_cents: number; type: string };
    expect(card).toMatchObject({ object: 'card', user_id: userId, status: 'ACTIVE', type: 'multi_use' });
    expect(card.balance_cents).toBe(4_000);
    expect(created.text).toContain(card.id);
    expect((await callOk(client, 'check_balance')).data).toEqual({
      source: 'wallet',
      id: userId,
      available_cents: 6_000,
      currency: 'usd',
    });
    expect((await callOk(client, 'check_balance', { card_id: card.id })).data).toEqual({
      source: 'card',
      id: card.id,
      available_cents: 4_000,
      currency: 'usd',
    });

    expect((await callOk(client, 'pause_card', { card_id: card.id })).data.status).toBe('PAUSED');
    expect((await callOk(client, 'resume_card', { card_id: card.id })).data.status).toBe('ACTIVE');
    const raised = await callOk(client, 'update_card_limit', { card_id: card.id, spend_limit_cents: 5_000 });
    expect(raised.data).toMatchObject({ spend_limit_cents: 5_000, balance_cents: 5_000 });

    const charge = await f.authorize(card.id, 1_200);
    expect(charge.status).toBe('PENDING');
    const transactions = await callOk(client, 'list_transactions', { card_id: card.id });
    expect(transactions.data).toMatchObject({ object: 'list', has_more: false });
    expect((transactions.data.data as { id: string }[]).map((txn) => txn.id)).toEqual([charge.id]);
    expect(transactions.text).toContain('Corner Shop');

    const listed = await callOk(client, 'list_cards', {});
    expect((listed.data.data as { id: string }[]).map((c) => c.id)).toEqual([card.id]);
    expect((await callOk(client, 'list_cards', { status: 'CLOSED' })).data.data).toEqual([]);

    const closed = await callOk(client, 'close_card', { card_id: card.id });
    // What the card could still spend (5,000 - 1,200 held) returns to the wallet.
    expect(closed.data).toMatchObject({ status: 'CLOSED', closed_reason: 'manual', balance_cents: 0 });
    expect(await f.wallet(userId)).toBe(5_000 + 3_800);
    await callError(client, 'pause_card', { card_id: card.id }, 'card_closed');
    await f.expectSound();
  });

  it("reads the user's and a card's spending controls, which only the platform sets", async () => {
    const { userId, client } = await approved();
    await callOk(client, 'fund_wallet', { amount_cents: 5_000 });
    const card = (await callOk(client, 'create_card', { amount_cents: 2_000 })).data as { id: string };
    const none = await callOk(client, 'get_spending_controls');
    expect(none.data).toMatchObject({ user: { blocked_categories: [], spending_limits: [] }, card: null });
    expect(none.text).toContain('none');
    const set = (method: 'PUT' | 'PATCH', url: string, body: unknown) =>
      f.t.call(method, url, { token: f.sandbox, body });
    expect(
      (
        await set('PUT', `/api/v2/users/${userId}/spending_controls`, {
          spending_limits: [{ amount_cents: 5_000, interval: 'daily' }],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await set('PATCH', `/api/v2/cards/${card.id}`, {
          spending_controls: { blocked_categories: ['7995'] },
        })
      ).statusCode,
    ).toBe(200);
    const read = await callOk(client, 'get_spending_controls', { card_id: card.id });
    expect(read.data).toMatchObject({
      user: { spending_limits: [{ amount_cents: 5_000, interval: 'daily' }] },
      card: { blocked_categories: ['7995'] },
    });
    expect(read.text).toContain('at most $50.00 daily');
    expect(read.text).toContain('not categories 7995');
    const listed = await callOk(client, 'list_cards', {});
    expect((listed.data.data as { spending_controls: unknown }[])[0]?.spending_controls).toMatchObject({
      blocked_categories: ['7995'],
    });
    const declined = await f.t.call('POST', '/api/v2/simulate/authorize', {
      token: f.sandbox,
      body: { card_id: card.id, amount_cents: 100, merchant: 'Casino', mcc: '7995' },
    });
    expect(declined.json()).toMatchObject({ decline_reason: 'CATEGORY_BLOCKED' });
    const transactions = await callOk(client, 'list_transactions', { card_id: card.id });
    expect(transactions.data.data).toMatchObject([
      { spending_control: { source: 'card', rule: 'blocked_categories' } },
    ]);
    expect(transactions.text).toContain('(CATEGORY_BLOCKED: card blocked_categories)');
    const other = await approved();
    await callError(other.client, 'get_spending_controls', { card_id: card.id }, 'not_found');
  });

  it("shows who decided a charge and the platform's own reason for its decline", async () => {
    const platform = http.createServer((_req, res) => {
      _req.resume();
      _req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ approved: false, reason: 'over the budget of this task' })),
      );
    });
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
    const { port } = platform.address() as AddressInfo;
    const endpoint = () =>
      f.t.call('PUT', '/api/v2/authorization_endpoint', {
        token: f.sandbox,
        body: { url: `http://127.0.0.1:${port}/authorize` },
      });
    try {
      expect((await endpoint()).statusCode).toBe(201);
      const { client } = await approved();
      await callOk(client, 'fund_wallet', { amount_cents: 2_000 });
      const card = (await callOk(client, 'create_card', { amount_cents: 2_000 })).data as { id: string };
      const declined = await f.authorize(card.id, 700);
      expect(declined).toMatchObject({ status: 'DECLINED', decline_reason: 'PLATFORM_DECLINED' });
      const transactions = await callOk(client, 'list_transactions', { card_id: card.id });
      expect(transactions.data.data).toMatchObject([
        {
          id: declined.id,
          decline_reason: 'PLATFORM_DECLINED',
          authorization_decided_by: 'platform',
          platform_reason: 'over the budget of this task',
        },
      ]);
      expect(transactions.text).toContain('(PLATFORM_DECLINED: over the budget of this task)');
    } finally {
      expect(
        (await f.t.call('DELETE', '/api/v2/authorization_endpoint', { token: f.sandbox })).statusCode,
      ).toBe(200);
      platform.closeAllConnections();
      await new Promise((resolve) => platform.close(resolve));
    }
    await f.expectSound();
  });

  it('answers refusals as tool errors with the spec’s codes', async () => {
    const unverified = await f.connect();
    const client = await f.client(unverified.accessToken);
    await callError(client, 'create_card', { amount_cents: 1_000 }, 'kyc_required');

    const { client: verified } = await approved();
    await callError(verified, 'create_card', { amount_cents: 1_000 }, 'insufficient_funds');
    await callOk(verified, 'fund_wallet', { amount_cents: 1_000 });
    const single = await callOk(verified, 'create_card', { amount_cents: 500, type: 'single_use' });
    await callError(
      verified,
      'update_card_limit',
      { card_id: single.data.id, spend_limit_cents: 600 },
      'card_not_multi_use',
    );
    await callError(verified, 'close_card', { card_id: 'card_unknown' }, 'not_found');
    await callError(verified, 'list_transactions', { card_id: 'card_unknown' }, 'not_found');
    await f.expectSound();
  });

  it('answers an unknown tool with -32602 (MCP: a protocol error) and bad arguments with an error result', async () => {
    const { client } = await approved();
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: no_such_tool'),
    });
    const bad = (await client.callTool({
      name: 'create_card',
      arguments: { amount_cents: -5 },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('amount_cents');
    expect((await callOk(client, 'get_wallet')).data.balance_cents).toBe(0);
  });
});

describe('isolation', () => {
  it('a connection sees only the cards its own client created, for its own user', async () => {
    const other = await f.t.ctx.orgs.createClient(f.org.organization_id, {
      mode: 'sandbox',
      type: 'confidential',
      name: 'Second app',
    });
    const otherPlatform = await f.t.platformToken({
      client_id: other.client_id,
      client_secret: other.client_secret!,
      api_key: '',
    });
    const email = `shared.${Date.now()}@example.com`;
    const a = await f.connect({ email });
    const b = await f.connect({ email, platformToken: otherPlatform });
    expect(b.userId).toBe(a.userId);
    await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: a.userId, outcome: 'approved' },
    });
    const clientA = await f.client(a.accessToken);
    const clientB = await f.client(b.accessToken);
    await callOk(clientA, 'fund_wallet', { amount_cents: 3_000 });
    const card = (await callOk(clientA, 'create_card', { amount_cents: 1_000 })).data as { id: string };
    await f.authorize(card.id, 100);

    // The wallet is the user's, shared; the card is client A's only.
    expect((await callOk(clientB, 'get_wallet')).data.balance_cents).toBe(2_000);
    expect((await callOk(clientB, 'list_cards', {})).data.data).toEqual([]);
    expect((await callOk(clientB, 'list_transactions', {})).data.data).toEqual([]);
    for (const [tool, args] of [
      ['close_card', { card_id: card.id }],
      ['pause_card', { card_id: card.id }],
      ['resume_card', { card_id: card.id }],
      ['update_card_limit', { card_id: card.id, spend_limit_cents: 2_000 }],
      ['check_balance', { card_id: card.id }],
      ['list_transactions', { card_id: card.id }],
      ['list_cards', { starting_after: card.id }],
    ] as const) {
      await callError(clientB, tool, args, 'not_found');
    }
    const connectionsB = (await callOk(clientB, 'list_connections')).data.data as { current: boolean }[];
    expect(connectionsB.map((c) => c.current).sort()).toEqual([false, true]);
    // B cannot disconnect A.
    const idA = (connectionsB as unknown as { id: string; current: boolean }[]).find((c) => !c.current)!.id;
    await callError(clientB, 'revoke_connection', { connection_id: idA }, 'connection_not_found');
    expect((await callOk(clientA, 'list_cards', {})).data.data).toHaveLength(1);

    // A disconnected app leaves the list; B goes on working.
    await callOk(clientA, 'revoke_connection');
    const left = (await callOk(clientB, 'list_connections')).data.data as { client_id: string }[];
    expect(left.map((c) => c.client_id)).toEqual([other.client_id]);

    // Another user of the same client does not see the card either.
    const stranger = await f.connect();
    await callError(await f.client(stranger.accessToken), 'close_card', { card_id: card.id }, 'not_found');
    await f.expectSound();
  });

  it('a connection of another organization or mode cannot reach a card', async () => {
    const { client } = await approved();
    await callOk(client, 'fund_wallet', { amount_cents: 1_000 });
    const card = (await callOk(client, 'create_card', { amount_cents: 500 })).data as { id: string };

    const live = await f.connect({ production: true });
    const liveClient = await f.client(live.accessToken);
    await callError(liveClient, 'close_card', { card_id: card.id }, 'not_found');
    expect((await callOk(liveClient, 'whoami')).data.test_mode).toBe(false);

    const otherOrg = await f.t.createOrg('Other');
    const otherToken = await f.t.platformToken(otherOrg.sandbox);
    const stranger = await f.connect({ platformToken: otherToken });
    const strangerClient = await f.client(stranger.accessToken);
    await callError(strangerClient, 'close_card', { card_id: card.id }, 'not_found');
    await callError(strangerClient, 'check_balance', { card_id: card.id }, 'not_found');
    expect((await f.t.call('GET', `/api/v2/cards/${card.id}`, { token: f.sandbox })).json().status).toBe(
      'ACTIVE',
    );
  });

  it('fund_wallet is sandbox only: a live connection gets sandbox_only', async () => {
    const live = await f.connect({ production: true });
    const client = await f.client(live.accessToken);
    await callError(client, 'fund_wallet', { amount_cents: 1_000 }, 'sandbox_only');
    expect((await callOk(client, 'get_wallet')).data).toMatchObject({ balance_cents: 0, test_mode: false });
  });
});

describe('purchases', () => {
  it('lists merchants, builds a cart, confirms its hash and reads the conversation', async () => {
    const user = await f.connect();
    const client = await f.client(user.accessToken);
    const merchants = await callOk(client, 'list_merchants');
    expect((merchants.data.data as { slug: string }[]).map((m) => m.slug)).toContain('coffee');
    await callOk(client, 'fund_wallet', { amount_cents: 2_000 });
    expect(await callError(client, 'buy', {}, 'invalid_request')).toBe('Send `ask`, `confirm`, or both.');
    const asked = await callOk(client, 'buy', { ask: 'a cappuccino from coffee' });
    expect(asked.data).toMatchObject({ status: 'needs_input', order_id: null });
    const cart = (asked.data.carts as { hash: string; totalCents: number }[])[0]!;
    expect(asked.text).toContain(cart.hash);
    const conversationId = asked.data.conversation_id as string;
    const placed = await callOk(client, 'buy', { confirm: cart.hash, conversation_id: conversationId });
    expect(placed.data).toMatchObject({ status: 'order_placed', charge_status: 'settled' });
    const read = await callOk(client, 'get_conversation', { conversation_id: conversationId });
    expect(read.data).toMatchObject({
      object: 'conversation',
      orders: [{ order_id: placed.data.order_id, status: 'confirmed', charge_status: 'settled' }],
    });
    expect((await callOk(client, 'get_wallet')).data.balance_cents).toBe(2_000 - cart.totalCents);
    // Another user's conversation does not exist for this one.
    const other = await f.client((await f.connect()).accessToken);
    await callError(other, 'get_conversation', { conversation_id: conversationId }, 'not_found');
  });
});

describe('mandates', () => {
  it('get_mandate gives the terms and what is left of this app’s mandates of the user, and nothing of others', async () => {
    const user = await f.connect();
    const client = await f.client(user.accessToken);
    expect(await callError(client, 'get_mandate', {}, 'not_found')).toBe(
      'The user has given this app no mandate.',
    );
    const older = await createMandate(f, user.userId, { description: 'Coffee' });
    const mandate = await createMandate(f, user.userId, {
      budget: { amount_cents: 6_000, interval: 'weekly' },
      allowed_merchants: ['coffee'],
    });
    // Without an id: the newest active one, else the newest.
    expect((await callOk(client, 'get_mandate')).data).toMatchObject({
      id: mandate.id,
      status: 'pending_approval',
    });
    await activate(f, older);
    const read = await callOk(client, 'get_mandate', { mandate_id: mandate.id });
    const api = await f.t.call('GET', `/api/v2/mandates/${mandate.id}`, { token: f.sandbox });
    expect(read.data).toEqual(api.json());
    expect(read.data).toMatchObject({
      spent_cents: 0,
      remaining_cents: 6_000,
      terms_hash: mandate.terms_hash,
    });
    expect(read.text).toContain('$60.00 per week');
    expect(read.text).toContain('only at coffee');
    expect(read.text).toContain(mandate.approval_url);
    const active = await callOk(client, 'get_mandate');
    expect(active.data).toMatchObject({ id: older.id, status: 'active', remaining_cents: 20_000 });
    expect(active.text).toContain('$200.00 left this month');

    // Another user of the same app, and another app of the same user: not found.
    const stranger = await f.client((await f.connect()).accessToken);
    await callError(stranger, 'get_mandate', { mandate_id: mandate.id }, 'not_found');
    await callError(stranger, 'get_mandate', {}, 'not_found');
    const app = await f.t.ctx.orgs.createClient(f.org.organization_id, { mode: 'sandbox', type: 'public' });
    const theirs = await createMandate(f, user.userId, { client_id: app.client_id });
    await callError(client, 'get_mandate', { mandate_id: theirs.id }, 'not_found');
    expect(await callError(client, 'get_mandate', { mandate_id: 'mdt_nothing' }, 'not_found')).toBe(
      'No such mandate of this app.',
    );
  });
});
