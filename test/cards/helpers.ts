import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { connectUser, uniqueEmail } from '../connect/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

export { expectError } from '../connect/helpers.ts';

export interface CardsFixture {
  t: TestApp;
  org: CreatedOrganization;
  /** Sandbox and production platform tokens of the organization. */
  token: string;
  liveToken: string;
  /** A connected sandbox user whose verification is approved, with `fund` cents in their wallet. */
  approvedUser(fund?: number): Promise<string>;
  /** A connected sandbox user, not verified. */
  connectedUser(): Promise<string>;
  fund(userId: string, amountCents: number): Promise<LightMyRequestResponse>;
  createCard(
    userId: string,
    amountCents: number,
    type?: 'single_use' | 'multi_use',
  ): Promise<Record<string, unknown>>;
  authorize(cardId: string, amountCents: number, merchant?: string): Promise<Record<string, unknown>>;
  wallet(userId: string): Promise<number>;
  /** The data of this organization's events of one type, oldest first. */
  events(type: string): Promise<Record<string, unknown>[]>;
  /** Mints new platform tokens (after the clock moved past their hour). */
  renewTokens(): Promise<void>;
  /** Every ledger invariant holds. */
  expectSound(): Promise<void>;
  close(): Promise<void>;
}

export async function startCards(env: Record<string, string> = {}): Promise<CardsFixture> {
  const t = await startTestApp(env);
  const org = await t.createOrg();
  const token = await t.platformToken(org.sandbox);
  const liveToken = await t.platformToken(org.production);
  const fixture: CardsFixture = {
    t,
    org,
    token,
    liveToken,
    async connectedUser() {
      return (await connectUser(t, fixture.token, { email: uniqueEmail('card') })).userId;
    },
    async approvedUser(fund = 0) {
      const userId = await fixture.connectedUser();
      const approved = await t.call('POST', '/api/v2/kyc/simulate', {
        token: fixture.token,
        body: { user_id: userId, outcome: 'approved' },
      });
      expect(approved.statusCode, approved.body).toBe(200);
      if (fund > 0) expect((await fixture.fund(userId, fund)).statusCode).toBe(200);
      return userId;
    },
    fund: (userId, amountCents) =>
      t.call('POST', '/api/v2/simulate/wallet_funding', {
        token: fixture.token,
        body: { user_id: userId, amount_cents: amountCents },
      }),
    async createCard(userId, amountCents, type = 'multi_use') {
      const response = await t.call('POST', '/api/v2/cards', {
        token: fixture.token,
        body: { user_id: userId, amount_cents: amountCents, type },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    },
    async authorize(cardId, amountCents, merchant = 'Corner Shop') {
      const response = await t.call('POST', '/api/v2/simulate/authorize', {
        token: fixture.token,
        body: { card_id: cardId, amount_cents: amountCents, merchant, mcc: '5411' },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
    async wallet(userId) {
      const response = await t.call('GET', `/api/v2/users/${userId}/wallet`, { token: fixture.token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().balance_cents;
    },
    async events(type) {
      const rows = await t.ctx.db
        .selectFrom('events')
        .select(['data'])
        .where('organization_id', '=', org.organization_id)
        .where('type', '=', type)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => JSON.parse(row.data));
    },
    async renewTokens() {
      fixture.token = await t.platformToken(org.sandbox);
      fixture.liveToken = await t.platformToken(org.production);
    },
    async expectSound() {
      expect(await t.ctx.ledger.verify()).toEqual([]);
    },
    close: () => t.close(),
  };
  return fixture;
}
