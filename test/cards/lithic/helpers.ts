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
      const { userId } = await connectUser(
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
      return userId;
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
