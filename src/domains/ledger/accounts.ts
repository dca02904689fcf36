import { AccountFlags, type AccountState, available, type Totals } from './rules.ts';
import type { AccountKind } from './store.ts';

// What an account is to the ledger: its kind's limit, its balance, and how a transaction holds it.
// The ledger's service (service.ts) moves money between them; these are its vocabulary.

/**
 * Accounts that hold someone's money can never go below zero; system accounts mirror the world. The
 * pool, which every release of an organization's company-funded cards credits, is credited unlocked.
 */
export const FLAGS_BY_KIND: Record<AccountKind, number> = {
  company_pool: AccountFlags.debitsMustNotExceedCredits | AccountFlags.creditsAppended,
  user_wallet: AccountFlags.debitsMustNotExceedCredits,
  card: AccountFlags.debitsMustNotExceedCredits,
  funding_source: 0,
  network_settlement: 0,
  rewards: 0,
  fees: 0,
};

export interface AccountSpec {
  organizationId: string;
  livemode: boolean;
  kind: AccountKind;
  /** The organization (pools and system accounts), user (wallet) or card the account is for. */
  ownerId: string;
}

export interface AccountBalance {
  account_id: string;
  /** Received less spent (held money still counts here until posted or released). */
  posted_cents: number;
  /** Held by open pending transfers. */
  pending_cents: number;
  /** What can still be spent: posted less held. */
  available_cents: number;
}

/**
 * An account as a transaction holds it. `locked`: its totals as they stand in the transaction
 * (batches applied since included). Not locked (a mirror account, or one credited without its lock):
 * zero, so that a batch's copy of it ends holding the batch's change, which is appended.
 */
export interface HeldAccount extends AccountState {
  locked: boolean;
}

/**
 * The accounts a transaction locked up front (`lockAccounts`), and those it names unlocked: mirror
 * accounts, and accounts it only credits that take credits without their lock.
 */
export interface LockedAccounts {
  accounts: Map<string, HeldAccount>;
  /** A limited account's balance as it stands in the transaction (not a mirror account's). */
  balance(id: string): AccountBalance;
}

export const ZERO: Totals = { debits_pending: 0, debits_posted: 0, credits_pending: 0, credits_posted: 0 };

/**
 * A mirror account (no limit flag: the network's settlement, a funding source, rewards, fees) is
 * never locked: no rule reads its balance, and it is shared by all of an organization's transfers,
 * so a lock on it would serialize the organization (docs/ledger.md, "Mirror accounts").
 */
export const isMirror = (account: Pick<AccountState, 'flags'>) => account.flags === 0;

/**
 * Whether a transaction may name the account without its lock: a mirror account, or one flagged
 * `creditsAppended` (the company pool), which a transaction that does not lock it may only credit.
 */
export const lockOptional = (account: Pick<AccountState, 'flags'>) =>
  isMirror(account) || (account.flags & AccountFlags.creditsAppended) !== 0;

/**
 * An account as a transaction holds it: its fixed fields, these totals, whether it is locked. Every
 * held account is made here, with its fields written out in one order, so that they all share one
 * shape (copies spread from rows of different statements were slow to read and to copy again).
 */
export function heldAccount(account: AccountState, totals: Totals, locked: boolean): HeldAccount {
  return {
    id: account.id,
    organization_id: account.organization_id,
    livemode: account.livemode,
    currency: account.currency,
    flags: account.flags,
    debits_pending: totals.debits_pending,
    debits_posted: totals.debits_posted,
    credits_pending: totals.credits_pending,
    credits_posted: totals.credits_posted,
    locked,
  };
}

export const unlocked = (account: AccountState): HeldAccount => heldAccount(account, ZERO, false);

export function balanceOf(account: AccountState): AccountBalance {
  return {
    account_id: account.id,
    posted_cents: account.credits_posted - account.debits_posted,
    pending_cents: account.debits_pending,
    available_cents: available(account),
  };
}
