import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { EvmChain } from '../../src/domains/funding/chain/evm.ts';
import type { ChainReconciliation } from '../../src/domains/funding/reconcile.ts';
import * as fundingStore from '../../src/domains/funding/store.ts';
import { type CardsFixture, startCards } from '../cards/helpers.ts';
import { type LocalChain, startLocalChain } from '../helpers/chain.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';
import type { Flow } from './helpers.ts';

/** The cards app with `CHAIN=evm` on a local anvil, a new organization before each test, and its live steps. */
export interface EvmFixture extends CardsFixture {
  chain: LocalChain;
  evm: EvmChain;
  env: Record<string, string>;
  /** The organization's production pool address (`GET /api/v2/wallet` with the production token). */
  poolAddress(): Promise<string>;
  /** `GET /api/v2/wallet` with the production token. */
  pool(): Promise<{ balance_cents: number; reserved_cents: number; deposit_address: string | null }>;
  /** A connected production user whose verification is approved (as a review would decide it). */
  liveUser(): Promise<string>;
  userAddress(userId: string): Promise<string>;
  /** The user's production wallet balance in cents. */
  liveWallet(userId: string): Promise<number>;
  /** A production company-funded flow, accepted (202). */
  flow(userId: string, amountCents: number): Promise<Flow>;
  getFlow(transferId: string): Promise<Flow>;
  /** Takes the flow's due step, the clock moving a millisecond first. */
  step(transferId: string): Promise<boolean>;
  /** Takes steps, mining a block whenever the flow waits on confirmations, until it ends. */
  drive(transferId: string): Promise<Flow>;
  /** The organization's production events as `{type, data}`, oldest first (of one transfer when named). */
  liveEvents(transferId?: string): Promise<{ type: string; data: Record<string, unknown> }[]>;
  /** `chain reconcile` through the service: every production address against the books. */
  reconcile(): Promise<ChainReconciliation>;
  /**
   * Takes the steps of every return to the pool on the chain, mining a block whenever one waits on
   * confirmations, until none is left under way.
   */
  driveReturns(): Promise<void>;
  /** The deposits recorded for the organization. */
  deposits(): Promise<
    { tx_hash: string; log_index: number; units: string; credited_cents: number; kind: string }[]
  >;
}

const FINAL = ['card_created', 'failed', 'card_failed'];

/** Starting anvil, compiling the token and the app take a while on a busy machine. */
const SETUP_TIMEOUT_MS = 180_000;

export function useEvm(extraEnv: Record<string, string> = {}): EvmFixture {
  const f = {} as EvmFixture;
  beforeAll(async () => {
    const chain = await startLocalChain();
    const env = chain.env(extraEnv);
    await startCards(env, f);
    const { t } = f;
    Object.assign(f, {
      chain,
      env,
      evm: t.ctx.funding.chain as EvmChain,
      async pool() {
        const response = await t.call('GET', '/api/v2/wallet', { token: f.production });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      },
      async poolAddress() {
        return (await f.pool()).deposit_address!;
      },
      async liveUser() {
        const { userId } = await connectUser(
          f.t,
          f.production,
          { email: uniqueEmail('evm') },
          { production: true },
        );
        const kyc = await t.call('GET', `/api/v2/kyc?user_id=${userId}`, { token: f.production });
        expect(kyc.statusCode, kyc.body).toBe(200);
        await t.ctx.db
          .updateTable('kyc_verifications')
          .set({ status: 'approved' })
          .where('user_id', '=', userId)
          .execute();
        return userId;
      },
      async userAddress(userId: string) {
        const address = await t.ctx.funding.onChain.userDepositAddress(
          { organizationId: f.org.organization_id, livemode: true },
          userId,
        );
        return address!;
      },
      async liveWallet(userId: string) {
        const response = await t.call('GET', `/api/v2/users/${userId}/wallet`, { token: f.production });
        expect(response.statusCode, response.body).toBe(200);
        return response.json().balance_cents;
      },
      async flow(userId: string, amountCents: number) {
        t.clock.advance(1);
        const response = await t.call('POST', '/api/v2/cards', {
          token: f.production,
          body: { user_id: userId, amount_cents: amountCents, type: 'multi_use', funding: 'company' },
        });
        expect(response.statusCode, response.body).toBe(202);
        return response.json();
      },
      async getFlow(transferId: string) {
        const response = await t.call('GET', `/api/v2/card_flows/${transferId}`, { token: f.production });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      },
      step(transferId: string) {
        t.clock.advance(1);
        return t.ctx.funding.flows.takeStep(transferId);
      },
      async drive(transferId: string) {
        for (let i = 0; i < 20; i++) {
          if (await f.step(transferId)) continue;
          const flow = await f.getFlow(transferId);
          if (FINAL.includes(flow.status)) return flow;
          // Waiting on the chain: one more block deepens the transfer.
          await chain.mine(1);
        }
        return f.getFlow(transferId);
      },
      async liveEvents(transferId?: string) {
        const rows = await t.ctx.db
          .selectFrom('events')
          .select(['type', 'data'])
          .where('organization_id', '=', f.org.organization_id)
          .where('livemode', '=', 1)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        return rows
          .map((row) => ({ type: row.type, data: JSON.parse(row.data) }))
          .filter((e) => transferId === undefined || e.data.transfer_id === transferId);
      },
      async reconcile() {
        const check = await t.ctx.funding.onChain.reconcileChain();
        expect(check).not.toBeNull();
        return check!;
      },
      async driveReturns() {
        const underWay = () =>
          t.ctx.db.selectFrom('chain_returns').select('id').where('status', '!=', 'returned').execute();
        for (let i = 0; i < 20 && (await underWay()).length > 0; i++) {
          t.clock.advance(1);
          if ((await t.ctx.funding.advanceReturns()) === 0) await chain.mine(1);
        }
        expect(await underWay()).toEqual([]);
      },
      async deposits() {
        const rows = await fundingStore.deposits(t.ctx.db, f.org.organization_id, 1);
        return rows.map((row) => ({
          tx_hash: row.tx_hash,
          log_index: Number(row.log_index),
          units: row.units,
          credited_cents: Number(row.credited_cents),
          kind: row.kind,
        }));
      },
    });
  }, SETUP_TIMEOUT_MS);
  beforeEach(async () => {
    f.org = await f.t.createOrg('Chain Co');
    await f.renewTokens();
  });
  afterAll(async () => {
    // Every chain test ends with the chain and the books in agreement, and the ledger sound.
    expect((await f.reconcile()).drifts).toEqual([]);
    await f.expectSound();
    // The pool secret never reaches a log.
    expect(f.t.logs.text).not.toContain(f.env.CHAIN_POOL_KEY!.slice(2));
    await f.close();
    await f.chain.close();
  });
  return f;
}
