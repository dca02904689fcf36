import type { Executor } from '../../db/index.ts';
import { AccountFlags, checkLimits, type Totals } from './rules.ts';
import type { LedgerBooks, PairTotal } from './verify-store.ts';
import * as store from './verify-store.ts';

export interface Violation {
  invariant:
    | 'transfer_shape'
    | 'double_entry'
    | 'cached_totals'
    | 'account_limit'
    | 'pending_hold'
    | 'hold_ending'
    /** Checked by the cards domain (`LedgerService.addCheck`): a purchase's refunds. */
    | 'refund_above_settled'
    | 'refund_total'
    /** Checked by the funding domain: whose money it is (funding/ownership.ts). */
    | 'ownership_transfer'
    | 'company_card_balance'
    | 'user_balance';
  /** The account or transfer at fault. */
  subject: string;
  detail: string;
}

const ZERO: Totals = { debits_pending: 0, debits_posted: 0, credits_pending: 0, credits_posted: 0 };

/**
 * Proves the ledger's invariants from the transfers themselves, trusting no cached total:
 * 1. every transfer moves a positive amount between two different accounts of one ledger;
 * 2. every account's cached totals (a mirror account's with its deltas not yet folded, `deltas`)
 *    equal the sums of its transfers (posted: `posted` and `post_pending` rows; pending: `pending`
 *    rows still open), so debits equal credits overall;
 * 3. no account flagged against it is overdrawn;
 * 4. every hold is open with no ending, or ended exactly once by a matching post or void.
 */
export async function verifyLedger(
  db: Executor,
  books: LedgerBooks,
  deltas: Map<string, Totals>,
): Promise<Violation[]> {
  const violations: Violation[] = [];

  const accounts = new Map(books.accounts.map((a) => [a.id, a]));
  const misshapen = books.pairs.some((pair) => misshapenPair(pair, accounts));
  for (const t of misshapen ? await store.malformedTransfers(db) : []) {
    violations.push({
      invariant: 'transfer_shape',
      subject: t.id,
      detail: `amount ${t.amount} from ${t.debit_account_id} (${t.d_org}/${t.d_mode}) to ${t.credit_account_id} (${t.c_org}/${t.c_mode})`,
    });
  }

  const derived = new Map<string, Totals>();
  const add = (id: string, key: keyof Totals, amount: number) => {
    const totals = derived.get(id) ?? { ...ZERO };
    totals[key] += amount;
    derived.set(id, totals);
  };
  for (const pair of books.pairs) {
    const state =
      pair.kind === 'posted' || pair.kind === 'post_pending'
        ? 'posted'
        : pair.kind === 'pending' && pair.pending_state === 'open'
          ? 'pending'
          : null;
    if (!state) continue;
    add(pair.debit, `debits_${state}`, pair.total);
    add(pair.credit, `credits_${state}`, pair.total);
  }

  const sums = { ...ZERO };
  for (const row of books.accounts) {
    const delta = deltas.get(row.id) ?? ZERO;
    const account = { ...row };
    for (const key of Object.keys(ZERO) as (keyof Totals)[])
      account[key] = Number(row[key]) + Number(delta[key]);
    const expected = derived.get(account.id) ?? ZERO;
    for (const key of Object.keys(ZERO) as (keyof Totals)[]) {
      sums[key] += Number(account[key]);
      if (Number(account[key]) !== expected[key]) {
        violations.push({
          invariant: 'cached_totals',
          subject: account.id,
          detail: `${key} is ${account[key]} but its transfers sum to ${expected[key]}`,
        });
      }
    }
    const limit = checkLimits(account);
    if (limit) {
      const rule =
        limit === 'exceeds_credits'
          ? AccountFlags.debitsMustNotExceedCredits
          : AccountFlags.creditsMustNotExceedDebits;
      violations.push({
        invariant: 'account_limit',
        subject: account.id,
        detail: `${account.kind} ${account.owner_id} breaks flag ${rule} (${limit}): ${JSON.stringify({
          debits_pending: account.debits_pending,
          debits_posted: account.debits_posted,
          credits_pending: account.credits_pending,
          credits_posted: account.credits_posted,
        })}`,
      });
    }
  }
  if (sums.debits_posted !== sums.credits_posted || sums.debits_pending !== sums.credits_pending) {
    violations.push({
      invariant: 'double_entry',
      subject: 'ledger',
      detail: `debits ${sums.debits_posted} posted / ${sums.debits_pending} pending, credits ${sums.credits_posted} posted / ${sums.credits_pending} pending`,
    });
  }

  for (const h of await store.disagreeingHolds(db)) {
    const problem = holdProblem(h);
    if (problem) violations.push({ invariant: 'pending_hold', subject: h.id, detail: problem });
  }

  const strayEndings = await store.strayEndings(db);
  for (const e of strayEndings) {
    violations.push({
      invariant: 'hold_ending',
      subject: e.id,
      detail: `${e.kind} names hold ${e.pending_id}`,
    });
  }
  return violations;
}

/**
 * Whether transfers between these two accounts include one of a broken shape (rule 1): the pair's
 * smallest amount not positive, an account sending to itself, accounts of two organizations or modes,
 * or transfers naming an organization not their accounts'. A pair with an account not found has no
 * shape to judge (the scan joins both accounts too).
 */
function misshapenPair(
  pair: PairTotal,
  accounts: Map<string, Pick<LedgerBooks['accounts'][number], 'organization_id' | 'livemode'>>,
): boolean {
  const debit = accounts.get(pair.debit);
  const credit = accounts.get(pair.credit);
  if (!debit || !credit) return false;
  return (
    pair.smallest <= 0 ||
    pair.debit === pair.credit ||
    debit.organization_id !== credit.organization_id ||
    Number(debit.livemode) !== Number(credit.livemode) ||
    pair.organization_id !== debit.organization_id
  );
}

function holdProblem(h: {
  kind: string;
  pending_state: string | null;
  amount: number;
  debit_account_id: string;
  credit_account_id: string;
  e_id: string | null;
  e_kind: string | null;
  e_amount: number | null;
  e_debit: string | null;
  e_credit: string | null;
}): string | null {
  if (h.kind !== 'pending') return `a ${h.e_kind} (${h.e_id}) ends a ${h.kind} transfer`;
  if (h.pending_state === 'open') return h.e_id ? `open, yet ended by ${h.e_id}` : null;
  if (!h.e_id) return `${h.pending_state} without a transfer that ended it`;
  if (h.e_debit !== h.debit_account_id || h.e_credit !== h.credit_account_id) {
    return `ended by ${h.e_id} between other accounts`;
  }
  const wanted = h.pending_state === 'posted' ? 'post_pending' : 'void_pending';
  if (h.e_kind !== wanted) return `${h.pending_state} but ended by a ${h.e_kind} (${h.e_id})`;
  if (wanted === 'post_pending' && Number(h.e_amount) > Number(h.amount)) {
    return `posted ${h.e_amount}, more than its ${h.amount}`;
  }
  if (wanted === 'void_pending' && Number(h.e_amount) !== Number(h.amount)) {
    return `voided ${h.e_amount} of its ${h.amount}`;
  }
  if (!['posted', 'voided', 'expired'].includes(h.pending_state ?? ''))
    return `unknown state ${h.pending_state}`;
  return null;
}
