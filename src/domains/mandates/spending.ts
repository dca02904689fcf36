import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { formatMoney } from '../../core/money.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { MandateScope } from './service.ts';
import type { MandateMove } from './states.ts';
import type { MandateRow } from './store.ts';
import * as store from './store.ts';
import {
  budgetWindowStart,
  type MandateCharge,
  type MandateTerm,
  type MandateTerms,
  termRefusal,
} from './terms.ts';

/** A charge under a mandate: what the terms see, and the caller's id of it (one spend per charge). */
export interface MandateSpend extends MandateCharge {
  mandateId: string;
  /** The order's or card transaction's id: consuming the same reference again changes nothing. */
  reference: string;
}

/** A charge's take of a mandate's budget as the card's books now say (`follow`). */
export interface MandateFollow {
  mandateId: string;
  /** The card transaction's id (the spend's reference). */
  reference: string;
  /** What the charge holds and settled, less what was refunded; below zero for a return of no known purchase. */
  takesCents: number;
  merchant: string | null;
  category: string | null;
  /** When the charge was made: the budget window its cents count in. */
  at: number;
}

export type ConsumeResult =
  | { ok: true; spentCents: number; remainingCents: number }
  | { ok: false; term: MandateTerm; reply: string };

/**
 * Purchases under a mandate (docs/mandates.md "Purchases"): the budget a charge takes from, checked
 * and written in the charge's own transaction. MandateService is the door to it.
 */
export class MandateSpending {
  constructor(
    private readonly clock: Clock,
    private readonly deps: {
      db: () => Db;
      /** A move of the states table on a locked row, with its event (service.ts `apply`). */
      apply: (trx: Executor, row: MandateRow, move: MandateMove) => Promise<MandateRow | null>;
    },
  ) {}

  /**
   * The active mandates of a user for one app (newest first): what a purchase made with a token of
   * that app may buy under. Unlocked: the charge's `consume` decides.
   */
  async activeFor(scope: MandateScope & { userId: string; clientId: string }): Promise<MandateRow[]> {
    const rows = await store.activeOfClient(this.deps.db(), {
      organizationId: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      userId: scope.userId,
      clientId: scope.clientId,
    });
    return rows.filter((row) => row.expires_at > this.clock.now());
  }

  /**
   * Takes a charge from a mandate's budget, in the charge's own write transaction `trx` (so the
   * budget and the money commit together, or neither). Call it before the transaction's first ledger
   * move: on PostgreSQL it locks the mandate's row `FOR UPDATE`, which in the lock order of
   * docs/ledger.md comes after the domain's own row (the order, the card) and before the user's
   * spending controls row, the company wallet and the ledger's accounts. Concurrent charges under
   * one mandate therefore read its budget one after the other and never spend past it.
   *
   * Answers `{ok: true}` with what the current budget window has spent and has left after the
   * charge, or `{ok: false, term, reply}`: the first term the charge falls outside of — `status`
   * (not active: pending approval, exhausted, expired, revoked, or no such mandate), `expires_at`,
   * `currency`, `max_amount_cents`, `allowed_categories`, `allowed_merchants`, `budget` — and a
   * sentence for the user (the `/buy` reply). A refusal writes nothing.
   *
   * The same `reference` again (a retried charge) spends nothing more and answers ok. The charge
   * that uses the last cent of a `total` budget moves the mandate to `exhausted` and emits
   * `mandate.exhausted` in `trx`.
   */
  async consume(trx: Executor, spend: MandateSpend): Promise<ConsumeResult> {
    const row = await store.find(trx, spend.mandateId, true);
    if (!row) return refusal('status', 'This mandate does not exist.');
    const start = budgetWindowStart(row.budget_interval, spend.at);
    if (await store.spend(trx, row.id, spend.reference)) {
      const spent = await store.spentSince(trx, row.id, start);
      return { ok: true, spentCents: spent, remainingCents: Math.max(0, row.budget_cents - spent) };
    }
    const verdict = await this.verdict(trx, row, spend, start);
    if (!verdict.ok) return verdict;
    await store.insertSpend(trx, {
      id: newId('mds'),
      mandate_id: row.id,
      reference: spend.reference,
      amount_cents: spend.amountCents,
      returned_cents: 0,
      merchant: spend.merchant,
      category: spend.category,
      at: spend.at,
    });
    if (row.budget_interval === 'total' && verdict.remainingCents === 0)
      await this.deps.apply(trx, row, 'budget_used_up');
    return verdict;
  }

  /**
   * Locks a mandate's row for a charge that decides on it later in `trx` (`check`, then `consume`):
   * a card's authorization takes it right after the card's row, before the user's spending controls
   * (docs/ledger.md, lock order).
   */
  async lock(trx: Executor, id: string): Promise<void> {
    await store.find(trx, id, true);
  }

  /**
   * Whether a charge would pass the mandate now, without taking a lock or writing: a check before the
   * money moves (a `/buy` confirm deciding whether to ask the user); `consume` decides at the charge.
   */
  async check(exec: Executor, spend: Omit<MandateSpend, 'reference'>): Promise<ConsumeResult> {
    const row = await store.find(exec, spend.mandateId);
    if (!row) return refusal('status', 'This mandate does not exist.');
    return this.verdict(exec, row, spend, budgetWindowStart(row.budget_interval, spend.at));
  }

  /**
   * Brings one charge's take of the budget to `takesCents`, what it holds and settled less what was
   * refunded as the card's books now say, in the move's own write transaction `trx` (the mandate's
   * row locked before its first ledger move, as for `consume`). Every move after the first
   * authorization goes through it — an incremental authorization, a clearing above or below the
   * hold, a void, an expiry, a refund, an issuer's report in any order: it sets what the charge takes
   * rather than adding to it, so the same move applied twice changes nothing and the budget is
   * always the books'. A charge the mandate has no spend of yet (the issuer settled one never
   * authorized here) is added at `at`. The cents stay in the window the charge was made in (a charge
   * of yesterday refunded today does not raise today's daily budget). A `total` mandate whose budget
   * is used up is `exhausted` (`mandate.exhausted`), and active again once budget comes back (states.ts),
   * unless it has expired or been revoked. Answers the change: above zero taken, below zero given back.
   * Below zero, `takesCents` is money back the card's books could not tie to a charge (a return of
   * no known purchase): given back in the window it came in.
   */
  async follow(trx: Executor, charge: MandateFollow): Promise<number> {
    const row = await store.find(trx, charge.mandateId, true);
    if (!row) return 0;
    const takes = charge.takesCents;
    const spend = await store.spend(trx, row.id, charge.reference);
    const change = takes - (spend ? spend.amount_cents - spend.returned_cents : 0);
    if (change === 0) return 0;
    if (!spend) {
      await store.insertSpend(trx, {
        id: newId('mds'),
        mandate_id: row.id,
        reference: charge.reference,
        amount_cents: Math.max(takes, 0),
        returned_cents: Math.max(-takes, 0),
        merchant: charge.merchant,
        category: charge.category,
        at: charge.at,
      });
    } else {
      // `amount_cents` is the most the charge took, `returned_cents` what it gave back of that.
      const amount = Math.max(spend.amount_cents, takes, 0);
      await store.updateSpend(trx, spend.id, { amount_cents: amount, returned_cents: amount - takes });
    }
    if (row.budget_interval === 'total') {
      const left = row.budget_cents - (await store.spentSince(trx, row.id, 0));
      if (row.status === 'active' && left <= 0) await this.deps.apply(trx, row, 'budget_used_up');
      if (row.status === 'exhausted' && left > 0 && row.expires_at > this.clock.now())
        await this.deps.apply(trx, row, 'budget_returned');
    }
    return change;
  }

  private async verdict(
    exec: Executor,
    row: MandateRow,
    charge: MandateCharge,
    windowStart: number,
  ): Promise<ConsumeResult> {
    if (row.status !== 'active') return refusal('status', `This mandate is ${row.status.replace('_', ' ')}.`);
    const terms = JSON.parse(row.terms) as MandateTerms;
    const term = termRefusal(terms, row.expires_at, charge);
    if (term) return refusal(term, refusalReply(term, terms, charge));
    const spent = await store.spentSince(exec, row.id, windowStart);
    if (spent + charge.amountCents > row.budget_cents)
      return refusal(
        'budget',
        `This purchase of ${formatMoney(charge.amountCents)} is more than the ${formatMoney(Math.max(0, row.budget_cents - spent))} left of the mandate's ${budgetWords(terms)} budget.`,
      );
    return {
      ok: true,
      spentCents: spent + charge.amountCents,
      remainingCents: row.budget_cents - spent - charge.amountCents,
    };
  }
}

function refusal(term: MandateTerm, reply: string): ConsumeResult {
  return { ok: false, term, reply };
}

/** "daily", "weekly", "monthly", or "total". */
export function budgetWords(terms: MandateTerms): string {
  return terms.budget.interval;
}

/** The `/buy` reply naming the term a charge falls outside of. */
function refusalReply(term: MandateTerm, terms: MandateTerms, charge: MandateCharge): string {
  switch (term) {
    case 'expires_at':
      return `This mandate ended at ${terms.expires_at}.`;
    case 'currency':
      return `This mandate allows purchases in ${terms.currency.toUpperCase()} only.`;
    case 'max_amount_cents':
      return `This purchase of ${formatMoney(charge.amountCents + (charge.priorCents ?? 0))} is more than the mandate's ${formatMoney(terms.max_amount_cents)} per purchase.`;
    case 'allowed_categories':
      return `This merchant's category is not among the mandate's allowed categories (${terms.allowed_categories?.join(', ')}).`;
    case 'allowed_merchants':
      return `This merchant is not among the mandate's allowed merchants (${terms.allowed_merchants?.join(', ')}).`;
    default:
      return 'This purchase is outside the mandate.';
  }
}
