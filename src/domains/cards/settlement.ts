import type { Clock } from '../../core/clock.ts';
import { DAY } from '../../core/clock.ts';
import { ApiError, invalidRequest, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import { LedgerRefusal, type LedgerService, type TransferRequest, type Violation } from '../ledger/index.ts';
import type { CardConfig } from './config.ts';
import type { MandateRefusal, SpendingControlRefusal } from './controls.ts';
import type { CardNetwork, CardTransaction, ChargeRequest, DeclineReason } from './network.ts';
import type { Card, CardService } from './service.ts';
import type { ChargeControls } from './spending-controls.ts';

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
interface Books {
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
 * in one ledger batch, with its rows and events in the same transaction.
 */
export class Settlement {
  constructor(
    private readonly clock: Clock,
    private readonly config: CardConfig,
    private readonly deps: { ledger: LedgerService; cards: CardService; network: CardNetwork },
  ) {}

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
      const found = await this.store.transaction(trx, scope.organizationId, livemode, transactionId);
      if (!found) throw notFound('No such transaction.');
      const card = await this.deps.cards.lockCard(trx, scope, found.card_id);
      // Under the card's lock: a refund of this id made meanwhile is seen.
      const made = options.id ? await this.store.transactionById(trx, options.id) : undefined;
      if (made?.type === 'refund' && made.original_transaction_id === transactionId)
        return this.deps.network.present(trx, made, card);
      const txn = (await this.store.transactionById(trx, transactionId)) as CardTransaction;
      if (txn.type === 'refund')
        throw new ApiError(409, 'transaction_not_refundable', 'A refund cannot itself be refunded.');
      const settled = txn.settled_cents ?? 0;
      if (settled <= 0) {
        throw new ApiError(
          409,
          'transaction_not_settled',
          `The transaction is ${txn.status} and has settled nothing; only settled money can be refunded.`,
        );
      }
      const left = settled - txn.refunded_cents;
      if (left <= 0)
        throw new ApiError(409, 'transaction_refunded', 'The transaction has been refunded in full.');
      const asked = options.amountCents ?? left;
      const amount = options.atMost ? Math.min(asked, left) : asked;
      if (amount > left) {
        throw invalidRequest(`amount_cents is more than the ${left} cents left to refund.`, {
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
      await this.deps.network.followMandate(trx, card, txn.id);
      return this.deps.network.present(trx, refund, card);
    });
  }

  /** Purchases whose refunds add up to more than they settled, or to other than they record (`ledger verify`). */
  async verifyRefunds(exec: Executor): Promise<Violation[]> {
    const rows = await this.store.refundTotals(exec);
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
    if (txn.status !== 'PENDING' || increment <= 0) return this.deps.network.present(trx, txn, card);
    const books = await this.books(trx, card);
    // The merchant is the authorization's: the network does not change it on an increment.
    const outcome = await this.deps.network.decide(
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
    await this.store.updateTransaction(trx, txn.id, changes);
    // The increment from the card's mandate's budget (judged by `decide`, its row locked with the card's).
    await this.deps.network.followMandate(trx, card, txn.id);
    const increased = { ...txn, ...changes };
    const after = await this.deps.network.afterMove(
      trx,
      card,
      increased,
      'transaction.authorized',
      books.cardAvailable,
    );
    return this.deps.network.present(trx, increased, after);
  }

  // ---- the issuer's reports

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
          const txn = await this.store.transactionById(trx, report.id);
          if (txn && txn.card_id !== card.id) return { outcome: 'ignored' as const };
          if (txn?.issuer_version != null && report.version <= txn.issuer_version)
            return { outcome: 'repeat' as const };
          // A report can send money home, pay a reward to the wallet, and, when it settles more than
          // is held, charge the owner: only then is the company pool locked (docs/ledger.md).
          const draws = await this.chargesBeyondHold(trx, txn, report);
          await this.deps.cards.lockBooks(trx, card, { owner: true, draws, wallet: true });
          const applied = await this.applyReport(trx, card, txn, report);
          // The card's mandate takes what the transaction (a return's: its purchase) now holds and settled.
          if (applied.outcome === 'applied') await this.deps.network.followMandate(trx, card, report.id);
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
    return report.settledCents - settled > (txn ? await this.openHold(trx, txn) : 0);
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
    const books = await this.books(trx, card);
    const before = books.cardAvailable;
    const held = isNew ? 0 : await this.openHold(trx, txn);
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
      transfers.push(this.giveBack(refundId, -change, books));
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
    if (isNew) await this.store.insertTransaction(trx, updated);
    else await this.store.updateTransaction(trx, txn.id, changes);
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
      await this.deps.network.afterMove(trx, card, updated, event, before, { voided });
    }
    if (change > 0) await this.reward(trx, card, updated, change, `${step}.reward`);
    if (refundId) {
      await this.recordRefund(trx, card, updated, { id: refundId, amount: -change, before });
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
    await this.store.insertTransaction(trx, { ...row, issuer_version: report.version });
    return { outcome: 'applied' };
  }

  /** A credit the issuer settled under a token of its own (a merchant's return): a refund, linked when it can be. */
  private async firstReturn(trx: Executor, card: Card, report: IssuerReport): Promise<IssuerOutcome> {
    const amount = -report.settledCents;
    const original = await this.store.refundablePurchase(trx, card.id, report.merchant, amount);
    const books = await this.books(trx, card);
    await this.deps.ledger.execute(trx, [this.giveBack(report.id, amount, books)]);
    await this.recordRefund(trx, card, original ?? null, {
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
    const books = await this.books(trx, card);
    const before = books.cardAvailable;
    const step = `${refund.id}.v${report.version}`;
    const transfers: TransferRequest[] = [];
    const shortfall = change > 0 ? await this.charge(trx, card, step, change, books, transfers) : 0;
    if (change < 0) transfers.push(this.giveBack(step, -change, books));
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
    await this.store.updateTransaction(trx, refund.id, changes);
    const updated = { ...refund, ...changes };
    if (refund.original_transaction_id && given !== 0) {
      const original = await this.store.transactionById(trx, refund.original_transaction_id);
      if (original) {
        await this.store.updateTransaction(trx, original.id, {
          refunded_cents: original.refunded_cents + given,
          updated_at: now,
        });
      }
    }
    const event =
      change < 0 ? 'transaction.refunded' : amount === 0 && change > 0 ? 'transaction.voided' : null;
    // A refund reversed to nothing: what this void released is the credit it took back; nothing holds.
    const voided = event === 'transaction.voided' ? { released_cents: change, held_cents: 0 } : undefined;
    if (transfers.length > 0)
      await this.deps.network.afterMove(trx, card, updated, event, before, { voided });
    return { outcome: 'applied', shortfall_cents: shortfall };
  }

  // ---- steps

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

  /** Money back from the merchant, onto the card (a closed card sends it home: `afterMove`). */
  private giveBack(id: string, amount: number, books: Books): TransferRequest {
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
  private async recordRefund(
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
    await this.store.insertTransaction(trx, row);
    if (original) {
      await this.store.updateTransaction(trx, original.id, {
        refunded_cents: original.refunded_cents + refund.amount,
        updated_at: now,
      });
    }
    await this.deps.network.afterMove(trx, card, row, 'transaction.refunded', refund.before);
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

  /** What the transaction's hold still holds (0 once posted or released). */
  private openHold(trx: Executor, txn: CardTransaction): Promise<number> {
    return this.deps.network.heldBy(trx, txn);
  }

  private async books(trx: Executor, card: Card): Promise<Books> {
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

  private get store() {
    return this.deps.cards.store;
  }
}

function scopeOfCard(card: Pick<Card, 'organization_id' | 'livemode'>): Tenant {
  return tenantOf(card);
}
