import type { AddressInfo } from 'node:net';
import Lithic from 'lithic';
import { expect } from 'vitest';
import { FakeLithic } from '../../helpers/fake-lithic.ts';
import { connectUser, uniqueEmail } from '../../helpers/fixtures.ts';
import { type CardsFixture, startCards } from '../helpers.ts';

export interface LithicFixture {
  f: CardsFixture;
  fake: FakeLithic;
  /** The test's own SDK client on the fake, driving its simulator (not Purser's requests). */
  driver: Lithic;
  /** A connected production user, approved, with `fund` cents in their wallet. */
  liveUser(fund: number): Promise<string>;
  /** `liveUser`, with the production app's connection token for them. */
  liveConnection(fund: number): Promise<{ userId: string; accessToken: string }>;
  /** Moves money between a live user's wallet and the funding source (a deposit, or spending elsewhere). */
  deposit(userId: string, amountCents: number): Promise<void>;
  issue(
    userId: string,
    amountCents: number,
    type?: 'single_use' | 'multi_use',
  ): Promise<Record<string, unknown>>;
  liveWallet(userId: string): Promise<number>;
  liveCard(cardId: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** The settings of Purser with `CARD_ISSUER=lithic` on this fake. */
export function lithicEnv(fake: FakeLithic): Record<string, string> {
  return {
    CARD_ISSUER: 'lithic',
    LITHIC_BASE_URL: fake.url,
    LITHIC_API_KEY: fake.apiKey,
    LITHIC_ASA_SECRET: fake.asaSecret,
    LITHIC_EVENTS_SECRET: fake.eventsSecret,
  };
}

/**
 * Purser with `CARD_ISSUER=lithic` on a real loopback socket, and a fake Lithic calling it back;
 * `env` adds settings.
 */
export async function startLithic(env: Record<string, string> = {}): Promise<LithicFixture> {
  const fake = await new FakeLithic().start();
  const f = await startCards({ ...lithicEnv(fake), ...env });
  await f.t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.purserUrl = `http://127.0.0.1:${(f.t.app.server.address() as AddressInfo).port}`;
  fake.now = () => f.t.clock.now();
  const scope = { organizationId: f.org.organization_id, livemode: true };
  const account = (kind: 'funding_source' | 'user_wallet', ownerId: string) =>
    f.t.ctx.ledger.account(f.t.ctx.db, { ...scope, kind, ownerId });
  let deposits = 0;
  const fixture: LithicFixture = {
    f,
    fake,
    driver: new Lithic({ apiKey: fake.driverKey, baseURL: fake.url, maxRetries: 0, logLevel: 'off' }),
    async liveUser(fund) {
      return (await fixture.liveConnection(fund)).userId;
    },
    async liveConnection(fund) {
      const { userId, accessToken } = await connectUser(
        f.t,
        f.production,
        { email: uniqueEmail('lithic') },
        { production: true },
      );
      const kyc = await f.t.call('GET', `/api/v2/kyc?user_id=${userId}`, { token: f.production });
      expect(kyc.statusCode, kyc.body).toBe(200);
      await f.t.ctx.db
        .updateTable('kyc_verifications')
        .set({ status: 'approved' })
        .where('user_id', '=', userId)
        .execute();
      if (fund > 0) await fixture.deposit(userId, fund);
      return { userId, accessToken };
    },
    async deposit(userId, amountCents) {
      const [source, wallet] = await Promise.all([
        account('funding_source', scope.organizationId),
        account('user_wallet', userId),
      ]);
      await f.t.ctx.ledger.move([
        {
          type: 'posted',
          id: `deposit_${++deposits}_${userId}`,
          debitAccountId: amountCents > 0 ? source.id : wallet.id,
          creditAccountId: amountCents > 0 ? wallet.id : source.id,
          amount: Math.abs(amountCents),
          code: 'deposit',
        },
      ]);
    },
    async issue(userId, amountCents, type = 'multi_use') {
      const response = await f.t.call('POST', '/api/v2/cards', {
        token: f.production,
        body: { user_id: userId, amount_cents: amountCents, type },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    },
    async liveWallet(userId) {
      const response = await f.t.call('GET', `/api/v2/users/${userId}/wallet`, { token: f.production });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().balance_cents;
    },
    async liveCard(cardId) {
      const response = await f.t.call('GET', `/api/v2/cards/${cardId}`, { token: f.production });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
    async close() {
      // Every change Purser asked of Lithic carried an idempotency key; no secret reached the log.
      for (const request of fake.requests.filter((r) => r.method !== 'GET')) {
        expect(request.idempotencyKey, `${request.method} ${request.path}`).toBeTruthy();
      }
      expect(f.t.logs.text).not.toContain(fake.apiKey);
      for (const secret of [fake.asaSecret, fake.eventsSecret])
        expect(f.t.logs.text).not.toContain(secret.slice(6));
      await f.expectSound();
      await f.close();
      await fake.close();
    },
  };
  return fixture;
}

/** Runs `scenario` with Lithic's transaction events held back: the events it produced, oldest first. */
export async function heldEvents(
  l: LithicFixture,
  scenario: () => Promise<unknown>,
): Promise<Record<string, unknown>[]> {
  const from = l.fake.transactionEvents.length;
  l.fake.holdEvents = true;
  try {
    await scenario();
  } finally {
    l.fake.holdEvents = false;
  }
  return l.fake.transactionEvents.slice(from);
}

/** Delivers one event: acknowledged, and every ledger invariant still holds. */
export async function deliverEvent(l: LithicFixture, event: Record<string, unknown>): Promise<void> {
  const delivery = await l.fake.deliver('/webhooks/lithic/events', event);
  expect(delivery.status, delivery.body).toBe(200);
  expect(await l.f.t.ctx.ledger.verify()).toEqual([]);
}

/** Another order than oldest first and newest first: the odd ones, then the even ones, each newest first. */
export const shuffled = <T>(items: T[]): T[] => [
  ...items.filter((_, i) => i % 2 === 1).reverse(),
  ...items.filter((_, i) => i % 2 === 0).reverse(),
];

/**
 * A case twice, with Lithic's events held back while it runs: on one card (from `setup`) its events
 * delivered in order then all again; on a second card newest first, then all again in another
 * order. Both cards end in the same `state`, returned with the first card and its events.
 * `afterEach` runs after each event of the first, in-order delivery (its index); `afterEvery` after
 * every delivery of both cards.
 */
export async function driveTwice<Live, State>(
  l: LithicFixture,
  options: {
    setup: () => Promise<Live>;
    scenario: (live: Live) => Promise<unknown>;
    state: (live: Live) => Promise<State>;
    afterEach?: ((index: number, live: Live) => Promise<void>) | undefined;
    afterEvery?: ((live: Live) => Promise<void>) | undefined;
  },
): Promise<{ live: Live; end: State; events: Record<string, unknown>[] }> {
  const { setup, scenario, state } = options;
  const deliver = async (live: Live, event: Record<string, unknown>) => {
    await deliverEvent(l, event);
    await options.afterEvery?.(live);
  };
  const first = await setup();
  const events = await heldEvents(l, () => scenario(first));
  expect(events.length).toBeGreaterThan(0);
  for (const [index, event] of events.entries()) {
    await deliver(first, event);
    await options.afterEach?.(index, first);
  }
  const end = await state(first);
  for (const event of events) await deliver(first, event);
  expect(await state(first), 'delivered again').toEqual(end);

  const second = await setup();
  const later = await heldEvents(l, () => scenario(second));
  for (const event of [...later].reverse()) await deliver(second, event);
  expect(await state(second), 'newest first').toEqual(end);
  for (const event of shuffled(later)) await deliver(second, event);
  expect(await state(second), 'again, in another order').toEqual(end);
  return { live: first, end, events };
}
