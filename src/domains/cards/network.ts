import type { Selectable } from 'kysely';
import { type Clock, DAY } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { AuthorizationDecision } from '../../core/metrics.ts';
import { type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import type { CardTransactionsTable } from '../../db/schema.ts';
import {
  type AccountBalance,
  LedgerRefusal,
  type LedgerService,
  type LockedAccounts,
} from '../ledger/index.ts';
import type { CardConfig } from './config.ts';
import type { ControlDecline, MandateRefusal, MandateTermName, SpendingControlRefusal } from './controls.ts';
import { cardUpdatedData, transactionData, transactionObject, type VoidedAmounts } from './objects.ts';
import type { AuthorizationEndpoint, PlatformAnswer } from './platform-authorization.ts';
import type { Card, CardService, ClosedReason } from './service.ts';
import { IncrementDeclined, Settlement } from './settlement.ts';
import type { ChargeControls } from './spending-controls.ts';
import * as store from './store.ts';

export type CardTransaction = Selectable<CardTransactionsTable>;

/** Why the engine declines a charge (spec §6 `decline_reason`; the spending controls' three, issue 27). */
export type DeclineReason =
  | 'CARD_CLOSED'
  | 'CARD_PAUSED'
  | 'SPEND_LIMIT_EXCEEDED'
  | 'INSUFFICIENT_FUNDS'
  | ControlDecline
  | 'MANDATE_EXCEEDED'
  | 'PLATFORM_DECLINED';

/** A charge as any network presents it: the sandbox simulator, a merchant, or the issuer's webhook. */
export interface ChargeRequest {
  /** The network's id, stable through clearing; a repeat of it is the same authorization. */
  transactionId?: string | undefined;
  amountCents: number;
  merchant: string;
  mcc?: string | null | undefined;
  /** ISO 3166-1 alpha-2, when the network says. */
  merchantCountry?: string | null | undefined;
  /** The merchant's slug, for a `/buy` order's charge: what a mandate's `allowed_merchants` name. */
  merchantSlug?: string | undefined;
  /** The longest the platform's endpoint may be waited for: what the network's own deadline leaves. */
  platformWaitMs?: number | undefined;
}

/** What the engine decided, and who: recorded with the transaction. */
export type Outcome =
  | { approve: true; decidedBy: DecidedBy }
  | {
      decline: DeclineReason;
      decidedBy: DecidedBy;
      control?: SpendingControlRefusal | MandateRefusal | undefined;
      platformReason?: string | null | undefined;
    };

export type DecidedBy = NonNullable<CardTransaction['authorization_decided_by']>;

/** The balance at or under which a transaction also fires `balance.low` (spec §8). */
export const LOW_BALANCE_CENTS = 1_000;

/**
 * The one authorization engine: every charge, from whichever network, is decided here, and an
 * approval places its hold in the same transaction as the decision and its events. Its steps (the
 * card's books after a move, the mandate followed, the transaction presented) are the ones clearing,
 * voids, refunds and the issuer's reports take too. The networks enter by `CardNetwork`
 * (network-door.ts).
 */
export class AuthorizationEngine {
  /** Refunds, incremental authorizations and the issuer's reports (settlement.ts): an increment is decided here. */
  readonly settlement: Settlement;
  private observer: (decision: AuthorizationDecision, seconds: number) => void = () => {};

  constructor(
    private readonly clock: Clock,
    private readonly config: CardConfig,
    private readonly deps: { ledger: LedgerService; cards: CardService },
  ) {
    this.settlement = new Settlement(clock, config, { ...deps, engine: this });
  }

  /**
   * Decides a charge on a card: approved (PENDING, funds held) or DECLINED (nothing moves). A
   * network's id seen before gets its first decision, unless it now asks for more than it was
   * authorized (an incremental authorization): the difference is held, or `IncrementDeclined`.
   */
  async authorize(scope: Tenant, cardId: string, charge: ChargeRequest) {
    const started = performance.now();
    try {
      const decided = await this.decideCharge(scope, cardId, charge);
      this.observer(decided.status === 'DECLINED' ? 'declined' : 'approved', secondsSince(started));
      return decided;
    } catch (error) {
      this.observer(error instanceof IncrementDeclined ? 'declined' : 'error', secondsSince(started));
      throw error;
    }
  }

  /** Told of every authorization's decision and how long it took (/metrics). */
  observeDecisions(observer: (decision: AuthorizationDecision, seconds: number) => void): void {
    this.observer = observer;
  }

  /**
   * Without a platform endpoint: one transaction decides and records. With one, a charge the engine
   * would approve is put to the platform between two transactions, so no lock is held while it
   * thinks; the second decides again (the balance may have moved) and records the platform's word.
   */
  private async decideCharge(scope: Tenant, cardId: string, charge: ChargeRequest) {
    const id = charge.transactionId ?? newId('txn');
    const first = await this.decideOnce(scope, cardId, id, charge);
    if (!('ask' in first)) return first;
    const { card, endpoint } = first.ask;
    const answer = await this.deps.cards.platform.ask(
      endpoint,
      {
        authorization_id: id,
        card_id: cardId,
        user_id: card.user_id,
        amount_cents: charge.amountCents,
        merchant: charge.merchant,
        mcc: charge.mcc ?? null,
        merchant_country: charge.merchantCountry ?? null,
      },
      charge.platformWaitMs,
    );
    const decided = await this.decideOnce(scope, cardId, id, charge, platformOutcome(answer, endpoint));
    if ('ask' in decided) throw new Error('the platform was asked twice');
    return decided;
  }

  /**
   * One decision in one transaction. `platform`: the platform's outcome, what an approval by the
   * engine becomes. Without it, an approval by the engine reads the organization's endpoint in the
   * same transaction (no read before it, which would wait behind the batch group commit is writing
   * and so keep it from forming; the card's lock says whether there is one, and on PostgreSQL brings
   * it) and, when there is one, returns it to be asked, recording nothing.
   */
  private async decideOnce(
    scope: Tenant,
    cardId: string,
    id: string,
    charge: ChargeRequest,
    platform?: Outcome,
  ): Promise<
    | Awaited<ReturnType<AuthorizationEngine['record']>>
    | { ask: { card: Card; endpoint: AuthorizationEndpoint } }
  > {
    try {
      return await this.deps.ledger.transaction(async (trx) => {
        // Lock order: the card, its user's controls, then the ledger's accounts (docs/ledger.md).
        const { card, controls, endpoint: read } = await this.deps.cards.lockForCharge(trx, scope, cardId);
        const books = await this.lockBooks(trx, card);
        // Only a network's own id can repeat; one made here is new.
        const earlier = charge.transactionId ? await store.transactionById(trx, id) : undefined;
        // An increment is judged by the engine alone, the platform never asked again (docs/cards.md).
        if (earlier) return this.settlement.increase(trx, card, controls, earlier, charge);
        const engine = await this.decide(trx, card, controls, charge, books.before);
        if (!('approve' in engine)) return this.record(trx, card, id, charge, engine, books);
        if (platform) return this.record(trx, card, id, charge, platform, books);
        const endpoint = read === undefined ? await this.deps.cards.platform.find(scope, trx) : read;
        if (endpoint) return { ask: { card, endpoint } };
        return this.record(trx, card, id, charge, engine, books);
      });
    } catch (error) {
      // The decision read the balance under the card's lock; a refusal here means the books moved
      // some other way. Decline rather than fail the charge: the hold was rolled back with it.
      if (!(error instanceof LedgerRefusal && error.code === 'exceeds_credits')) throw error;
      return this.deps.ledger.transaction(async (trx) => {
        const card = await this.deps.cards.lockCard(trx, scope, cardId);
        const books = await this.lockBooks(trx, card);
        // An increment refused: the authorization stands as it was.
        if (await store.transactionById(trx, id)) throw new IncrementDeclined('INSUFFICIENT_FUNDS');
        const outcome = { decline: 'INSUFFICIENT_FUNDS', decidedBy: 'engine' } as const;
        return this.record(trx, card, id, charge, outcome, books);
      });
    }
  }

  // ---- steps

  /**
   * The engine's rules in their order (docs/cards.md): the card's status, then the spending controls
   * (the card's, then its user's), then the balance; the first that refuses declines. Also for
   * settlement.ts: an incremental authorization is decided on its increment, `priorCents` what the
   * authorization held before it.
   */
  async decide(
    exec: Executor,
    card: Card,
    controls: ChargeControls,
    charge: ChargeRequest & { priorCents?: number },
    balanceCents: number,
  ): Promise<Outcome> {
    const status = statusDecline(card);
    if (status) return { decline: status, decidedBy: 'engine' };
    if (card.mandate_id) {
      const mandate = await this.deps.cards
        .requireMandates()
        .check(exec, mandatedCharge(card, charge, this.clock));
      if (!mandate.ok) return mandateDecline(card, mandate.term);
    }
    const verdict = await this.deps.cards.controls.refusal(exec, card, controls, {
      amountCents: charge.amountCents,
      mcc: charge.mcc ?? null,
      merchantCountry: charge.merchantCountry ?? null,
      priorCents: charge.priorCents,
    });
    if (verdict) return { decline: verdict.reason, control: verdict.control, decidedBy: 'engine' };
    const funds = fundsDecline(card, charge.amountCents, balanceCents);
    return funds ? { decline: funds, decidedBy: 'engine' } : { approve: true, decidedBy: 'engine' };
  }

  /**
   * Locks what an authorization can move money between, up front: the card's account (the network's
   * is a mirror, never locked) and, for an open single-use card, whose money goes back when the
   * approval closes it. Reads the card's balance under the lock (`before`): the decision and the
   * hold use this one read.
   */
  private async lockBooks(trx: Executor, card: Card): Promise<Books> {
    const scope = tenantOf(card);
    const closes = card.type === 'single_use' && card.status !== 'CLOSED';
    const { account, locked, available } = await this.deps.cards.lockBooks(trx, card, { owner: closes });
    const network = await this.deps.cards.systemAccount(trx, scope, 'network_settlement');
    return { account, network, locked, before: available };
  }

  /** Records the decision on a locked card, its books locked and read (`lockBooks`). */
  private async record(
    trx: Executor,
    card: Card,
    id: string,
    charge: ChargeRequest,
    decided: Outcome,
    { account, network, locked, before }: Books,
  ) {
    let outcome = decided;
    if ('approve' in outcome && card.mandate_id) {
      // The budget is taken with the hold, under the mandate's lock taken with the card's.
      const spend = { ...mandatedCharge(card, charge, this.clock), reference: id };
      const taken = await this.deps.cards.requireMandates().consume(trx, spend);
      if (!taken.ok) outcome = mandateDecline(card, taken.term);
    }
    const now = this.clock.now();
    const txn: CardTransaction = {
      id,
      organization_id: card.organization_id,
      livemode: card.livemode,
      card_id: card.id,
      user_id: card.user_id,
      status: 'approve' in outcome ? 'PENDING' : 'DECLINED',
      amount_cents: charge.amountCents,
      settled_cents: null,
      merchant: charge.merchant,
      mcc: charge.mcc ?? null,
      decline_reason: 'decline' in outcome ? outcome.decline : null,
      hold_id: 'approve' in outcome ? `${id}.hold` : null,
      expires_at: 'approve' in outcome ? now + this.config.authorizationExpiryDays * DAY : null,
      created_at: now,
      updated_at: now,
      type: 'purchase',
      original_transaction_id: null,
      refunded_cents: 0,
      issuer_settled_cents: null,
      issuer_version: null,
      force_posted: 0,
      voided_cents: 0,
      authorizations: 'approve' in outcome ? 1 : 0,
      merchant_country: charge.merchantCountry ?? null,
      spending_control: 'decline' in outcome && outcome.control ? JSON.stringify(outcome.control) : null,
      authorization_decided_by: outcome.decidedBy,
      platform_reason: ('decline' in outcome && outcome.platformReason) || null,
    };
    if ('decline' in outcome) {
      // A decline moves nothing: the balance is still the one decided on.
      await store.insertTransaction(trx, txn);
      await this.deps.cards.emit(trx, card, 'transaction.declined', transactionData(txn, card, before));
      return this.present(trx, txn, card);
    }
    const { balances } = await this.deps.ledger.executeWithTotals(
      trx,
      [
        {
          type: 'pending',
          id: txn.hold_id as string,
          debitAccountId: account,
          creditAccountId: network,
          amount: charge.amountCents,
          code: 'card_authorization',
        },
      ],
      // The hold's id is the transaction's, whose row the card's lock showed absent (`decideCharge`).
      { locked, fresh: true },
    );
    await store.insertTransaction(trx, txn);
    const after = await this.afterMove(trx, card, txn, 'transaction.authorized', before, {
      moved: balances.get(account),
    });
    return this.present(trx, txn, after);
  }

  /**
   * Brings the budget of the mandate a card is held to in step with one of its charges, after any
   * move of it: a purchase takes what it holds and settled, less what was refunded of it; a return
   * the issuer could not link to a purchase gives back what it settled, in its own name (whatever
   * order the issuer's reports came in, the card's transactions then take what left the card). Set,
   * not added: applied again, or after the reports in any order, it finds the books as they are.
   * The mandate's row is locked after the card's, before the books' (`lockMandate`; docs/ledger.md).
   */
  async followMandate(trx: Executor, card: Card, transactionId: string): Promise<void> {
    if (!card.mandate_id) return;
    const txn = await store.transactionById(trx, transactionId);
    const linked = txn?.type === 'refund' && txn.original_transaction_id;
    const charge = linked ? await store.transactionById(trx, linked) : txn;
    if (!charge) return;
    const takesCents =
      charge.type === 'refund'
        ? -(charge.settled_cents ?? 0)
        : (await this.heldBy(trx, charge)) + (charge.settled_cents ?? 0) - charge.refunded_cents;
    await this.deps.cards.requireMandates().follow(trx, {
      mandateId: card.mandate_id,
      reference: charge.id,
      takesCents,
      merchant: charge.merchant,
      category: charge.mcc,
      at: charge.created_at,
    });
  }

  /** What an authorization still holds: its open hold in the ledger (0 once posted or released). */
  async heldBy(exec: Executor, txn: Pick<CardTransaction, 'hold_id'>): Promise<number> {
    if (!txn.hold_id) return 0;
    const hold = await this.deps.ledger.transfer(exec, txn.hold_id);
    return hold?.pending_state === 'open' ? Number(hold.amount) : 0;
  }

  /**
   * After money moved on a card: the transaction's event with the balance the move left, and
   * `balance.low` alongside it when that is 1000 cents or less but above zero (spec §6). Then the
   * card: a single-use card's first approved charge spends it (`single_use_spent`), and a multi-use
   * card's approved charge or clearing that leaves nothing to spend exhausts it (`balance_exhausted`;
   * spec §3): closed, what is left goes back to its owner. Else `card.updated` if the balance
   * changed. A card already closed sends what it gets back (a released hold) to its owner at once:
   * the wallet, or the company pool for a company-funded card (`CardService.release`).
   * `moved` is the card account's totals as the move left them, when the caller has them; `voided`
   * what a void released and left held (`transaction.voided` carries both). Returns the card as it
   * now is. Also for settlement.ts.
   */
  async afterMove(
    trx: Executor,
    card: Card,
    txn: CardTransaction,
    type:
      | 'transaction.authorized'
      | 'transaction.cleared'
      | 'transaction.voided'
      | 'transaction.refunded'
      | null,
    before: number,
    { moved, voided }: { moved?: AccountBalance | undefined; voided?: VoidedAmounts } = {},
  ): Promise<Card> {
    const scope = tenantOf(card);
    let totals = moved;
    if (card.status === 'CLOSED') {
      await this.deps.cards.release(trx, card, `${txn.id}.release.${newId('r')}`);
      totals = undefined; // the return moved money since
    }
    totals ??= await this.deps.ledger.balance(trx, await this.deps.cards.cardAccount(trx, scope, card.id));
    const balance = totals.available_cents;
    // Written together, in this order; `card.closed` follows from `closeLocked`.
    const events: { type: string; data: Record<string, unknown> }[] = [];
    if (type) {
      events.push({ type, data: transactionData(txn, card, balance, voided) });
      if (balance > 0 && balance <= LOW_BALANCE_CENTS) {
        events.push({
          type: 'balance.low',
          data: { card_id: card.id, last4: card.last4, balance_cents: balance },
        });
      }
    }
    const closing = card.status === 'CLOSED' ? null : closingReason(card, type, balance);
    if (card.status !== 'CLOSED' && !closing && balance !== before)
      events.push({ type: 'card.updated', data: cardUpdatedData(card, balance) });
    await this.deps.cards.emitAll(trx, card, events);
    return closing ? this.deps.cards.closeLocked(trx, card, closing) : card;
  }

  /** The transaction as the API shows it; `known` spares re-reading its card (only `last4` is used). */
  async present(exec: Executor, txn: CardTransaction, known?: Card) {
    const card =
      known?.id === txn.card_id
        ? known
        : ((await store.card(exec, txn.organization_id, txn.livemode, txn.card_id)) as Card);
    return transactionObject(txn, card);
  }
}

/** An authorization's books: the card's and the network's accounts, locked, and the card's balance. */
interface Books {
  account: string;
  network: string;
  locked: LockedAccounts;
  before: number;
}

/** What the platform's answer makes of a charge the engine approved (docs/cards.md "Real-time authorization"). */
function platformOutcome(
  answer: PlatformAnswer,
  endpoint: Pick<AuthorizationEndpoint, 'on_timeout'>,
): Outcome {
  if (answer === 'timeout') {
    return endpoint.on_timeout === 'approve'
      ? { approve: true, decidedBy: 'timeout' }
      : { decline: 'PLATFORM_DECLINED', decidedBy: 'timeout' };
  }
  if (answer.approved) return { approve: true, decidedBy: 'platform' };
  return { decline: 'PLATFORM_DECLINED', decidedBy: 'platform', platformReason: answer.reason };
}

/**
 * Whether a move closes an open card (spec §3): a single-use card's first approved charge spends it;
 * a multi-use card's approved charge or clearing that leaves nothing to spend exhausts it.
 */
function closingReason(card: Card, type: string | null, balance: number): ClosedReason | null {
  if (card.type === 'single_use' && type === 'transaction.authorized') return 'single_use_spent';
  const spent = type === 'transaction.authorized' || type === 'transaction.cleared';
  if (card.type === 'multi_use' && spent && balance === 0) return 'balance_exhausted';
  return null;
}

/** A charge on a card held to a mandate, as the mandate's terms see it. */
function mandatedCharge(card: Card, charge: ChargeRequest & { priorCents?: number }, clock: Clock) {
  return {
    mandateId: card.mandate_id as string,
    amountCents: charge.amountCents,
    priorCents: charge.priorCents,
    currency: 'usd',
    category: charge.mcc ?? null,
    merchant: charge.merchantSlug ?? charge.merchant,
    at: clock.now(),
  };
}

/** A decline by the mandate a card is held to, naming the term (`spending_control`). */
function mandateDecline(card: Card, term: MandateTermName): Outcome {
  return {
    decline: 'MANDATE_EXCEEDED',
    decidedBy: 'engine',
    control: { source: 'mandate', rule: term, mandate_id: card.mandate_id as string },
  };
}

function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}

function statusDecline(card: Card): DeclineReason | null {
  if (card.status === 'CLOSED') return 'CARD_CLOSED';
  if (card.status === 'PAUSED') return 'CARD_PAUSED';
  return null;
}

function fundsDecline(card: Card, amountCents: number, balanceCents: number): DeclineReason | null {
  if (amountCents > balanceCents) return 'INSUFFICIENT_FUNDS';
  if (amountCents > card.spend_limit_cents) return 'SPEND_LIMIT_EXCEEDED';
  return null;
}
