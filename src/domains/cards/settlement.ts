import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { invalid, missing, Refusal } from '../../core/refusal.ts';
import { livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import type { LedgerService, TransferRequest, Violation } from '../ledger/index.ts';
import type { CardConfig } from './config.ts';
import type { MandateRefusal, SpendingControlRefusal } from './controls.ts';
import type { CardRefusalCode } from './index.ts';
import { type IssuerOutcome, type IssuerReport, IssuerReports } from './issuer-reports.ts';
import type { AuthorizationEngine, CardTransaction, ChargeRequest, DeclineReason } from './network.ts';
import type { Card, CardService } from './service.ts';
import type { ChargeControls } from './spending-controls.ts';
import * as store from './store.ts';

export type { IssuerOutcome, IssuerReport } from './issuer-reports.ts';

/** How a refund is asked for (`Settlement.refund`). */
export interface RefundOptions {
  /** What to give back; all that is left when omitted. */
  amountCents?: number | undefined;
  /** The refund transaction's id, from its source: the same id again is the same refund. */
  id?: string | undefined;
  /** Give what is left when it is less than asked, instead of `400`. */
  atMost?: boolean | undefined;
}

/** A repeated authorization for more (an incremental one) the engine declined; the hold stays as it was. */
export class IncrementDeclined extends Error {
  constructor(
    readonly reason: DeclineReason,
    /** The spending control (or the card's mandate) that refused it, when one did. */
    readonly control?: SpendingControlRefusal | MandateRefusal | undefined,
  ) {
    super(`incremental authorization declined: ${reason}`);
  }
}

/** The accounts a settlement moves money between, and what the two that must not go negative can spend. */
export interface Books {
  card: string;
  network: string;
  /** The organization's outside money: what neither the card nor its owner could cover. */
  source: string;
  cardAvailable: number;
  /**
   * What the card's owner can spend: the user's wallet, or the company pool for a company-funded
   * card; null when the transaction did not lock it (it then only receives: `lockBooks`).
   */
  ownerAvailable: number | null;
}

/**
 * Money after the authorization (docs/cards.md, "Refunds" and "Lithic, events"): refunds, incremental
 * authorizations, and the issuer's reports — later and incremental clearings, clearings after a void
 * or an expiry, force posts, returns and their reversals. Each runs on the locked card, its transfers
 * in one ledger batch, with its rows and events in the same transaction. The issuer's reports are
 * followed in issuer-reports.ts; the books, refunds and rewards here are its steps too.
 */
export class Settlement {
  private readonly reports: IssuerReports;

  constructor(
    private readonly clock: Clock,
    private readonly config: CardConfig,
    private readonly deps: { ledger: LedgerService; cards: CardService; engine: AuthorizationEngine },
  ) {
    this.reports = new IssuerReports(clock, config, { ...deps, settlement: this });
  }

  // ---- refunds

  /**
   * Gives back `amountCents` (all that is left when omitted) of a settled purchase: a `refund`
   * transaction, SETTLED at once, to the card while it is open and to its owner once it is closed.
   * Never more in total than was settled. The one refund of every source (the sandbox, a merchant's
   * order refunds, mandates giving budget back): `options.id` makes it idempotent (a refund of that id
   * already made is answered again, nothing moves); `options.atMost` gives what is left when less than
   * asked (a merchant's word on an order, which must not fail for it) instead of refusing.
   */
  async refund(scope: Tenant, transactionId: string, options: RefundOptions = {}) {
    return this.deps.ledger.transaction(async (trx) => {
      const livemode = livemodeColumn(scope.livemode);
      const found = await store.transaction(trx, scope.organizationId, livemode, transactionId);
      if (!found) throw missing('No such transaction.');
      const card = await this.deps.cards.lockCard(trx, scope, found.card_id);
      // Under the card's lock: a refund of this id made meanwhile is seen.
      const made = options.id ? await store.transactionById(trx, options.id) : undefined;
      if (made?.type === 'refund' && made.original_transaction_id === transactionId)
        return this.deps.engine.present(trx, made, card);
      const txn = (await store.transactionById(trx, transactionId)) as CardTransaction;
      if (txn.type === 'refund')
        throw new Refusal<CardRefusalCode>(
          'transaction_not_refundable',
          'A refund cannot itself be refunded.',
        );
      const settled = txn.settled_cents ?? 0;
      if (settled <= 0) {
        throw new Refusal<CardRefusalCode>(
          'transaction_not_settled',
          `The transaction is ${txn.status} and has settled nothing; only settled money can be refunded.`,
        );
      }
      const left = settled - txn.refunded_cents;
      if (left <= 0)
        throw new Refusal<CardRefusalCode>(
          'transaction_refunded',
          'The transaction has been refunded in full.',
        );
      const asked = options.amountCents ?? left;
      const amount = options.atMost ? Math.min(asked, left) : asked;
      if (amount > left) {
        throw invalid(`amount_cents is more than the ${left} cents left to refund.`, {
          amount_cents: `must be at most ${left}, what is left to refund of ${settled} settled`,
        });
      }
      // The card's mandate, then the books: the lock order of docs/ledger.md.
      await this.deps.cards.lockMandate(trx, card);
      // A closed card sends what it gets back on to its owner.
      await this.deps.cards.lockBooks(trx, card, { owner: card.status === 'CLOSED' });
      const books = await this.books(trx, card);
      const id = options.id ?? newId('txn');
      await this.deps.ledger.execute(trx, [this.giveBack(id, amount, books)]);
      const refund = await this.recordRefund(trx, card, txn, { id, amount, before: books.cardAvailable });
      // Budget back to the card's mandate.
      await this.deps.engine.followMandate(trx, card, txn.id);
      return this.deps.engine.present(trx, refund, card);
    });
  }

  /** Purchases whose refunds add up to more than they settled, or to other than they record (`ledger verify`). */
  async verifyRefunds(exec: Executor): Promise<Violation[]> {
    const rows = await store.refundTotals(exec);
    return rows.flatMap((row): Violation[] => {
      const refunds = Number(row.refunds);
      const settled = Number(row.settled_cents ?? 0);
      if (refunds > settled) {
        return [
          {
            invariant: 'refund_above_settled',
            subject: row.id,
            detail: `refunds give back ${refunds} of ${settled} cents settled`,
          },
        ];
      }
      if (refunds !== Number(row.refunded_cents)) {
        return [
          {
            invariant: 'refund_total',
            subject: row.id,
            detail: `refunded_cents is ${row.refunded_cents} but its refunds sum to ${refunds}`,
          },
        ];
      }
      return [];
    });
  }

  // ---- incremental authorizations

  /**
   * The issuer asks again for a transaction it authorized, for a larger total (a tip, fuel, a
   * hotel's extension): the difference is decided like any charge — the card's status, the spending
   * controls (the increment counts against the windows' limits; a `per_authorization` limit judges
   * the new total), the balance — and held with the rest, or the request is declined
   * (`IncrementDeclined`) and the hold stays as it was. The platform is not asked again.
   */
  async increase(
    trx: Executor,
    card: Card,
    controls: ChargeControls,
    txn: CardTransaction,
    charge: ChargeRequest,
  ) {
    const totalCents = charge.amountCents;
    const increment = totalCents - txn.amount_cents;
    if (txn.status !== 'PENDING' || increment <= 0) return this.deps.engine.present(trx, txn, card);
    const books = await this.books(trx, card);
    // The merchant is the authorization's: the network does not change it on an increment.
    const outcome = await this.deps.engine.decide(
      trx,
      card,
      controls,
      {
        ...charge,
        amountCents: increment,
        mcc: txn.mcc,
        merchantCountry: txn.merchant_country,
        priorCents: txn.amount_cents - txn.voided_cents,
      },
      books.cardAvailable,
    );
    if ('decline' in outcome) throw new IncrementDeclined(outcome.decline, outcome.control);
    const held = await this.openHold(trx, txn);
    const hold = `${txn.id}.hold.${totalCents}`;
    await this.deps.ledger.execute(trx, [
      ...(held > 0
        ? [{ type: 'void_pending' as const, id: `${hold}.replaces`, pendingId: txn.hold_id as string }]
        : []),
      {
        type: 'pending',
        id: hold,
        debitAccountId: books.card,
        creditAccountId: books.network,
        amount: held + increment,
        code: 'card_authorization',
      },
    ]);
    const now = this.clock.now();
    const changes = {
      amount_cents: totalCents,
      hold_id: hold,
      authorizations: txn.authorizations + 1,
      updated_at: now,
    };
    await store.updateTransaction(trx, txn.id, changes);
    // The increment from the card's mandate's budget (judged by `decide`, its row locked with the card's).
    await this.deps.engine.followMandate(trx, card, txn.id);
    const increased = { ...txn, ...changes };
    const after = await this.deps.engine.afterMove(
      trx,
      card,
      increased,
      'transaction.authorized',
      books.cardAvailable,
    );
    return this.deps.engine.present(trx, increased, after);
  }

  /** Brings the books in step with what the issuer reports of a transaction on this card, once (issuer-reports.ts). */
  applyIssuerReport(scope: Tenant, cardId: string, report: IssuerReport): Promise<IssuerOutcome> {
    return this.reports.applyIssuerReport(scope, cardId, report);
  }

  // ---- steps, also those of issuer-reports.ts

  /** Money back from the merchant, onto the card (a closed card sends it home: `afterMove`). */
  giveBack(id: string, amount: number, books: Books): TransferRequest {
    return {
      type: 'posted',
      id: `${id}.refund`,
      debitAccountId: books.network,
      creditAccountId: books.card,
      amount,
      code: 'card_refund',
    };
  }

  /** The refund transaction for money just given back, its purchase's total, and `transaction.refunded`. */
  async recordRefund(
    trx: Executor,
    card: Card,
    original: CardTransaction | null,
    refund: {
      id: string;
      amount: number;
      before: number;
      merchant?: string;
      mcc?: string | null;
      issuer?: { settledCents: number; version: number };
    },
  ): Promise<CardTransaction> {
    const now = this.clock.now();
    const row: CardTransaction = {
      id: refund.id,
      organization_id: card.organization_id,
      livemode: card.livemode,
      card_id: card.id,
      user_id: card.user_id,
      type: 'refund',
      original_transaction_id: original?.id ?? null,
      status: 'SETTLED',
      amount_cents: refund.amount,
      settled_cents: refund.amount,
      refunded_cents: 0,
      merchant: original?.merchant ?? refund.merchant ?? 'Unknown merchant',
      mcc: original?.mcc ?? refund.mcc ?? null,
      decline_reason: null,
      hold_id: null,
      expires_at: null,
      issuer_settled_cents: refund.issuer?.settledCents ?? null,
      issuer_version: refund.issuer?.version ?? null,
      force_posted: 0,
      voided_cents: 0,
      authorizations: 0,
      merchant_country: original?.merchant_country ?? null,
      spending_control: null,
      authorization_decided_by: null,
      platform_reason: null,
      created_at: now,
      updated_at: now,
    };
    await store.insertTransaction(trx, row);
    if (original) {
      await store.updateTransaction(trx, original.id, {
        refunded_cents: original.refunded_cents + refund.amount,
        updated_at: now,
      });
    }
    await this.deps.engine.afterMove(trx, card, row, 'transaction.refunded', refund.before);
    return row;
  }

  /**
   * Rewards (docs/cards.md): `cents` settled × interchange is the organization's pool, and
   * `reward_share_bps` of it goes to the user as tokens, 1 token = 1 cent of credit, rounded down.
   * Each settlement earns once (`id`); a refund does not take back what was earned.
   */
  /** Whether a clearing on this card can earn the user a reward (the wallet then takes part). */
  async paysRewards(trx: Executor, card: Card, shareOverride?: number): Promise<boolean> {
    if (shareOverride !== undefined) return shareOverride > 0;
    const settings = await this.deps.cards.organizationSettings(trx, card.organization_id);
    return (settings?.reward_share_bps ?? 0) > 0;
  }

  async reward(
    trx: Executor,
    card: Card,
    txn: CardTransaction,
    cents: number,
    id: string,
    shareOverride?: number,
  ): Promise<void> {
    const settings =
      shareOverride === undefined
        ? await this.deps.cards.organizationSettings(trx, card.organization_id)
        : undefined;
    const share = shareOverride ?? settings?.reward_share_bps ?? 0;
    const tokens = Math.floor((cents * this.config.interchangeBps * share) / 100_000_000);
    if (tokens <= 0) return;
    const scope = scopeOfCard(card);
    const [rewards, wallet] = await Promise.all([
      this.deps.cards.systemAccount(trx, scope, 'rewards'),
      this.deps.cards.walletAccount(trx, scope, card.user_id),
    ]);
    await this.deps.ledger.execute(trx, [
      {
        type: 'posted',
        id,
        debitAccountId: rewards,
        creditAccountId: wallet,
        amount: tokens,
        code: 'reward',
      },
    ]);
    await this.deps.cards.emit(trx, card, 'reward.earned', {
      tokens,
      merchant: txn.merchant,
      card_id: card.id,
      user_id: card.user_id,
    });
  }

  /** What the transaction's hold still holds (0 once posted or released). */
  private openHold(trx: Executor, txn: CardTransaction): Promise<number> {
    return this.deps.engine.heldBy(trx, txn);
  }

  async books(trx: Executor, card: Card): Promise<Books> {
    const scope = scopeOfCard(card);
    const { cards, ledger } = this.deps;
    const [account, network, owner, source] = await Promise.all([
      cards.cardAccount(trx, scope, card.id),
      cards.systemAccount(trx, scope, 'network_settlement'),
      card.transfer_id
        ? ledger.accountId(trx, { ...scope, kind: 'company_pool', ownerId: scope.organizationId })
        : cards.walletAccount(trx, scope, card.user_id),
      cards.systemAccount(trx, scope, 'funding_source'),
    ]);
    return {
      card: account,
      network,
      source,
      cardAvailable: (await ledger.balance(trx, account)).available_cents,
      ownerAvailable: ledger.lockedBalance(trx, owner)?.available_cents ?? null,
    };
  }
}

function scopeOfCard(card: Pick<Card, 'organization_id' | 'livemode'>): Tenant {
  return tenantOf(card);
}
