import type { Clock } from '../../core/clock.ts';
import type { AuthorizationDecision } from '../../core/metrics.ts';
import { cursorOf, pageOf } from '../../core/pagination.ts';
import { missing } from '../../core/refusal.ts';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { LedgerService } from '../ledger/index.ts';
import { Clearing } from './clearing.ts';
import type { CardConfig } from './config.ts';
import { AuthorizationEngine, type ChargeRequest } from './network.ts';
import type { CardService } from './service.ts';
import type { IssuerReport, RefundOptions, Settlement } from './settlement.ts';
import * as store from './store.ts';

/**
 * The card network's door (spec §3): what a network presents (the sandbox simulator's `simulate`
 * calls, Lithic's webhooks, a `/buy` merchant's charge) and the worker's sweep. A charge goes to the
 * one authorization engine (network.ts); its clearing, voids, refunds, the issuer's reports and
 * upstream close to clearing.ts and settlement.ts, which take the engine's steps.
 */
export class CardNetwork {
  /** Decides every charge; its steps are shared by every later move of a card's money. */
  readonly engine: AuthorizationEngine;
  /** Refunds, incremental authorizations and the issuer's reports (settlement.ts). */
  private readonly settlement: Settlement;
  /** Clearing, voids, expiry and the issuer's close (clearing.ts). */
  private readonly clearing: Clearing;

  constructor(
    private readonly db: Db,
    clock: Clock,
    config: CardConfig,
    deps: { ledger: LedgerService; cards: CardService },
  ) {
    this.engine = new AuthorizationEngine(clock, config, deps);
    this.settlement = this.engine.settlement;
    this.clearing = new Clearing(db, clock, { ...deps, engine: this.engine, settlement: this.settlement });
    deps.ledger.addCheck((exec) => this.settlement.verifyRefunds(exec));
  }

  /**
   * Decides a charge on a card: approved (PENDING, funds held) or DECLINED (nothing moves). A
   * network's id seen before gets its first decision, unless it now asks for more than it was
   * authorized (an incremental authorization): the difference is held, or `IncrementDeclined`.
   */
  authorize(scope: Tenant, cardId: string, charge: ChargeRequest) {
    return this.engine.authorize(scope, cardId, charge);
  }

  /** Told of every authorization's decision and how long it took (/metrics). */
  observeDecisions(observer: (decision: AuthorizationDecision, seconds: number) => void): void {
    this.engine.observeDecisions(observer);
  }

  /** Settles an authorization at its final amount (clearing.ts). */
  clear(
    scope: Tenant,
    transactionId: string,
    amountCents?: number,
    within?: (trx: Executor) => Promise<void>,
    options: { rewardShareBps?: number } = {},
  ) {
    return this.clearing.clear(scope, transactionId, amountCents, within, options);
  }

  /** Reverses what an authorization still holds, all or part (clearing.ts). */
  void(scope: Tenant, transactionId: string, amountCents?: number) {
    return this.clearing.void(scope, transactionId, amountCents);
  }

  /**
   * Gives back `amountCents` (what is left when omitted) of a settled purchase as a `refund`
   * transaction: to the card while open, else to its owner; never more in total than settled.
   */
  refund(scope: Tenant, transactionId: string, options: RefundOptions = {}) {
    return this.settlement.refund(scope, transactionId, options);
  }

  /** Brings the books in step with what the issuer reports of one of its transactions, once. */
  applyIssuerReport(scope: Tenant, cardId: string, report: IssuerReport) {
    return this.settlement.applyIssuerReport(scope, cardId, report);
  }

  /** The issuer closed the card upstream (clearing.ts). */
  providerClose(scope: Tenant, cardId: string) {
    return this.clearing.providerClose(scope, cardId);
  }

  async getTransaction(scope: Tenant, id: string) {
    const txn = await store.transaction(this.db, scope.organizationId, livemodeColumn(scope.livemode), id);
    if (!txn) throw missing('No such transaction.');
    return this.engine.present(this.db, txn);
  }

  async listTransactions(
    scope: Tenant,
    query: {
      card_id?: string;
      user_id?: string;
      /** Internal (the MCP tool server): only transactions of cards this client created. */
      client_id?: string;
      limit: number;
      starting_after?: string;
    },
  ) {
    const livemode = livemodeColumn(scope.livemode);
    const after = await cursorOf(
      query.starting_after,
      (id) => store.transaction(this.db, scope.organizationId, livemode, id),
      'a transaction',
    );
    const rows = await store.listTransactions(this.db, {
      organizationId: scope.organizationId,
      livemode,
      cardId: query.card_id,
      userId: query.user_id,
      clientId: query.client_id,
      startingAfter: after,
      limit: query.limit + 1,
    });
    const page = pageOf(rows, query.limit);
    return { ...page, data: await Promise.all(page.data.map((txn) => this.engine.present(this.db, txn))) };
  }

  /** The worker's sweep: authorizations never cleared are voided once they expire (clearing.ts). */
  expireAuthorizations(limit = 100): Promise<number> {
    return this.clearing.expireAuthorizations(limit);
  }
}
