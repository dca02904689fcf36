import type { Clock } from '../../core/clock.ts';
import { DAY } from '../../core/clock.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import { LedgerRefusal, type LedgerService, type TransferRequest } from '../ledger/index.ts';
import type { CardConfig } from './config.ts';
import type { AuthorizationEngine, CardTransaction } from './network.ts';
import type { Card, CardService } from './service.ts';
import type { Books, Settlement } from './settlement.ts';
import * as store from './store.ts';

/**
 * What an issuer reports of one of its transactions, in our terms (lithic/webhooks.ts builds it
 * from Lithic's `card_transaction.updated`). Each report is the whole transaction as it stands,
 * so applying the newest one brings the books in step whatever came before or was lost.
 */
export interface IssuerReport {
  /** The issuer's transaction token: our transaction id. */
  id: string;
  status: 'PENDING' | 'SETTLED' | 'VOIDED' | 'EXPIRED' | 'DECLINED';
  /** Still held (Lithic `amounts.hold`); zero or below holds nothing. */
  heldCents: number;
  /** Settled in all (Lithic `amounts.settlement`); below zero for money back to the card (a return). */
  settledCents: number;
  /** Orders the reports of one transaction: one at or below the last applied changes nothing. */
  version: number;
  /**
   * Authorization requests the issuer counts as approved for it (the first and each incremental
   * one). Fewer than the engine approved: the report predates our latest decision, and its hold is
   * older than the one the books keep.
   */
  authorizations?: number;
  merchant: string;
  mcc: string | null;
}

/** What applying a report did: `shortfall_cents` is what neither the card nor its owner covered. */
export interface IssuerOutcome {
  outcome: 'applied' | 'repeat' | 'ignored';
  force_posted?: boolean;
  shortfall_cents?: number;
}

/**
 * The issuer's reports (docs/cards.md, "Lithic, events"): later and incremental clearings, clearings
 * after a void or an expiry, force posts, returns and their reversals, each brought into the books
 * once on the locked card. `Settlement` is the door; its books, refunds and rewards are shared.
 */
export class IssuerReports {
  constructor(
    private readonly clock: Clock,
    private readonly config: CardConfig,
    private readonly deps: {
      ledger: LedgerService;
      cards: CardService;
      engine: AuthorizationEngine;
      settlement: Settlement;
    },
  ) {}

  /**
   * Brings the books in step with what the issuer reports of a transaction on this card, exactly
   * once: a report no newer than the last applied changes nothing, so a repeat or a late older
   * report is harmless and the newest always wins.
   */
  async applyIssuerReport(scope: Tenant, cardId: string, report: IssuerReport): Promise<IssuerOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.ledger.transaction(async (trx) => {
          const card = await this.deps.cards.lockCard(trx, scope, cardId);
          await this.deps.cards.lockMandate(trx, card);
          const txn = await store.transactionById(trx, report.id);
          if (txn && txn.card_id !== card.id) return { outcome: 'ignored' as const };
          if (txn?.issuer_version != null && report.version <= txn.issuer_version)
            return { outcome: 'repeat' as const };
          // A report can send money home, pay a reward to the wallet, and, when it settles more than
          // is held, charge the owner: only then is the company pool locked (docs/ledger.md).
          const draws = await this.chargesBeyondHold(trx, txn, report);
          await this.deps.cards.lockBooks(trx, card, { owner: true, draws, wallet: true });
          const applied = await this.applyReport(trx, card, txn, report);
          // The card's mandate takes what the transaction (a return's: its purchase) now holds and settled.
          if (applied.outcome === 'applied') await this.deps.engine.followMandate(trx, card, report.id);
          return applied;
        });
      } catch (error) {
        // The owner's balance was read before the batch and spent meanwhile: read it again.
        const refused = error instanceof LedgerRefusal && error.code === 'exceeds_credits';
        if (attempt < 3 && refused) continue;
        throw error;
      }
    }
  }

  /** A report that is new for its transaction (or of one we never saw) applied to the locked card. */
  private applyReport(
    trx: Executor,
    card: Card,
    txn: CardTransaction | undefined,
    report: IssuerReport,
  ): Promise<IssuerOutcome> {
    if (txn?.type === 'refund') return this.followReturn(trx, card, txn, report);
    if (txn) return this.followPurchase(trx, card, txn, report);
    if (report.settledCents < 0) return this.firstReturn(trx, card, report);
    if (report.settledCents === 0 && report.heldCents <= 0) return this.remember(trx, card, report);
    return this.followPurchase(trx, card, this.unheld(card, report), report, true);
  }

  /**
   * Whether applying the report charges more than the transaction holds (`followPurchase`: a new or
   * larger settlement; `followReturn`: a return reversed), so that its owner may have to pay.
   */
  private async chargesBeyondHold(
    trx: Executor,
    txn: CardTransaction | undefined,
    report: IssuerReport,
  ): Promise<boolean> {
    if (txn?.type === 'refund')
      return report.settledCents > (txn.issuer_settled_cents ?? -(txn.settled_cents ?? 0));
    const settled = txn ? (txn.issuer_settled_cents ?? txn.settled_cents ?? 0) : 0;
    return report.settledCents - settled > (txn ? await this.deps.engine.heldBy(trx, txn) : 0);
  }

  /**
   * A purchase (or one we never saw: `isNew`) moved to the issuer's figures: what settled since is
   * taken from the hold, then the card, its owner, and last the organization's funding source (a
   * shortfall, flagged); a lower settlement is a refund; the hold becomes what the issuer still holds.
   */
  private async followPurchase(
    trx: Executor,
    card: Card,
    txn: CardTransaction,
    report: IssuerReport,
    isNew = false,
  ): Promise<IssuerOutcome> {
    const books = await this.deps.settlement.books(trx, card);
    const before = books.cardAvailable;
    const held = isNew ? 0 : await this.deps.engine.heldBy(trx, txn);
    const change = report.settledCents - (txn.issuer_settled_cents ?? txn.settled_cents ?? 0);
    // Lithic's hold is what it still holds, also beside a partial clearing; a voided, expired or
    // declined transaction holds nothing whatever it says.
    const stale =
      report.status === 'PENDING' &&
      report.authorizations !== undefined &&
      report.authorizations < txn.authorizations;
    const wanted = stale
      ? held
      : report.status === 'PENDING' || report.status === 'SETTLED'
        ? Math.max(0, report.heldCents)
        : 0;
    const step = `${txn.id}.v${report.version}`;
    const transfers: TransferRequest[] = [];
    let fromHold = 0;
    let holding = held > 0;
    if (held > 0 && (change > 0 || wanted !== held)) {
      fromHold = Math.min(Math.max(change, 0), held);
      const pendingId = txn.hold_id as string;
      transfers.push(
        fromHold > 0
          ? { type: 'post_pending', id: `${step}.post`, pendingId, amount: fromHold }
          : { type: 'void_pending', id: `${step}.release`, pendingId },
      );
      books.cardAvailable += held - fromHold;
      holding = false;
    }
    const shortfall =
      change > fromHold ? await this.charge(trx, card, step, change - fromHold, books, transfers) : 0;
    const refundId = change < 0 ? `${txn.id}.refund.${report.version}` : null;
    if (refundId) {
      transfers.push(this.deps.settlement.giveBack(refundId, -change, books));
      books.cardAvailable += -change;
    }
    const holdCents = holding ? 0 : Math.min(wanted, Math.max(0, books.cardAvailable));
    const hold = holdCents > 0 ? `${step}.hold` : null;
    if (hold) {
      transfers.push({
        type: 'pending',
        id: hold,
        debitAccountId: books.card,
        creditAccountId: books.network,
        amount: holdCents,
        code: 'card_authorization',
      });
    }
    if (transfers.length > 0) await this.deps.ledger.execute(trx, transfers);

    const now = this.clock.now();
    const settled = (txn.settled_cents ?? 0) + Math.max(change, 0);
    // A force post: money settled that nothing held, on a transaction that had settled nothing (a
    // clearing after a void or an expiry, or one never authorized here); a later clearing is not one.
    const forced = change > 0 && held === 0 && (txn.settled_cents ?? 0) === 0;
    const status: CardTransaction['status'] =
      report.status === 'PENDING'
        ? 'PENDING'
        : settled > 0
          ? 'SETTLED'
          : txn.status === 'DECLINED'
            ? 'DECLINED'
            : 'VOIDED';
    // The issuer released (part of) the hold without settling it: a void, partial while PENDING.
    const released = held > 0 && !holding && change <= 0 ? Math.max(0, held - holdCents) : 0;
    const changes = {
      status,
      // Authorized: what is held and what voids released, never less than first authorized.
      amount_cents: Math.max(txn.amount_cents, holdCents + txn.voided_cents + released),
      voided_cents: txn.voided_cents + released,
      settled_cents: settled > 0 ? settled : txn.settled_cents,
      hold_id: hold ?? txn.hold_id,
      // The worker expires only a hold that is open: a new one from now, the one kept as it was.
      expires_at: hold ? now + this.config.authorizationExpiryDays * DAY : holding ? txn.expires_at : null,
      issuer_settled_cents: report.settledCents,
      issuer_version: report.version,
      force_posted: forced ? 1 : txn.force_posted,
      updated_at: now,
    };
    const updated: CardTransaction = { ...txn, ...changes };
    if (isNew) await store.insertTransaction(trx, updated);
    else await store.updateTransaction(trx, txn.id, changes);
    const event =
      change > 0
        ? 'transaction.cleared'
        : hold && held === 0 && (isNew || txn.status !== 'PENDING')
          ? 'transaction.authorized'
          : released > 0
            ? 'transaction.voided'
            : null;
    if (event || transfers.length > 0 || isNew) {
      const voided = released > 0 ? { released_cents: released, held_cents: holdCents } : undefined;
      await this.deps.engine.afterMove(trx, card, updated, event, before, { voided });
    }
    if (change > 0) await this.deps.settlement.reward(trx, card, updated, change, `${step}.reward`);
    if (refundId) {
      await this.deps.settlement.recordRefund(trx, card, updated, { id: refundId, amount: -change, before });
    }
    return { outcome: 'applied', force_posted: forced, shortfall_cents: shortfall };
  }

  /**
   * A transaction we never saw, reported with no money in it. Ended (voided, expired, a return
   * reversed), it is kept with its version, moving nothing, so that an older report of it still on
   * its way (the hold, the return) changes nothing either. Declined or pending at zero (Lithic's own
   * declines, account verifications): nothing to keep.
   */
  private async remember(trx: Executor, card: Card, report: IssuerReport): Promise<IssuerOutcome> {
    if (report.status === 'DECLINED' || report.status === 'PENDING') return { outcome: 'ignored' };
    const row = this.unheld(card, report);
    await store.insertTransaction(trx, { ...row, issuer_version: report.version });
    return { outcome: 'applied' };
  }

  /** A credit the issuer settled under a token of its own (a merchant's return): a refund, linked when it can be. */
  private async firstReturn(trx: Executor, card: Card, report: IssuerReport): Promise<IssuerOutcome> {
    const amount = -report.settledCents;
    const original = await store.refundablePurchase(trx, card, report.merchant, amount);
    const books = await this.deps.settlement.books(trx, card);
    await this.deps.ledger.execute(trx, [this.deps.settlement.giveBack(report.id, amount, books)]);
    await this.deps.settlement.recordRefund(trx, card, original ?? null, {
      id: report.id,
      amount,
      before: books.cardAvailable,
      merchant: report.merchant,
      mcc: report.mcc,
      issuer: { settledCents: report.settledCents, version: report.version },
    });
    return { outcome: 'applied' };
  }

  /**
   * A return the issuer reports again: more given back is refunded too; a reversal (the credit taken
   * back) is charged like any settlement (card, owner, funding source) and leaves the refund smaller,
   * VOIDED once nothing of it is left.
   */
  private async followReturn(
    trx: Executor,
    card: Card,
    refund: CardTransaction,
    report: IssuerReport,
  ): Promise<IssuerOutcome> {
    const change = report.settledCents - (refund.issuer_settled_cents ?? -(refund.settled_cents ?? 0));
    const books = await this.deps.settlement.books(trx, card);
    const before = books.cardAvailable;
    const step = `${refund.id}.v${report.version}`;
    const transfers: TransferRequest[] = [];
    const shortfall = change > 0 ? await this.charge(trx, card, step, change, books, transfers) : 0;
    if (change < 0) transfers.push(this.deps.settlement.giveBack(step, -change, books));
    if (transfers.length > 0) await this.deps.ledger.execute(trx, transfers);
    const amount = Math.max(0, -report.settledCents);
    const given = amount - (refund.settled_cents ?? 0);
    const now = this.clock.now();
    const changes = {
      status: amount > 0 ? ('SETTLED' as const) : ('VOIDED' as const),
      amount_cents: Math.max(refund.amount_cents, amount),
      settled_cents: amount,
      issuer_settled_cents: report.settledCents,
      issuer_version: report.version,
      updated_at: now,
    };
    await store.updateTransaction(trx, refund.id, changes);
    const updated = { ...refund, ...changes };
    if (refund.original_transaction_id && given !== 0) {
      const original = await store.transactionById(trx, refund.original_transaction_id);
      if (original) {
        await store.updateTransaction(trx, original.id, {
          refunded_cents: original.refunded_cents + given,
          updated_at: now,
        });
      }
    }
    const event =
      change < 0 ? 'transaction.refunded' : amount === 0 && change > 0 ? 'transaction.voided' : null;
    // A refund reversed to nothing: what this void released is the credit it took back; nothing holds.
    const voided = event === 'transaction.voided' ? { released_cents: change, held_cents: 0 } : undefined;
    if (transfers.length > 0) await this.deps.engine.afterMove(trx, card, updated, event, before, { voided });
    return { outcome: 'applied', shortfall_cents: shortfall };
  }

  /**
   * Charges what no hold covered: from the card as far as it can, then from its owner (the user's
   * wallet, or the company pool for a company-funded card: `CardService.fundFromOwner`, which puts it
   * on the card first) through the card, and what neither covers from the organization's funding
   * source (the shortfall: the issuer paid the merchant, so the books must say who bore it).
   */
  private async charge(
    trx: Executor,
    card: Card,
    step: string,
    amount: number,
    books: Books,
    transfers: TransferRequest[],
  ): Promise<number> {
    const fromCard = Math.min(amount, Math.max(0, books.cardAvailable));
    const owner = books.ownerAvailable;
    if (amount > fromCard && owner === null)
      throw new Error(`charging the owner of card ${card.id} needs its lock (lockBooks: draws)`);
    const fromOwner = Math.min(amount - fromCard, Math.max(0, owner ?? 0));
    const shortfall = amount - fromCard - fromOwner;
    books.cardAvailable -= fromCard;
    if (owner !== null) books.ownerAvailable = owner - fromOwner;
    if (fromOwner > 0) await this.deps.cards.fundFromOwner(trx, card, `${step}.owner`, fromOwner);
    if (fromCard + fromOwner > 0) {
      transfers.push({
        type: 'posted',
        id: `${step}.charge`,
        debitAccountId: books.card,
        creditAccountId: books.network,
        amount: fromCard + fromOwner,
        code: 'card_clearing',
      });
    }
    if (shortfall > 0) {
      transfers.push({
        type: 'posted',
        id: `${step}.shortfall`,
        debitAccountId: books.source,
        creditAccountId: books.network,
        amount: shortfall,
        code: 'issuer_shortfall',
      });
    }
    return shortfall;
  }

  /** A transaction for a report of one we never saw: nothing held, nothing settled yet. */
  private unheld(card: Card, report: IssuerReport): CardTransaction {
    const now = this.clock.now();
    return {
      id: report.id,
      organization_id: card.organization_id,
      livemode: card.livemode,
      card_id: card.id,
      user_id: card.user_id,
      type: 'purchase',
      original_transaction_id: null,
      status: 'VOIDED',
      amount_cents: Math.max(report.heldCents, report.settledCents, 0),
      settled_cents: null,
      refunded_cents: 0,
      merchant: report.merchant,
      mcc: report.mcc,
      decline_reason: null,
      hold_id: null,
      expires_at: null,
      issuer_settled_cents: 0,
      issuer_version: null,
      force_posted: 0,
      voided_cents: 0,
      authorizations: 0,
      merchant_country: null,
      spending_control: null,
      authorization_decided_by: null,
      platform_reason: null,
      created_at: now,
      updated_at: now,
    };
  }
}
