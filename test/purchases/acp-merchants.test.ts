import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { ManualClock, SECOND } from '../../src/core/clock.ts';
import { type AcpOrderEvent, acpWebhookRoutes } from '../../src/domains/purchases/acp-webhook-routes.ts';
import { MerchantConfigs } from '../../src/domains/purchases/merchant-config.ts';
import { purser } from '../cli/process.ts';
import { FakeAcpMerchant } from '../helpers/fake-acp-merchant.ts';
import { freshDatabaseUrl, onPostgres } from '../helpers/harness.ts';

/*
 * Configured ACP merchants on a real database (SQLite, or PostgreSQL with TEST_DATABASE_URL): the
 * `purser merchant` commands, credentials sealed at rest, a stored merchant quoting against the
 * fake merchant, and the order webhooks route (verified, forged, stale, unknown merchant).
 */

const API_KEY = `sk_acp_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;

let fake: FakeAcpMerchant;
let ctx: AppContext;
let app: FastifyInstance;
let appUrl: string;
let drop: () => Promise<void>;
const clock = new ManualClock(Date.now());
const events: { slug: string; event: AcpOrderEvent }[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  fake = await new FakeAcpMerchant(API_KEY).start();
  const database = freshDatabaseUrl();
  drop = database.drop;
  const settings = {
    DATABASE_URL: database.url,
    BASE_URL: 'http://purser.test',
    LOG_LEVEL: 'silent',
    // The fake merchant listens on 127.0.0.1: a private destination, allowed as on a developer's machine.
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    ...(onPostgres ? { ENCRYPTION_KEY: randomBytes(32).toString('base64') } : {}),
  };
  ctx = await createContext(loadConfig(settings), { clock });
  // The real app (which serves the routes for the purchase loop), and the same routes under
  // /recorded handing each verified event to this test instead.
  app = await buildApp(ctx);
  await app.register(acpWebhookRoutes, {
    prefix: '/recorded',
    merchants: ctx.merchants,
    clock: ctx.clock,
    onOrderEvent: async (slug, event) => {
      events.push({ slug, event });
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The CLI opens the same database with the same key (SQLite: the key file beside it).
  env = { ...settings };
});

afterAll(async () => {
  await app?.close();
  await ctx?.close();
  await fake?.close();
  await drop?.();
});

const merchants = () =>
  new MerchantConfigs({ db: ctx.db, clock: ctx.clock, sealer: ctx.sealer, outbound: ctx.config.outbound });

describe('purser merchant', () => {
  it('adds, lists and removes a merchant; the key and secret are never printed nor stored in clear', {
    timeout: 120_000,
  }, async () => {
    const added = await purser(
      [
        'merchant',
        'add',
        '--slug',
        'teashop',
        '--name',
        'Tea Shop',
        '--acp-url',
        fake.url,
        '--api-key',
        API_KEY,
        '--webhook-secret',
        WEBHOOK_SECRET,
        '--countries',
        'US,ca',
        '--currency',
        'USD',
        '--mcc',
        '5499',
        '--json',
      ],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({
      object: 'merchant',
      id: expect.stringMatching(/^mch_/),
      slug: 'teashop',
      name: 'Tea Shop',
      protocol: 'acp',
      acp_url: fake.url,
      countries: ['US', 'CA'],
      currency: 'usd',
      mcc: '5499',
      livemode: true,
      webhooks: true,
      created_at: expect.any(String),
    });
    expect(added.stdout + added.stderr).not.toContain(API_KEY);
    expect(added.stdout + added.stderr).not.toContain(WEBHOOK_SECRET);

    const rows = await ctx.db.selectFrom('merchants').selectAll().execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(API_KEY);
    expect(stored).not.toContain(WEBHOOK_SECRET);
    expect(rows[0]!.api_key_sealed).toMatch(/^v1\./);
    expect(rows[0]!.webhook_secret_sealed).toMatch(/^v1\./);
    expect(rows[0]!.livemode).toBe(1);

    const listed = await purser(['merchant', 'list', '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ slug: 'teashop', webhooks: true })]);
    const text = await purser(['merchant', 'list'], env);
    expect(text.stdout).toContain('teashop');
    expect(text.stdout).not.toContain(API_KEY);

    // The sandbox merchants' slugs and malformed slugs are refused.
    const clash = await purser(
      ['merchant', 'add', '--slug', 'retail', '--name', 'R', '--acp-url', fake.url, '--api-key', API_KEY],
      env,
    );
    expect(clash.code).not.toBe(0);
    expect(clash.stderr).toMatch(/not valid/);
    expect(clash.stderr).not.toContain(API_KEY);
    const badCategory = await purser(
      [
        'merchant',
        'add',
        '--slug',
        'cafe',
        '--name',
        'C',
        '--acp-url',
        fake.url,
        '--api-key',
        API_KEY,
        '--mcc',
        '54',
      ],
      env,
    );
    expect(badCategory.code).not.toBe(0);
    expect(badCategory.stderr).toMatch(/not valid/);
  });

  it('a stored merchant opens its sealed key and quotes at the merchant', async () => {
    const shop = await merchants().load('teashop');
    expect(shop).not.toBeNull();
    expect(shop!.info).toEqual({
      slug: 'teashop',
      name: 'Tea Shop',
      market: { countries: ['US', 'CA'], currency: 'usd' },
      mcc: '5499',
      country: 'US',
      protocol: 'acp',
      sandbox: false,
    });
    const quote = await shop!.quote([{ product_id: 'sku_mug', qty: 1 }], null, null);
    expect(quote.items).toEqual([
      { product_id: 'sku_mug', name: 'Blue ceramic mug', qty: 1, priceCents: 1250 },
    ]);
    // The fake answers 401 to any other key: the one sent is the one configured.
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.validationErrors).toEqual([]);
    expect(await merchants().load('nobody')).toBeNull();
    // The purchase loop's directory (what GET /buy/merchants lists) has it beside the sandbox merchants.
    expect(await ctx.purchases.merchants()).toContainEqual({
      slug: 'teashop',
      name: 'Tea Shop',
      market: { countries: ['US', 'CA'], currency: 'usd' },
      mcc: '5499',
      country: 'US',
      protocol: 'acp',
      sandbox: false,
    });
    // The directory the purchase loop lists: the same adapter each time, while the row is the same.
    const configs = merchants();
    const [listed] = await configs.all();
    expect(listed!.info.slug).toBe('teashop');
    expect((await configs.all())[0]).toBe(listed);
    expect(await configs.load('teashop')).toBe(listed);
  });

  it('checks slugs, URLs, countries and currencies', async () => {
    const base = { name: 'X', acpUrl: fake.url, apiKey: API_KEY };
    const fieldErrors = async (input: Parameters<MerchantConfigs['add']>[0], configs = merchants()) => {
      try {
        await configs.add(input);
      } catch (error) {
        return (error as { fieldErrors: Record<string, string> }).fieldErrors;
      }
      throw new Error('accepted');
    };
    expect(await fieldErrors({ ...base, slug: 'coffee' })).toEqual({
      slug: expect.stringContaining('sandbox'),
    });
    expect(await fieldErrors({ ...base, slug: 'Tea_Shop' })).toHaveProperty('slug');
    expect(await fieldErrors({ ...base, slug: 'x' })).toHaveProperty('slug');
    expect(await fieldErrors({ ...base, slug: 'teashop' })).toEqual({ slug: 'is already taken' });
    expect(await fieldErrors({ ...base, slug: 'ok-shop', countries: ['USA'] })).toHaveProperty('countries');
    expect(await fieldErrors({ ...base, slug: 'ok-shop', currency: 'dollars' })).toHaveProperty('currency');
    expect(await fieldErrors({ ...base, slug: 'ok-shop', apiKey: 'has space in it' })).toHaveProperty(
      'api_key',
    );
    expect(
      await fieldErrors({ ...base, slug: 'ok-shop', acpUrl: 'http://169.254.169.254/acp' }),
    ).toHaveProperty('acp_url');
    // Where private destinations are not allowed (the default in production), only https to a public host.
    const strict = new MerchantConfigs({
      db: ctx.db,
      clock: ctx.clock,
      sealer: ctx.sealer,
      outbound: { ...ctx.config.outbound, allowPrivateDestinations: { production: false, sandbox: false } },
    });
    expect(
      await fieldErrors({ ...base, slug: 'ok-shop', acpUrl: 'http://shop.example/acp' }, strict),
    ).toEqual({
      acp_url: 'must use https',
    });
    expect(
      await fieldErrors({ ...base, slug: 'ok-shop', acpUrl: 'https://127.0.0.1/acp' }, strict),
    ).toHaveProperty('acp_url');
    // A merchant inside the operator's network, named in OUTBOUND_ALLOWED_PRIVATE_HOSTS: plain http to it
    // is taken (it is checked again at each request's resolved address); any other name still needs https.
    const named = new MerchantConfigs({
      db: ctx.db,
      clock: ctx.clock,
      sealer: ctx.sealer,
      outbound: {
        ...ctx.config.outbound,
        allowPrivateDestinations: { production: false, sandbox: false },
        allowedPrivateHosts: ['shop.internal', '10.1.2.3'],
      },
    });
    // (A bad country keeps it from being added: only which fields are refused matters here.)
    for (const acpUrl of ['http://shop.internal:8080/acp', 'http://10.1.2.3/acp'])
      expect(
        Object.keys(await fieldErrors({ ...base, slug: 'ok-shop', countries: ['USA'], acpUrl }, named)),
        acpUrl,
      ).toEqual(['countries']);
    expect(
      await fieldErrors({ ...base, slug: 'ok-shop', acpUrl: 'http://10.1.2.4/acp' }, named),
    ).toHaveProperty('acp_url');
    expect(await fieldErrors({ ...base, slug: 'ok-shop', acpUrl: 'http://shop.example/acp' }, named)).toEqual(
      { acp_url: 'must use https' },
    );
    expect(await ctx.db.selectFrom('merchants').select('slug').execute()).toEqual([{ slug: 'teashop' }]);
  });
});

describe('order webhooks', () => {
  const post = (slug: string, request: { body: string; headers: Record<string, string> }) =>
    fetch(`${appUrl}/recorded/buy/merchants/${slug}/webhooks`, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });

  it('a correctly signed event reaches the purchase loop; forged, stale and unsigned ones are 401', async () => {
    const shop = (await merchants().load('teashop'))!;
    const quote = await shop.quote([{ product_id: 'sku_mug', qty: 1 }], null, null);
    const sessionId = quote.merchantRef!;
    events.length = 0;

    // Signed at the app's clock (the test moves it below), not the machine's.
    const signed = fake.orderWebhook(sessionId, WEBHOOK_SECRET, {
      type: 'order_update',
      status: 'shipped',
      timestampSeconds: Math.floor(clock.now() / 1000),
    });
    const ok = await post('teashop', signed);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ received: true, request_id: signed.headers['request-id'] });
    expect(events).toEqual([
      {
        slug: 'teashop',
        event: {
          type: 'order_update',
          checkoutSessionId: sessionId,
          orderId: `ord_${sessionId}`,
          status: 'shipped',
          permalink: `https://merchant.test/orders/${sessionId}`,
          refunds: [],
        },
      },
    ]);

    const refused = async (request: { body: string; headers: Record<string, string> }) => {
      const response = await post('teashop', request);
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_signature');
      return body.error.message;
    };
    expect(await refused(fake.orderWebhook(sessionId, WEBHOOK_SECRET, { tamper: true }))).toMatch(
      /does not match/,
    );
    expect(await refused(fake.orderWebhook(sessionId, 'whsec_someone_else_entirely'))).toMatch(
      /does not match/,
    );
    const stale = fake.orderWebhook(sessionId, WEBHOOK_SECRET, {
      timestampSeconds: Math.floor((clock.now() - 301 * SECOND) / 1000),
    });
    expect(await refused(stale)).toMatch(/5 minutes/);
    const { 'merchant-signature': _dropped, ...unsigned } = signed.headers;
    expect(await refused({ body: signed.body, headers: unsigned })).toMatch(/missing/);
    expect(
      await refused({ body: signed.body, headers: { ...signed.headers, 'merchant-signature': 'v1=abc' } }),
    ).toMatch(/must be/);
    // The same signed request is still accepted after the clock moves within the tolerance...
    clock.advance(200 * SECOND);
    expect((await post('teashop', signed)).status).toBe(200);
    // ...and refused once it is older than five minutes.
    clock.advance(200 * SECOND);
    expect(await refused(signed)).toMatch(/5 minutes/);
    expect(events).toHaveLength(2);
  });

  it('an unknown merchant is 404; a merchant without a webhook secret accepts no event', async () => {
    const signed = fake.orderWebhook('cs_x', WEBHOOK_SECRET);
    const unknown = await post('nobody', signed);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');

    await merchants().add({ slug: 'quiet-shop', name: 'Quiet', acpUrl: fake.url, apiKey: API_KEY });
    const quiet = await post('quiet-shop', signed);
    expect(quiet.status).toBe(401);
    expect(events.filter((e) => e.slug !== 'teashop')).toEqual([]);
  });

  const signedBody = (payload: unknown) => {
    const t = Math.floor(clock.now() / 1000);
    const body = JSON.stringify(payload);
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex');
    return {
      body,
      headers: { 'content-type': 'application/json', 'merchant-signature': `t=${t},v1=${signature}` },
    };
  };

  it('a signed body that is not an order event is 400', async () => {
    const response = await post('teashop', signedBody({ type: 'order_update', data: { type: 'order' } }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('an event shaped like the protocol example (EventDataOrder: no data.id) is taken by its checkout session, its completed refunds read', async () => {
    events.length = 0;
    const example = {
      type: 'order_update',
      data: {
        type: 'order',
        checkout_session_id: 'cs_01HV3P3ABC123',
        permalink_url: 'https://merchant.example.com/orders/ord_123456',
        status: 'processing',
        // The protocol's order_with_refund example: a completed refund is read, others are not.
        adjustments: [
          {
            id: 'adj_1',
            type: 'refund',
            occurred_at: '2026-02-10T14:30:00Z',
            status: 'completed',
            amount: 10760,
            currency: 'usd',
            description: 'Defective item refund (inclusive of tax)',
          },
          { id: 'adj_2', type: 'refund', status: 'pending', amount: 500 },
          { id: 'adj_3', type: 'dispute', status: 'completed', amount: 500 },
        ],
      },
    };
    const response = await post('teashop', signedBody(example));
    expect(response.status).toBe(200);
    expect(events).toEqual([
      {
        slug: 'teashop',
        event: {
          type: 'order_update',
          checkoutSessionId: 'cs_01HV3P3ABC123',
          orderId: null,
          status: 'processing',
          permalink: 'https://merchant.example.com/orders/ord_123456',
          refunds: [{ id: 'adj_1', amountCents: 10760 }],
        },
      },
    ]);
  });
});

describe('removal', () => {
  it('purser merchant remove takes the merchant away; its webhooks are then 404', {
    timeout: 60_000,
  }, async () => {
    const removed = await purser(['merchant', 'remove', 'teashop'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(await merchants().load('teashop')).toBeNull();
    const again = await purser(['merchant', 'remove', 'teashop'], env);
    expect(again.code).not.toBe(0);
    const response = await fetch(`${appUrl}/recorded/buy/merchants/teashop/webhooks`, {
      method: 'POST',
      ...fake.orderWebhook('cs_x', WEBHOOK_SECRET),
    });
    expect(response.status).toBe(404);
  });
});
