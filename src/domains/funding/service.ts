import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import type { Principal } from '../auth/index.ts';
import type { EventEmitter } from '../cards/index.ts';
import { type Card, type CardService, type SpendingControlsInput, sandboxScope } from '../cards/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { Chain } from './chain/index.ts';
import type { FundingConfig } from './config.ts';
import { CardFlows, type FlowLog } from './flow.ts';
import { FundingOnChain } from './on-chain.ts';
import { verifyOwnership } from './ownership.ts';
import { ChainReturns } from './returns.ts';
import type { CompanyWallet } from './store.ts';
import * as store from './store.ts';

export interface FundingDeps {
  ledger: LedgerService;
  events: EventEmitter;
  cards: CardService;
  chain: Chain;
  dialect: Dialect;
}

/**
 * Company wallets and the company-funded card flow (issue 12; spec §3, §4, §6): the door the routes,
 * the worker, the CLI and the cards domain call. The pool is the ledger's `company_pool` account of
 * the organization and mode; every cent moves through the ledger, with its events, in one transaction.
 */
export class FundingService {
  readonly flows: CardFlows;
  readonly returns: ChainReturns;
  /** Deposits, reconciliation and the pool key on the chain (on-chain.ts). */
  readonly onChain: FundingOnChain;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly config: FundingConfig,
    readonly deps: FundingDeps,
  ) {
    this.flows = new CardFlows(db, clock, config, { ...deps, funding: this });
    this.returns = new ChainReturns(db, clock, config, { ...deps, funding: this });
    this.onChain = new FundingOnChain(db, clock, deps, this);
    // A company-funded card's money comes from and returns to the pool (docs/funding.md, Ownership).
    deps.cards.setCompanyPool(this);
    deps.ledger.addCheck(verifyOwnership);
  }

  get chain(): Chain {
    return this.deps.chain;
  }

  // ---- the company wallet

  async wallet(scope: Tenant) {
    const row = await this.ensureWallet(this.db, scope);
    const pool = await this.poolAccount(this.db, scope);
    const balance = await this.deps.ledger.balance(this.db, pool);
    return {
      object: 'company_wallet' as const,
      balance_cents: balance.available_cents,
      reserved_cents: balance.pending_cents,
      deposit_address: await this.deps.chain.depositAddress(scope.organizationId, scope.livemode),
      low_balance_threshold_cents: row.low_balance_threshold_cents,
      test_mode: !scope.livemode,
    };
  }

  async updateWallet(scope: Tenant, input: { low_balance_threshold_cents: number }) {
    await this.deps.ledger.transaction(async (trx) => {
      const before = await this.ensureWallet(trx, scope);
      await store.updateWallet(trx, scope.organizationId, livemodeColumn(scope.livemode), {
        low_balance_threshold_cents: input.low_balance_threshold_cents,
        updated_at: this.clock.now(),
      });
      // A new threshold above the balance is a crossing too.
      await this.checkLowBalance(trx, scope, 0, before.low_balance_threshold_cents);
    });
    return this.wallet(scope);
  }

  /** Sandbox funding of the company pool (`POST /api/v2/simulate/company_funding`). */
  simulateFunding(principal: Principal, amountCents: number) {
    return this.fund(sandboxScope(principal, 'Funding a company wallet by simulation'), amountCents);
  }

  /** Credits the pool from the organization's funding source (a simulation, the CLI, the developer kit). */
  async fund(scope: Tenant, amountCents: number) {
    await this.deps.ledger.transaction((trx) => this.creditPool(trx, scope, amountCents));
    return this.wallet(scope);
  }

  /**
   * The pool credited from the organization's funding source, in the caller's transaction, with
   * `wallet.funded`. `deposit` names an on-chain deposit (on-chain.ts): its id makes a deposit seen
   * twice credit once; absent, a simulation.
   */
  async creditPool(
    trx: Executor,
    scope: Tenant,
    amountCents: number,
    deposit?: { transferId: string; txHash: string },
  ): Promise<void> {
    await this.ensureWallet(trx, scope);
    const source = await this.deps.ledger.accountId(trx, {
      ...scope,
      kind: 'funding_source',
      ownerId: scope.organizationId,
    });
    const pool = await this.poolAccount(trx, scope);
    const [outcome] = await this.deps.ledger.execute(trx, [
      {
        type: 'posted',
        id: deposit?.transferId ?? newId('fund'),
        debitAccountId: source,
        creditAccountId: pool,
        amount: amountCents,
        code: deposit ? 'company_deposit' : 'sandbox_company_funding',
      },
    ]);
    if (!outcome?.created) return;
    const balance = await this.deps.ledger.balance(trx, pool);
    await this.emit(trx, scope, 'wallet.funded', {
      amount_cents: amountCents,
      balance_cents: balance.available_cents,
      tx_hash: deposit?.txHash ?? null,
    });
    await this.checkLowBalance(trx, scope);
  }

  /** The organization's fee on company-funded transfers, per mode (operators: `purser wallet fees`). */
  async setFees(scope: Tenant, fees: { bps: number; fixedCents: number }) {
    await this.ensureWallet(this.db, scope);
    await store.updateWallet(this.db, scope.organizationId, livemodeColumn(scope.livemode), {
      fee_bps: fees.bps,
      fee_fixed_cents: fees.fixedCents,
      updated_at: this.clock.now(),
    });
  }

  // ---- card flows (flow.ts)

  startFlow(
    principal: Principal,
    input: {
      user_id: string;
      amount_cents: number;
      type: Card['type'];
      external_user_id?: string | undefined;
      ack_required?: boolean | undefined;
      spending_controls?: SpendingControlsInput | undefined;
    },
  ) {
    return this.flows.start(principal, input);
  }

  getFlow(scope: Tenant, id: string) {
    return this.flows.get(scope, id);
  }

  collectionSucceeded(scope: Tenant, id: string) {
    return this.flows.acknowledge(scope, id, true);
  }

  collectionFailed(scope: Tenant, id: string) {
    return this.flows.acknowledge(scope, id, false);
  }

  /** The worker's pass: every flow with a step due takes it. */
  advanceFlows(log?: FlowLog) {
    return this.flows.advance(log);
  }

  /** The worker's pass over released money on its way back to the pool on the chain (returns.ts). */
  advanceReturns(log?: FlowLog) {
    return this.returns.advance(log);
  }

  async listFlows(organizationId: string, livemode: boolean | null, limit = 50) {
    const rows = await store.listFlows(
      this.db,
      organizationId,
      livemode === null ? null : livemodeColumn(livemode),
      limit,
    );
    return rows.map((row) => this.flows.object(row));
  }

  // ---- shared with flow.ts

  /** The wallet row (created on first use with the configured defaults), locked for a change. */
  async ensureWallet(exec: Executor, scope: Tenant): Promise<CompanyWallet> {
    const livemode = livemodeColumn(scope.livemode);
    await store.ensureWallet(exec, {
      organization_id: scope.organizationId,
      livemode,
      low_balance_threshold_cents: this.config.lowBalanceThresholdCents,
      fee_bps: this.config.feeBps,
      fee_fixed_cents: this.config.feeFixedCents,
      created_at: this.clock.now(),
    });
    const row = await store.lockWallet(exec, scope.organizationId, livemode);
    if (!row) throw new Error('company wallet could not be opened');
    return row;
  }

  /**
   * The company wallet row locked (`ensureWallet`), which every draw from the pool locks before the
   * ledger's accounts (the one order: docs/ledger.md), and the pool's account id, for the caller to
   * lock with the transaction's other accounts. A credit to the pool needs neither: the ledger takes
   * it without the pool's lock (a release, `releaseToPool`).
   */
  async lockPool(exec: Executor, scope: Tenant): Promise<string> {
    await this.ensureWallet(exec, scope);
    return this.poolAccount(exec, scope);
  }

  poolAccount(exec: Executor, scope: Tenant): Promise<string> {
    return this.deps.ledger.accountId(exec, {
      ...scope,
      kind: 'company_pool',
      ownerId: scope.organizationId,
    });
  }

  /**
   * `wallet.balance.low` once per crossing: when the pool's balance is under the threshold and it
   * has not fired since the balance was last at or above it. Called with the wallet row locked.
   * Releases credit the pool without that lock and leave the flag as they found it; but the balance
   * falls only in a transaction that holds the row, and the most it was since the last such is what
   * it was before this one's draws (`drawnCents`). At or above the threshold then (the one it had
   * until this transaction changed it, `previousThreshold`), it recovered since the event fired.
   */
  async checkLowBalance(
    trx: Executor,
    scope: Tenant,
    drawnCents = 0,
    previousThreshold?: number,
  ): Promise<void> {
    const livemode = livemodeColumn(scope.livemode);
    const row = await store.wallet(trx, scope.organizationId, livemode);
    if (!row) return;
    const pool = await this.poolAccount(trx, scope);
    const { available_cents: balance } = await this.deps.ledger.balance(trx, pool);
    const recovered = balance + drawnCents >= (previousThreshold ?? row.low_balance_threshold_cents);
    const notified = row.low_balance_notified === 1 && !recovered;
    const under = balance < row.low_balance_threshold_cents;
    if (under && !notified) {
      await this.emit(trx, scope, 'wallet.balance.low', {
        balance_cents: balance,
        threshold_cents: row.low_balance_threshold_cents,
      });
      if (row.low_balance_notified === 0)
        await store.updateWallet(trx, scope.organizationId, livemode, { low_balance_notified: 1 });
    } else if (!under && row.low_balance_notified === 1) {
      await store.updateWallet(trx, scope.organizationId, livemode, { low_balance_notified: 0 });
    }
  }

  emit(trx: Executor, scope: Tenant, type: string, data: Record<string, unknown>) {
    return this.deps.events.emit(trx, { ...scope, type, data });
  }

  /**
   * THE one place company money returns to the pool: whatever a company-funded card frees (its
   * balance at close, a lower limit, a clearing below the hold, a void or expiry after it closed)
   * moves from the card to the pool, never to the user's wallet (the company paid for a card, not
   * for the user's headroom), and fires `transfer.released` once per release.
   *
   * Where the money sits on a chain (CHAIN=evm, production) its tokens are at the user's deposit
   * address: the release is held (card → pool) with a durable job that moves them back, in the
   * caller's transaction; the hold posts and the event fires, with the return's `tx_hash`, once they
   * are back at the pool (returns.ts), so the pool never counts tokens it does not hold. Elsewhere
   * it posts at once, with the event (`tx_hash: null`).
   *
   * A credit to the pool: it locks neither the company wallet row nor the pool's account (the ledger
   * appends it), so the single-use cards of one organization close at their first approval without
   * waiting on each other (docs/ledger.md). The low-balance flag is left to the next draw.
   */
  async releaseToPool(
    trx: Executor,
    card: Card,
    release: { transferId: string; amountCents: number },
  ): Promise<void> {
    const scope = tenantOf(card);
    const [account, pool] = await Promise.all([
      this.deps.cards.cardAccount(trx, scope, card.id),
      this.poolAccount(trx, scope),
    ]);
    const code = 'company_card_release';
    const event = {
      transfer_id: card.transfer_id,
      cardholder_id: card.cardholder_id,
      card_id: card.id,
      amount_cents: release.amountCents,
    };
    if (this.deps.chain.movesTokens(scope.livemode)) {
      await this.returns.begin(trx, {
        id: release.transferId,
        ...scope,
        userId: card.user_id,
        cardAccount: account,
        pool,
        amountCents: release.amountCents,
        code,
        event,
      });
      return;
    }
    const [outcome] = await this.deps.ledger.execute(trx, [
      {
        type: 'posted',
        id: release.transferId,
        debitAccountId: account,
        creditAccountId: pool,
        amount: release.amountCents,
        code,
      },
    ]);
    if (!outcome?.created) return;
    await this.emit(trx, scope, 'transfer.released', { ...event, tx_hash: null });
  }

  /**
   * Company money onto its company-funded card, from the pool: a charge over the hold of a card that
   * closed since (its balance went back to the pool). Refused (`exceeds_credits`) when the pool does
   * not cover it; never taken from the user's wallet.
   */
  async drawFromPool(
    trx: Executor,
    card: Card,
    draw: { transferId: string; amountCents: number },
  ): Promise<void> {
    const scope = tenantOf(card);
    await this.ensureWallet(trx, scope);
    const [account, pool] = await Promise.all([
      this.deps.cards.cardAccount(trx, scope, card.id),
      this.poolAccount(trx, scope),
    ]);
    await this.deps.ledger.execute(trx, [
      {
        type: 'posted',
        id: draw.transferId,
        debitAccountId: pool,
        creditAccountId: account,
        amount: draw.amountCents,
        code: 'company_card_funding',
      },
    ]);
    await this.checkLowBalance(trx, scope, draw.amountCents);
  }
}
