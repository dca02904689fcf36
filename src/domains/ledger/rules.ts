/**
 * The ledger's rules, free of storage: how each kind of transfer changes the two accounts' totals
 * and when it is refused. Modelled on TigerBeetle's state machine (docs/ledger.md): a closed set of
 * operations, a result code for every refusal, the account invariants checked after every change.
 */

/** Account flags, as a bit set. */
export const AccountFlags = {
  /** The account may never spend what it has not received (wallets, cards, pools). */
  debitsMustNotExceedCredits: 1,
  /** The mirror rule, for accounts that may only pay out what they were charged. */
  creditsMustNotExceedDebits: 2,
  /**
   * Storage, not a rule: a transaction may credit the account without locking it (the company pool,
   * credited by every release of its organization's company-funded cards); only a debit locks it.
   * Its unlocked changes are appended, as a mirror account's are (docs/ledger.md).
   */
  creditsAppended: 4,
} as const;

export interface Totals {
  debits_pending: number;
  debits_posted: number;
  credits_pending: number;
  credits_posted: number;
}

export interface AccountState extends Totals {
  id: string;
  organization_id: string;
  livemode: number;
  currency: string;
  flags: number;
}

interface NewTransfer {
  /** Chosen by the caller: the same id again is the same transfer, never a second one. */
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  /** Integer cents, at least 1. */
  amount: number;
  /** What the money moves for (`card_funding`, `authorization`, …). */
  code: string;
  metadata?: Record<string, unknown>;
}

export type TransferRequest =
  /** Moves money at once. */
  | ({ type: 'posted' } & NewTransfer)
  /** Holds money: the debit account can no longer spend it; the credit account does not have it yet. */
  | ({ type: 'pending'; timeoutAt?: number | null } & NewTransfer)
  /** Ends a hold by moving `amount` of it (all when omitted, less releases the rest). */
  | { type: 'post_pending'; id: string; pendingId: string; amount?: number }
  /** Ends a hold by releasing all of it. */
  | { type: 'void_pending'; id: string; pendingId: string };

/** Whether a request ends a hold (its `pendingId`), rather than recording a new transfer. */
export function endsHold(
  request: TransferRequest,
): request is Extract<TransferRequest, { type: 'post_pending' | 'void_pending' }> {
  return request.type === 'post_pending' || request.type === 'void_pending';
}

export type RefusalCode =
  | 'amount_must_be_positive'
  | 'accounts_must_be_different'
  | 'debit_account_not_found'
  | 'credit_account_not_found'
  | 'accounts_must_share_ledger'
  | 'accounts_must_have_same_currency'
  | 'exists_with_different_fields'
  | 'pending_transfer_not_found'
  | 'pending_transfer_not_pending'
  | 'pending_transfer_already_posted'
  | 'pending_transfer_already_voided'
  | 'pending_transfer_expired'
  | 'exceeds_pending_transfer_amount'
  | 'exceeds_credits'
  | 'exceeds_debits';

/** A stored transfer, as the rules need it. */
export interface TransferState {
  id: string;
  kind: 'posted' | 'pending' | 'post_pending' | 'void_pending';
  debit_account_id: string;
  credit_account_id: string;
  amount: number;
  pending_id: string | null;
  pending_state: 'open' | 'posted' | 'voided' | 'expired' | null;
  timeout_at: number | null;
  code: string;
}

/** What applying one request does: the row to insert and, for a hold's ending, its new state. */
export interface Applied {
  transfer: TransferState;
  endsPending: { id: string; state: 'posted' | 'voided' | 'expired' } | null;
}

export class LedgerRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    /** Which request of the batch was refused. */
    readonly index: number,
    readonly transferId: string,
  ) {
    super(`ledger refused transfer ${transferId}: ${code}`);
  }
}

const isAmount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) > 0;

/**
 * Whether a stored transfer is the one this request describes: a retry is recognised only when
 * every field the caller chose matches (TigerBeetle's `exists` versus `exists_with_different_*`).
 */
export function sameTransfer(stored: TransferState, request: TransferRequest): boolean {
  if (stored.kind !== request.type) return false;
  if (request.type === 'post_pending' || request.type === 'void_pending') {
    if (stored.pending_id !== request.pendingId) return false;
    return (
      request.type === 'void_pending' || request.amount === undefined || request.amount === stored.amount
    );
  }
  return (
    stored.debit_account_id === request.debitAccountId &&
    stored.credit_account_id === request.creditAccountId &&
    stored.amount === request.amount &&
    stored.code === request.code
  );
}

/**
 * Applies one request to the accounts it touches (changed in place) and returns the row to write,
 * or the refusal code. `accounts` holds every account the request can touch, `pending` the hold a
 * post or void names (null when it does not exist).
 */
export function applyTransfer(
  request: TransferRequest,
  accounts: Map<string, AccountState>,
  pending: TransferState | null,
  now: number,
): Applied | RefusalCode {
  if (request.type === 'posted' || request.type === 'pending') {
    if (!isAmount(request.amount)) return 'amount_must_be_positive';
    if (request.debitAccountId === request.creditAccountId) return 'accounts_must_be_different';
    const debit = accounts.get(request.debitAccountId);
    const credit = accounts.get(request.creditAccountId);
    if (!debit) return 'debit_account_not_found';
    if (!credit) return 'credit_account_not_found';
    // Money never crosses an organization or a mode: sandbox cents stay sandbox cents.
    if (debit.organization_id !== credit.organization_id || debit.livemode !== credit.livemode) {
      return 'accounts_must_share_ledger';
    }
    if (debit.currency !== credit.currency) return 'accounts_must_have_same_currency';
    if (request.type === 'posted') {
      debit.debits_posted += request.amount;
      credit.credits_posted += request.amount;
    } else {
      debit.debits_pending += request.amount;
      credit.credits_pending += request.amount;
    }
    const refusal = checkLimits(debit) ?? checkLimits(credit);
    if (refusal) return refusal;
    return {
      transfer: {
        id: request.id,
        kind: request.type,
        debit_account_id: debit.id,
        credit_account_id: credit.id,
        amount: request.amount,
        pending_id: null,
        pending_state: request.type === 'pending' ? 'open' : null,
        timeout_at: request.type === 'pending' ? (request.timeoutAt ?? null) : null,
        code: request.code,
      },
      endsPending: null,
    };
  }

  if (!pending) return 'pending_transfer_not_found';
  if (pending.kind !== 'pending') return 'pending_transfer_not_pending';
  if (pending.pending_state === 'posted') return 'pending_transfer_already_posted';
  if (pending.pending_state === 'voided') return 'pending_transfer_already_voided';
  if (pending.pending_state === 'expired') return 'pending_transfer_expired';
  const expired = pending.timeout_at !== null && pending.timeout_at <= now;
  const amount = request.type === 'post_pending' ? (request.amount ?? pending.amount) : pending.amount;
  if (request.type === 'post_pending') {
    // A hold past its expiry can no longer be captured, even before the sweep voids it.
    if (expired) return 'pending_transfer_expired';
    if (!isAmount(amount)) return 'amount_must_be_positive';
    if (amount > pending.amount) return 'exceeds_pending_transfer_amount';
  }
  const debit = accounts.get(pending.debit_account_id);
  const credit = accounts.get(pending.credit_account_id);
  if (!debit) return 'debit_account_not_found';
  if (!credit) return 'credit_account_not_found';
  debit.debits_pending -= pending.amount;
  credit.credits_pending -= pending.amount;
  if (request.type === 'post_pending') {
    debit.debits_posted += amount;
    credit.credits_posted += amount;
  }
  // Ending a hold never adds to what an account owes, so it cannot break a limit.
  return {
    transfer: {
      id: request.id,
      kind: request.type,
      debit_account_id: debit.id,
      credit_account_id: credit.id,
      amount,
      pending_id: pending.id,
      pending_state: null,
      timeout_at: null,
      code: pending.code,
    },
    endsPending: {
      id: pending.id,
      state: request.type === 'post_pending' ? 'posted' : expired ? 'expired' : 'voided',
    },
  };
}

/** The account invariants every change is checked against. */
export function checkLimits(account: AccountState): RefusalCode | null {
  const debits = account.debits_pending + account.debits_posted;
  const credits = account.credits_pending + account.credits_posted;
  if (account.flags & AccountFlags.debitsMustNotExceedCredits && debits > account.credits_posted) {
    return 'exceeds_credits';
  }
  if (account.flags & AccountFlags.creditsMustNotExceedDebits && credits > account.debits_posted) {
    return 'exceeds_debits';
  }
  return null;
}

/** What an account can still spend: received, less spent, less held. */
export function available(totals: Totals): number {
  return totals.credits_posted - totals.debits_posted - totals.debits_pending;
}

/** Sets `to`'s four totals to `from`'s. */
export function copyTotals(to: Totals, from: Totals): void {
  to.debits_pending = from.debits_pending;
  to.debits_posted = from.debits_posted;
  to.credits_pending = from.credits_pending;
  to.credits_posted = from.credits_posted;
}
