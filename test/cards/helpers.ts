import { afterAll, beforeAll, expect } from 'vitest';
import { approvedUser, connectedUser, fundWallet, type OrgApp, startOrgApp } from '../helpers/fixtures.ts';

export { expectError } from '../helpers/fixtures.ts';

/** An app with one organization (`OrgApp`: `sandbox` and `production` platform tokens) and card steps. */
export interface CardsFixture extends OrgApp {
  /** A connected sandbox user whose verification is approved, with `fund` cents in their wallet. */
  approvedUser(fund?: number): Promise<string>;
  /** A connected sandbox user, not verified. */
  connectedUser(): Promise<string>;
  fund(userId: string, amountCents: number): ReturnType<typeof fundWallet>;
  createCard(
    userId: string,
    amountCents: number,
    type?: 'single_use' | 'multi_use',
  ): Promise<Record<string, unknown>>;
  authorize(cardId: string, amountCents: number, merchant?: string): Promise<Record<string, unknown>>;
  wallet(userId: string): Promise<number>;
  /** The data of this organization's events of one type, oldest first. */
  events(type: string): Promise<Record<string, unknown>[]>;
  /** Every ledger invariant holds. */
  expectSound(): Promise<void>;
}

export async function startCards(
  env: Record<string, string> = {},
  target = {} as CardsFixture,
): Promise<CardsFixture> {
  const app = await startOrgApp({ env }, target);
  const { t, org } = app;
  const steps: Omit<CardsFixture, keyof OrgApp> = {
    connectedUser: () => connectedUser(t, app.sandbox, { prefix: 'card' }),
    approvedUser: (fund = 0) => approvedUser(t, app.sandbox, { fund, prefix: 'card' }),
    fund: (userId, amountCents) => fundWallet(t, app.sandbox, userId, amountCents),
    async createCard(userId, amountCents, type = 'multi_use') {
      const response = await t.call('POST', '/api/v2/cards', {
        token: app.sandbox,
        body: { user_id: userId, amount_cents: amountCents, type },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    },
    async authorize(cardId, amountCents, merchant = 'Corner Shop') {
      const response = await t.call('POST', '/api/v2/simulate/authorize', {
        token: app.sandbox,
        body: { card_id: cardId, amount_cents: amountCents, merchant, mcc: '5411' },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    },
    async wallet(userId) {
      const response = await t.call('GET', `/api/v2/users/${userId}/wallet`, { token: app.sandbox });
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
    async expectSound() {
      expect(await t.ctx.ledger.verify()).toEqual([]);
    },
  };
  return Object.assign(app, steps);
}

/**
 * The cards app of a whole test file: started before all its tests, closed after them once the
 * ledger proved its invariants (every file that uses it moves money).
 */
export function useCards(): CardsFixture {
  const fixture = {} as CardsFixture;
  beforeAll(() => startCards({}, fixture));
  afterAll(async () => {
    await fixture.expectSound();
    await fixture.close();
  });
  return fixture;
}
