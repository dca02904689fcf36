import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '../../../src/jobs/worker.ts';
import { Receiver } from '../../../test/events/receiver.ts';
import { quiet, uniqueEmail } from '../../../test/helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/harness.ts';
import {
  constructEvent,
  createPurser,
  InvalidRequestError,
  NotFoundError,
  type PurserClient,
  PurserError,
  unwrap,
  verifySignature,
} from '../src/index.ts';

/**
 * The real service listening on a loopback port, driven through the SDK only: every request below is
 * one a platform's code would make with it.
 */
let t: TestApp;
let baseUrl: string;
let receiver: Receiver;
let purser: PurserClient;
/** Every request the SDK sent, as it left: method, path, and the headers that matter here. */
const sent: { method: string; path: string; key: string | null; auth: string | null }[] = [];
let sdkNow = Date.now();

beforeAll(async () => {
  // The receiver is on 127.0.0.1: sandbox destinations may be private here, as on a developer's machine.
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  receiver = await Receiver.start();
  const org = await t.createOrg('SDK');
  purser = createPurser({
    baseUrl,
    clientId: org.sandbox.client_id,
    clientSecret: org.sandbox.client_secret,
    apiKey: org.sandbox.api_key,
    now: () => sdkNow,
    fetch: (request) => {
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname,
        key: request.headers.get('idempotency-key'),
        auth: request.headers.get('authorization'),
      });
      return fetch(request);
    },
  });
});

afterAll(async () => {
  expect(await t.ctx.ledger.verify()).toEqual([]);
  await receiver.close();
  await t.close();
});

describe('the SDK against the running service', () => {
  let userId: string;
  let userToken: string;
  let secret: string;

  it('mints a platform token and introspects it', async () => {
    expect(await purser.token()).toMatch(/\S{20,}/);
    const introspection = await unwrap(purser.GET('/api/v2'));
    expect(introspection).toMatchObject({ object: 'api_v2', test_mode: true });
  });

  it('registers a webhook endpoint with the API key (v1)', async () => {
    const endpoint = await unwrap(
      purser.POST('/api/v1/webhook_endpoints', {
        body: { url: receiver.url, enabled_events: ['card.created', 'order.placed'] },
      }),
    );
    expect(endpoint.id).toMatch(/^wh_/);
    secret = endpoint.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(sent.at(-1)?.auth).toMatch(/^Bearer sk_test_/);
  });

  it('connects a user with the sandbox code, approves, funds and issues a card', async () => {
    const attempt = await unwrap(
      purser.POST('/api/v2/connect/start', { body: { email: uniqueEmail('sdk') } }),
    );
    const connection = await unwrap(
      purser.POST('/api/v2/connect/verify', { body: { connect_id: attempt.id, code: '111111' } }),
    );
    userId = connection.user?.id as string;
    userToken = connection.access_token;
    expect(userId).toMatch(/^usr_/);

    await unwrap(purser.POST('/api/v2/kyc/simulate', { body: { user_id: userId, outcome: 'approved' } }));
    const wallet = await unwrap(
      purser.POST('/api/v2/simulate/wallet_funding', { body: { user_id: userId, amount_cents: 5_000 } }),
    );
    expect(wallet.balance_cents).toBe(5_000);
    const card = await unwrap(
      purser.POST('/api/v2/cards', { body: { user_id: userId, amount_cents: 2_000, type: 'multi_use' } }),
    );
    expect(card).toMatchObject({ object: 'card', status: 'ACTIVE', user_id: userId });

    // Every POST but the token's carried its own Idempotency-Key.
    const posts = sent.filter((r) => r.method === 'POST' && r.path !== '/api/v2/oauth/token');
    expect(posts.length).toBeGreaterThanOrEqual(5);
    for (const post of posts) expect(post.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(posts.map((p) => p.key)).size).toBe(posts.length);
  });

  it('buys a sandbox item to a placed order with the user token (/buy)', async () => {
    const buyer = purser.forUser(userToken);
    const asked = await unwrap(buyer.POST('/buy', { body: { ask: 'a latte from coffee' } }));
    expect(asked.status).toBe('needs_input');
    const hash = asked.cart?.hash as string;
    expect(hash).toBeTruthy();
    const placed = await unwrap(
      buyer.POST('/buy', { body: { conversation_id: asked.conversation_id, confirm: hash } }),
    );
    expect(placed).toMatchObject({ status: 'order_placed', charge_status: 'settled' });
    expect(placed.order_id).toBeTruthy();
    expect(sent.at(-1)?.auth).toBe(`Bearer ${userToken}`);
  });

  it('pages through a list endpoint with an async iterator, each object once, in order', async () => {
    for (const amount of [100, 200, 300]) {
      await unwrap(
        purser.POST('/api/v2/cards', { body: { user_id: userId, amount_cents: amount, type: 'multi_use' } }),
      );
    }
    const whole = await unwrap(
      purser.GET('/api/v2/cards', { params: { query: { user_id: userId, limit: 100 } } }),
    );
    // The three, the first card and the purchase's own card.
    expect(whole.data).toHaveLength(5);

    const pageCalls = () => sent.filter((r) => r.method === 'GET' && r.path === '/api/v2/cards').length;
    const before = pageCalls();
    const paged: string[] = [];
    for await (const card of purser.paginate('/api/v2/cards', { query: { user_id: userId, limit: 2 } })) {
      paged.push(card.id);
    }
    expect(paged).toEqual(whole.data.map((card) => card.id));
    expect(pageCalls() - before).toBe(3);

    // Leaving the loop early fetches no further page.
    const afterPaging = pageCalls();
    for await (const card of purser.paginate('/api/v2/cards', { query: { user_id: userId, limit: 2 } })) {
      expect(card.id).toBe(paged[0]);
      break;
    }
    expect(pageCalls() - afterPaging).toBe(1);

    // Events page by the same rule.
    const events = await unwrap(purser.GET('/api/v2/events', { params: { query: { limit: 100 } } }));
    const pagedEvents: string[] = [];
    for await (const event of purser.paginate('/api/v2/events', { query: { limit: 3 } })) {
      pagedEvents.push(event.id);
    }
    expect(pagedEvents).toEqual(events.data.map((event) => event.id));
    expect(pagedEvents.length).toBeGreaterThan(3);
  });

  it('throws a PurserError carrying the spec error body', async () => {
    const refused = await unwrap(
      purser.POST('/api/v2/cards', {
        body: { user_id: 'usr_nobody', amount_cents: 10_000_000, type: 'multi_use' },
      }),
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PurserError);
    // The class of its code, so a caller can branch with instanceof.
    expect(refused).toBeInstanceOf(InvalidRequestError);
    expect(refused).not.toBeInstanceOf(NotFoundError);
    expect(refused).toMatchObject({ name: 'InvalidRequestError', status: 400, code: 'invalid_request' });
    expect(Object.keys((refused as PurserError).fieldErrors)).toEqual(['amount_cents']);
    expect((refused as PurserError).docs).toMatch(/invalid_request/);
    expect((refused as PurserError).requestId).toBeTruthy();

    const missing = await unwrap(
      purser.GET('/api/v2/users/{user_id}/wallet', { params: { path: { user_id: 'usr_nobody' } } }),
    ).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('renews the platform token when it expires, and when the service refuses it', async () => {
    const mints = () => sent.filter((r) => r.path === '/api/v2/oauth/token').length;
    const before = mints();
    const first = await purser.token();
    sdkNow += 3_600_000;
    const renewed = await purser.token();
    expect(renewed).not.toBe(first);
    expect(mints()).toBe(before + 1);

    // The service's clock runs ahead: it refuses the token the SDK still holds; one mint, one retry.
    t.clock.advance(3_600_000);
    expect(await unwrap(purser.GET('/api/v2'))).toMatchObject({ object: 'api_v2' });
    expect(mints()).toBe(before + 2);
  });

  it('verifies a webhook the service really delivered, with the endpoint secret', async () => {
    await new Worker(t.ctx, quiet).runOnce();
    await receiver.waitFor(6);
    const types: string[] = [];
    for (const delivery of receiver.received) {
      const header = delivery.headers['service-signature'];
      expect(verifySignature(delivery.body, header, secret, { now: new Date(t.clock.now()) })).toBe(true);
      expect(verifySignature(delivery.body, header, 'whsec_wrong', { now: new Date(t.clock.now()) })).toBe(
        false,
      );
      const event = constructEvent(delivery.body, header, secret, { now: new Date(t.clock.now()) });
      expect(event.id).toMatch(/^evt_/);
      types.push(event.type);
    }
    expect(types.sort()).toEqual([...Array(5).fill('card.created'), 'order.placed']);
  });
});
