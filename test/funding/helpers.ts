import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { OfflineChain } from '../../src/domains/funding/chain/index.ts';
import type { CardFlows } from '../../src/domains/funding/flow.ts';
import { type CardsFixture, startCards } from '../cards/helpers.ts';

export { expectError } from '../helpers/fixtures.ts';

/** A card flow as the API answers it. */
export type Flow = ReturnType<CardFlows['object']>;

/** Statuses a flow ends in. */
export const FINAL = ['card_created', 'failed', 'card_failed'];

/** The cards fixture, a new organization before each test, and steps of the company-funded flow. */
export interface FundingFixture extends CardsFixture {
  chain: OfflineChain;
  /** Sandbox funding of the company wallet (with the sandbox token unless another is given). */
  fundPool(amountCents: number, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** `GET /api/v2/wallet` with the sandbox token, parsed. */
  pool(): Promise<{ balance_cents: number; reserved_cents: number; low_balance_threshold_cents: number }>;
  startFlow(
    userId: string,
    amountCents: number,
    extra?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** Starts a flow that must be accepted (202), returning its object. */
  flow(userId: string, amountCents: number, extra?: Record<string, unknown>): Promise<Flow>;
  /** Takes the flow's due step, the clock moving a millisecond first (events keep their order). */
  step(transferId: string): Promise<boolean>;
  /** Takes the flow's due steps one at a time (the clock moving a millisecond between them); its final state. */
  drive(transferId: string): Promise<Flow>;
  getFlow(transferId: string, token?: string): Promise<LightMyRequestResponse>;
  /** This organization's events as `{type, data}`, oldest first; only those of one transfer when named. */
  flowEvents(transferId?: string): Promise<{ type: string; data: Record<string, unknown> }[]>;
  ack(
    transferId: string,
    outcome: 'collection_succeeded' | 'collection_failed',
    key?: string,
  ): Promise<LightMyRequestResponse>;
  /** Ledger account totals of the organization's sandbox accounts of a kind. */
  account(
    kind: 'company_pool' | 'fees' | 'user_wallet',
    ownerId?: string,
  ): Promise<{ available: number; pending: number }>;
}

/**
 * The funding fixture of a whole test file. `start` builds the cards app it extends: `startCards`,
 * or another fixture built on it (`startMcp`, for MCP tools on company-funded cards).
 */
export function useFunding<Base extends CardsFixture = CardsFixture>(
  env: Record<string, string> = {},
  start: (env: Record<string, string>, target: Base) => Promise<Base> = startCards as never,
): FundingFixture & Base {
  const fixture = {} as FundingFixture & Base;
  beforeAll(async () => {
    await start(env, fixture);
    const f = fixture;
    const { t } = f;
    Object.assign(f, {
      chain: t.ctx.funding.chain as OfflineChain,
      // Each call moves the clock a millisecond first, so that events keep their order by time.
      fundPool: (amountCents: number, headers?: Record<string, string>) =>
        t.clock.advance(1) ??
        t.call('POST', '/api/v2/simulate/company_funding', {
          token: f.sandbox,
          body: { amount_cents: amountCents },
          ...(headers ? { headers } : {}),
        }),
      async pool() {
        const response = await t.call('GET', '/api/v2/wallet', { token: f.sandbox });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      },
      startFlow: (userId: string, amountCents: number, extra = {}, headers?: Record<string, string>) =>
        t.clock.advance(1) ??
        t.call('POST', '/api/v2/cards', {
          token: f.sandbox,
          body: {
            user_id: userId,
            amount_cents: amountCents,
            type: 'multi_use',
            funding: 'company',
            ...extra,
          },
          ...(headers ? { headers } : {}),
        }),
      async flow(userId: string, amountCents: number, extra = {}) {
        const response = await f.startFlow(userId, amountCents, extra);
        expect(response.statusCode, response.body).toBe(202);
        return response.json();
      },
      step(transferId: string) {
        t.clock.advance(1);
        return t.ctx.funding.flows.takeStep(transferId);
      },
      async drive(transferId: string) {
        for (let i = 0; i < 20; i++) {
          t.clock.advance(1);
          if (!(await t.ctx.funding.flows.takeStep(transferId))) break;
        }
        const response = await f.getFlow(transferId);
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      },
      getFlow: (transferId: string, token = f.sandbox) =>
        t.call('GET', `/api/v2/card_flows/${transferId}`, { token }),
      async flowEvents(transferId?: string) {
        const rows = await t.ctx.db
          .selectFrom('events')
          .select(['type', 'data'])
          .where('organization_id', '=', f.org.organization_id)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        return rows
          .map((row) => ({ type: row.type, data: JSON.parse(row.data) }))
          .filter((e) => transferId === undefined || e.data.transfer_id === transferId);
      },
      ack: (transferId: string, outcome: string, key = f.org.sandbox.api_key) => {
        t.clock.advance(1);
        return t.call('POST', `/api/v1/wallet/transfers/${transferId}/${outcome}`, { token: key });
      },
      async account(kind: string, ownerId = f.org.organization_id) {
        const row = await t.ctx.db
          .selectFrom('ledger_accounts')
          .selectAll()
          .where('organization_id', '=', f.org.organization_id)
          .where('livemode', '=', 0)
          .where('kind', '=', kind as 'fees')
          .where('owner_id', '=', ownerId)
          .executeTakeFirst();
        if (!row) return { available: 0, pending: 0 };
        // Through the ledger: a mirror account's (fees) totals are its row's plus unfolded deltas.
        const balance = await t.ctx.ledger.balance(t.ctx.db, row.id);
        return { available: balance.available_cents, pending: balance.pending_cents };
      },
    });
  });
  // A new organization for each test: its pool, flows and events are the test's own.
  beforeEach(async () => {
    fixture.org = await fixture.t.createOrg('Funding Co');
    await fixture.renewTokens();
  });
  afterAll(async () => {
    await fixture.expectSound();
    await fixture.close();
  });
  return fixture;
}
