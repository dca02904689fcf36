import type { Clock } from '../../core/clock.ts';
import { isoTime, MINUTE } from '../../core/clock.ts';
import type { Db } from '../../db/index.ts';
import type { CardIssuer, IssuerTransaction } from './issuer.ts';
import type { AuthorizationEngine, CardTransaction } from './network.ts';
import type { IssuerReport } from './settlement.ts';
import * as store from './store.ts';

/** Money of one transaction, as the issuer or the books have it: the status, settled and still held. */
export interface MoneyState {
  status: string;
  /** Settled in all (below zero for a return). */
  settled_cents: number;
  held_cents: number;
}

/** One of the issuer's transactions the books do not agree with. */
export interface IssuerDrift {
  transaction_id: string;
  /**
   * `missing`: money the books never heard of; `status` / `amount`: the books say otherwise;
   * `unreadable`: the issuer's transaction cannot be read (its events cannot be applied either).
   */
  kind: 'missing' | 'status' | 'amount' | 'unreadable';
  organization_id: string | null;
  card_id: string | null;
  issuer: MoneyState | null;
  books: MoneyState | null;
  detail: string;
}

export interface IssuerReconciliation {
  object: 'issuer_reconciliation';
  issuer: string;
  /** The oldest creation compared (ISO 8601), or null for all. */
  since: string | null;
  /** How many of the issuer's transactions were compared. */
  transactions: number;
  /** Changed at the issuer too recently to judge (their event may be on its way): left for the next check. */
  in_flight: number;
  drifts: IssuerDrift[];
}

/**
 * A transaction the issuer changed this recently may have an event still on its way: it is not
 * judged now. Wide, so that Lithic's clock and ours need not agree closely.
 */
const IN_FLIGHT_MS = 5 * MINUTE;

/** The book statuses that agree with the issuer's, by its status (and whether anything is settled). */
function agreeing(issuer: IssuerReport): CardTransaction['status'][] {
  switch (issuer.status) {
    case 'PENDING':
      return ['PENDING'];
    // A settlement corrected down to nothing: a purchase stays SETTLED (its refund says the rest), a
    // return taken back is VOIDED.
    case 'SETTLED':
      return issuer.settledCents === 0 ? ['SETTLED', 'VOIDED'] : ['SETTLED'];
    case 'VOIDED':
    case 'EXPIRED':
      return ['VOIDED'];
    // Declined by Lithic after we approved (our answer came too late): the books voided the hold.
    case 'DECLINED':
      return ['DECLINED', 'VOIDED'];
  }
}

/**
 * `purser issuer reconcile` (docs/cards.md, "Reconciliation"): every transaction the issuer lists,
 * compared with the books — missing, or a different status, settled amount or hold — and what the
 * worker's last check found, kept for /metrics in every process.
 */
export class IssuerReconciler {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly issuer: CardIssuer,
    private readonly deps: { engine: AuthorizationEngine },
  ) {}

  get name(): string {
    return this.issuer.name;
  }

  /** Compares every transaction the issuer created from `since` on (all when null) with the books. */
  async reconcile(since: number | null): Promise<IssuerReconciliation> {
    const recent = this.clock.now() - IN_FLIGHT_MS;
    const drifts: IssuerDrift[] = [];
    let transactions = 0;
    let inFlight = 0;
    for await (const txn of this.issuer.transactions(since)) {
      transactions++;
      if (txn.updatedAt > recent) {
        inFlight++;
        continue;
      }
      const drift = await this.compare(txn);
      if (drift) drifts.push(drift);
    }
    return {
      object: 'issuer_reconciliation',
      issuer: this.issuer.name,
      since: since === null ? null : isoTime(since),
      transactions,
      in_flight: inFlight,
      drifts,
    };
  }

  /** The worker's record of a check (one row per issuer, the newest check wins). */
  async record(check: IssuerReconciliation): Promise<void> {
    const row = {
      checked_at: this.clock.now(),
      since: check.since === null ? null : Date.parse(check.since),
      compared: check.transactions,
      drifts: JSON.stringify(check.drifts),
    };
    await store.saveReconciliation(this.db, { issuer: check.issuer, ...row });
  }

  /** What the worker's last check found (for /metrics), or null before any. */
  async last(): Promise<{ checkedAt: number; drifts: IssuerDrift[] } | null> {
    const row = await store.reconciliation(this.db, this.issuer.name);
    return row ? { checkedAt: Number(row.checked_at), drifts: JSON.parse(row.drifts) } : null;
  }

  private async compare({ token, cardRef, report }: IssuerTransaction): Promise<IssuerDrift | null> {
    const card = await store.cardByProviderRef(this.db, cardRef);
    const drift = (
      kind: IssuerDrift['kind'],
      detail: string,
      books: MoneyState | null = null,
    ): IssuerDrift => ({
      transaction_id: token,
      kind,
      organization_id: card?.organization_id ?? null,
      card_id: card?.id ?? null,
      issuer: report && issuerState(report),
      books,
      detail,
    });
    if (!report) return drift('unreadable', 'the issuer transaction cannot be read');
    const issuer = issuerState(report);
    const moved = issuer.settled_cents !== 0 || issuer.held_cents > 0;
    const found = card && (await store.transactionById(this.db, token));
    const txn = found && found.card_id === card.id ? found : undefined;
    if (!txn) {
      if (!moved) return null;
      return drift('missing', card ? 'the books have no such transaction' : 'on a card Purser did not issue');
    }
    const books = await this.booksState(txn);
    if (!agreeing(report).includes(txn.status)) {
      return drift('status', `the issuer says ${report.status}, the books ${txn.status}`, books);
    }
    const differences = [
      books.settled_cents !== issuer.settled_cents
        ? `settled ${issuer.settled_cents} at the issuer, ${books.settled_cents} in the books`
        : null,
      books.held_cents !== issuer.held_cents
        ? `held ${issuer.held_cents} at the issuer, ${books.held_cents} in the books`
        : null,
    ].filter((d) => d !== null);
    return differences.length > 0 ? drift('amount', differences.join('; '), books) : null;
  }

  /** What the books hold of a transaction: the issuer's settlement as last applied (else what settled), the open hold. */
  private async booksState(txn: CardTransaction): Promise<MoneyState> {
    const settled = txn.type === 'refund' ? -(txn.settled_cents ?? 0) : (txn.settled_cents ?? 0);
    return {
      status: txn.status,
      settled_cents: txn.issuer_settled_cents ?? settled,
      held_cents: await this.deps.engine.heldBy(this.db, txn),
    };
  }
}

/** What the issuer says: a voided, expired or declined transaction holds nothing whatever it reports. */
function issuerState(report: IssuerReport): MoneyState {
  const holding = report.status === 'PENDING' || report.status === 'SETTLED';
  return {
    status: report.status,
    settled_cents: report.settledCents,
    held_cents: holding ? Math.max(0, report.heldCents) : 0,
  };
}
