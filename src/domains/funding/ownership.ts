import type { Executor } from '../../db/index.ts';
import type { CardFlowStatus } from '../../db/schema.ts';
import { cardFundingId, cardOwners } from '../cards/index.ts';
import { existingUsers } from '../connect/index.ts';
import {
  type LedgerBooks,
  type PairTotal,
  type PairTransfer,
  transfersBetween,
  type Violation,
} from '../ledger/index.ts';
import { holdId } from './flow.ts';
import * as store from './store.ts';

/*
 * Whose money it is, proven from the books (issue 24, Ownership; docs/funding.md, docs/ledger.md).
 * Money sits with one of two owners: a user (their wallet and the cards it funded) or the
 * organization (its pool and its company-funded cards). `purser ledger verify` runs these checks
 * after the ledger's own (`LedgerService.addCheck`):
 *
 * - `ownership_transfer`: no transfer moves money from one owner to another, except the
 *   company-funded transfer (the pool's hold for a flow, posted to that user's wallet once the flow
 *   completed) and the card it ends in (funded from that wallet at mint);
 * - `company_card_balance`: for each company-funded card, spent + held + balance + released =
 *   transferred (the flow's amount and what the pool added since);
 * - `user_balance`: for each user, wallet + user-funded cards + what those cards spent = what
 *   reached them (fundings and deposits, rewards, and the company's transfers the spec makes theirs:
 *   those whose card failed, less what later flows netted from them).
 *
 * Accounts whose user or card the platform does not know (the ledger's own tests open such) belong
 * to no one here and are left out.
 */

/** A flow that moved the pool's money into the user's wallet. */
const TRANSFERRED: readonly CardFlowStatus[] = ['completed', 'card_created', 'card_failed'];

interface Account {
  id: string;
  organization_id: string;
  livemode: number;
  kind: string;
  owner_id: string;
  debits_pending: number;
  debits_posted: number;
  credits_posted: number;
  /** The user, for a wallet whose user exists. */
  user_id: string | null;
  /** For a card account whose card exists. */
  card_user_id: string | null;
  card_transfer_id: string | null;
}

interface Flow {
  id: string;
  user_id: string;
  status: CardFlowStatus;
  amount_cents: number;
  transfer_cents: number;
  card_id: string;
}

/** Who owns an account's money: the organization (per mode), a user, the outside world, or unknown. */
type Owner =
  | { type: 'company'; key: string }
  | { type: 'user'; key: string; userId: string }
  | { type: 'system' }
  | { type: 'unknown' };

interface OwnershipBooks {
  accounts: Account[];
  flows: Flow[];
  pairs: PairTotal[];
  /** The transfers between accounts of two different owners. */
  crossings(pairs: PairTotal[]): Promise<PairTransfer[]>;
}

/**
 * Reads what the checks need, each from the domain that owns it: the accounts and what moved between
 * each pair of them (the ledger), the users and cards the accounts are of (connect, cards), and the
 * flows (ours). All on `exec`, the one snapshot `ledger verify` reads.
 */
async function ownershipBooks(exec: Executor, ledger: LedgerBooks): Promise<OwnershipBooks> {
  const rows = ledger.accounts;
  const idsOf = (kind: string) => rows.filter((a) => a.kind === kind).map((a) => a.owner_id);
  const users = await existingUsers(exec, idsOf('user_wallet'));
  const cards = await cardOwners(exec, idsOf('card'));
  const accounts = rows.map((a): Account => {
    const card = a.kind === 'card' ? cards.get(a.owner_id) : undefined;
    return {
      id: a.id,
      organization_id: a.organization_id,
      livemode: a.livemode,
      kind: a.kind,
      owner_id: a.owner_id,
      debits_pending: Number(a.debits_pending),
      debits_posted: Number(a.debits_posted),
      credits_posted: Number(a.credits_posted),
      user_id: a.kind === 'user_wallet' && users.has(a.owner_id) ? a.owner_id : null,
      card_user_id: card?.user_id ?? null,
      card_transfer_id: card?.transfer_id ?? null,
    };
  });
  const flows = await store.everyFlow(exec);
  return {
    accounts,
    flows: flows.map((f) => ({
      ...f,
      amount_cents: Number(f.amount_cents),
      transfer_cents: Number(f.transfer_cents),
    })),
    pairs: ledger.pairs,
    crossings: (crossing) => transfersBetween(exec, crossing),
  };
}

/** Every ownership violation in the books (see the top of this file). */
export async function verifyOwnership(exec: Executor, ledger: LedgerBooks): Promise<Violation[]> {
  return ownershipViolations(await ownershipBooks(exec, ledger));
}

async function ownershipViolations(books: OwnershipBooks): Promise<Violation[]> {
  const accounts = new Map(books.accounts.map((a) => [a.id, a]));
  const owner = (id: string): Owner => ownerOf(accounts.get(id));
  const flows = new Map(books.flows.map((f) => [f.id, f]));
  const flowsByHold = new Map(books.flows.map((f) => [holdId(f), f]));
  const crossing = books.pairs.filter((p) => crosses(owner(p.debit), owner(p.credit)));
  const violations: Violation[] = [];
  for (const transfer of await books.crossings(crossing)) {
    const problem = crossingProblem(transfer, accounts, flows, flowsByHold);
    if (problem) violations.push({ invariant: 'ownership_transfer', subject: transfer.id, detail: problem });
  }
  const moved = movedByAccount(books.pairs, accounts);
  violations.push(...companyCardViolations(books.accounts, moved, flows));
  violations.push(...userViolations(books.accounts, moved, books.flows));
  return violations;
}

function ownerOf(account: Account | undefined): Owner {
  if (!account) return { type: 'unknown' };
  const company = { type: 'company' as const, key: `${account.organization_id}:${account.livemode}` };
  const user = (userId: string) => ({ type: 'user' as const, key: `user:${userId}`, userId });
  if (account.kind === 'company_pool') return company;
  if (account.kind === 'user_wallet') return account.user_id ? user(account.user_id) : { type: 'unknown' };
  if (account.kind === 'card') {
    if (!account.card_user_id) return { type: 'unknown' };
    return account.card_transfer_id ? company : user(account.card_user_id);
  }
  return { type: 'system' };
}

function crosses(from: Owner, to: Owner): boolean {
  const owned = (o: Owner) => o.type === 'company' || o.type === 'user';
  return owned(from) && owned(to) && (from as { key: string }).key !== (to as { key: string }).key;
}

/**
 * Why a transfer between two owners is wrong, or null for the two the spec allows: the pool's hold
 * for a flow into that flow's user's wallet (posted only once the flow completed), and the wallet
 * funding the card its completed flow ends in (`<card>.funding`, at mint).
 */
function crossingProblem(
  transfer: PairTransfer,
  accounts: Map<string, Account>,
  flows: Map<string, Flow>,
  flowsByHold: Map<string, Flow>,
): string | null {
  const from = accounts.get(transfer.debit_account_id) as Account;
  const to = accounts.get(transfer.credit_account_id) as Account;
  const moved = `${transfer.kind} ${transfer.amount} from ${describe(from)} to ${describe(to)}`;
  if (from.kind === 'company_pool' && to.kind === 'user_wallet') {
    const flow = flowsByHold.get(transfer.kind === 'pending' ? transfer.id : (transfer.pending_id ?? ''));
    if (!flow || flow.user_id !== to.user_id)
      return `${moved}, outside any company-funded transfer to that user`;
    if (transfer.kind === 'pending' && transfer.amount !== flow.transfer_cents)
      return `${moved}, but transfer ${flow.id} moves ${flow.transfer_cents}`;
    if (transfer.kind === 'post_pending' && !TRANSFERRED.includes(flow.status))
      return `${moved}, but transfer ${flow.id} is ${flow.status}, not completed`;
    if (transfer.kind === 'posted') return `${moved}, outside the hold of transfer ${flow.id}`;
    return null;
  }
  if (from.kind === 'user_wallet' && to.kind === 'card' && to.card_user_id === from.user_id) {
    const flow = flows.get(to.card_transfer_id ?? '');
    if (
      transfer.kind === 'posted' &&
      transfer.id === cardFundingId(to.owner_id) &&
      flow?.card_id === to.owner_id
    )
      return flow.status === 'card_created' ? null : `${moved}, but transfer ${flow.id} is ${flow.status}`;
  }
  return `${moved}: money changes owner outside a company-funded transfer`;
}

function describe(account: Account): string {
  if (account.kind === 'company_pool') return 'the company pool';
  if (account.kind === 'user_wallet') return `user ${account.owner_id}'s wallet`;
  return account.card_transfer_id
    ? `company-funded card ${account.owner_id}`
    : `user ${account.card_user_id}'s card ${account.owner_id}`;
}

/** What one account sent to or got from each kind of counterparty, posted or still held. */
interface Moved {
  toNetwork: number;
  toNetworkHeld: number;
  fromNetwork: number;
  toPool: number;
  toPoolHeld: number;
  fromPool: number;
  fromSource: number;
  toSource: number;
  fromRewards: number;
}

const NOTHING: Moved = {
  toNetwork: 0,
  toNetworkHeld: 0,
  fromNetwork: 0,
  toPool: 0,
  toPoolHeld: 0,
  fromPool: 0,
  fromSource: 0,
  toSource: 0,
  fromRewards: 0,
};

function movedByAccount(pairs: PairTotal[], accounts: Map<string, Account>): Map<string, Moved> {
  const moved = new Map<string, Moved>();
  const add = (id: string, key: keyof Moved, amount: number) => {
    if (!accounts.has(id)) return;
    const totals = moved.get(id) ?? { ...NOTHING };
    totals[key] += amount;
    moved.set(id, totals);
  };
  const kindOf = (id: string) => accounts.get(id)?.kind;
  for (const pair of pairs) {
    const posted = pair.kind === 'posted' || pair.kind === 'post_pending';
    const held = pair.kind === 'pending' && pair.pending_state === 'open';
    if (!posted && !held) continue;
    const debitKind = kindOf(pair.debit);
    const creditKind = kindOf(pair.credit);
    if (creditKind === 'network_settlement')
      add(pair.debit, posted ? 'toNetwork' : 'toNetworkHeld', pair.total);
    if (creditKind === 'company_pool') add(pair.debit, posted ? 'toPool' : 'toPoolHeld', pair.total);
    if (creditKind === 'funding_source' && posted) add(pair.debit, 'toSource', pair.total);
    if (!posted) continue;
    if (debitKind === 'network_settlement') add(pair.credit, 'fromNetwork', pair.total);
    if (debitKind === 'company_pool') add(pair.credit, 'fromPool', pair.total);
    if (debitKind === 'funding_source') add(pair.credit, 'fromSource', pair.total);
    if (debitKind === 'rewards') add(pair.credit, 'fromRewards', pair.total);
  }
  return moved;
}

/** Each company-funded card: spent + held + balance + released = transferred. */
function companyCardViolations(
  accounts: Account[],
  moved: Map<string, Moved>,
  flows: Map<string, Flow>,
): Violation[] {
  const violations: Violation[] = [];
  for (const account of accounts) {
    if (account.kind !== 'card' || !account.card_transfer_id) continue;
    const m = moved.get(account.id) ?? NOTHING;
    const flow = flows.get(account.card_transfer_id);
    const minted =
      flow?.card_id === account.owner_id && flow.status === 'card_created' ? flow.amount_cents : 0;
    const transferred = minted + m.fromPool;
    const spent = m.toNetwork - m.fromNetwork;
    const held = m.toNetworkHeld;
    const released = m.toPool + m.toPoolHeld;
    const balance = account.credits_posted - account.debits_posted - account.debits_pending;
    if (spent + held + balance + released === transferred) continue;
    violations.push({
      invariant: 'company_card_balance',
      subject: account.owner_id,
      detail: `spent ${spent} + held ${held} + balance ${balance} + released ${released} = ${spent + held + balance + released}, but ${transferred} was transferred (transfer ${account.card_transfer_id}: ${minted}, from the pool since: ${m.fromPool})`,
    });
  }
  return violations;
}

/** Each user: wallet + user-funded cards + what those cards spent = what reached them. */
function userViolations(accounts: Account[], moved: Map<string, Moved>, flows: Flow[]): Violation[] {
  const users = new Map<
    string,
    { holds: number; spent: number; fundings: number; rewards: number; company: number }
  >();
  const of = (userId: string) => {
    const found = users.get(userId) ?? { holds: 0, spent: 0, fundings: 0, rewards: 0, company: 0 };
    users.set(userId, found);
    return found;
  };
  for (const account of accounts) {
    const owner = ownerOf(account);
    if (owner.type !== 'user') continue;
    const user = of(owner.userId);
    const m = moved.get(account.id) ?? NOTHING;
    user.holds += account.credits_posted - account.debits_posted;
    if (account.kind === 'card') user.spent += m.toNetwork - m.fromNetwork;
    if (account.kind === 'user_wallet') {
      user.fundings += m.fromSource - m.toSource;
      user.rewards += m.fromRewards;
    }
  }
  // The company's money that is the user's: what completed transfers put in the wallet, less what
  // went on to the company-funded cards (a card that failed leaves it theirs; a later flow nets it).
  for (const flow of flows) {
    if (TRANSFERRED.includes(flow.status)) of(flow.user_id).company += flow.transfer_cents;
    if (flow.status === 'card_created') of(flow.user_id).company -= flow.amount_cents;
  }
  const violations: Violation[] = [];
  for (const [userId, u] of users) {
    const reached = u.fundings + u.rewards + u.company;
    if (u.holds + u.spent === reached) continue;
    violations.push({
      invariant: 'user_balance',
      subject: userId,
      detail: `wallet and user-funded cards ${u.holds} + their spend ${u.spent} = ${u.holds + u.spent}, but ${reached} reached the user (fundings and deposits ${u.fundings}, rewards ${u.rewards}, company transfers theirs ${u.company})`,
    });
  }
  return violations;
}
