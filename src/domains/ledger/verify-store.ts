import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';

/*
 * The queries that prove the books (`purser ledger verify`): those of the ledger's own checks
 * (verify.ts), and the read model the domains that add checks of their own (`LedgerService.addCheck`)
 * prove their invariants over. Each runs on the executor the verification reads through (one snapshot).
 */

/**
 * Transfers of a broken shape: no positive amount, an account sending to itself, or accounts (or the
 * transfer) of different organizations or modes. A whole scan, with each transfer's two accounts:
 * verify.ts runs it only when the pairs' totals show such a transfer (`misshapenPair`).
 */
export function malformedTransfers(exec: Executor) {
  return exec
    .selectFrom('ledger_transfers as t')
    .innerJoin('ledger_accounts as d', 'd.id', 't.debit_account_id')
    .innerJoin('ledger_accounts as c', 'c.id', 't.credit_account_id')
    .select([
      't.id',
      't.amount',
      't.debit_account_id',
      't.credit_account_id',
      't.organization_id',
      't.livemode',
    ])
    .select([
      'd.organization_id as d_org',
      'd.livemode as d_mode',
      'c.organization_id as c_org',
      'c.livemode as c_mode',
    ])
    .where((eb) =>
      eb.or([
        eb('t.amount', '<=', 0),
        eb('t.debit_account_id', '=', eb.ref('t.credit_account_id')),
        eb('d.organization_id', '!=', eb.ref('c.organization_id')),
        eb('d.livemode', '!=', eb.ref('c.livemode')),
        eb('t.organization_id', '!=', eb.ref('d.organization_id')),
      ]),
    )
    .execute();
}

/** Every account, with its cached totals. */
function ledgerAccounts(exec: Executor) {
  return exec.selectFrom('ledger_accounts').selectAll().execute();
}

/**
 * What the ledger's checks and the checks other domains add (`LedgerService.addCheck`) prove their
 * invariants over, read once per verification: every account, and what moved between each pair.
 */
export interface LedgerBooks {
  accounts: Awaited<ReturnType<typeof ledgerAccounts>>;
  pairs: PairTotal[];
}

export async function ledgerBooks(exec: Executor): Promise<LedgerBooks> {
  return { accounts: await ledgerAccounts(exec), pairs: await pairTotals(exec) };
}

/**
 * The holds and their endings that disagree, each hold beside its ending (or a transfer beside the
 * ending that names it though it is no hold): ended while open, not ended though closed, ended
 * between other accounts, by the other kind of ending, for another amount, or in no known state.
 * verify.ts says which; a sound ledger returns nothing, however many holds it has.
 */
export function disagreeingHolds(exec: Executor) {
  return exec
    .selectFrom('ledger_transfers as p')
    .leftJoin('ledger_transfers as e', 'e.pending_id', 'p.id')
    .select(['p.id', 'p.kind', 'p.pending_state', 'p.amount', 'p.debit_account_id', 'p.credit_account_id'])
    .select([
      'e.id as e_id',
      'e.kind as e_kind',
      'e.amount as e_amount',
      'e.debit_account_id as e_debit',
      'e.credit_account_id as e_credit',
    ])
    .where((eb) => {
      const state = eb.fn.coalesce('p.pending_state', sql.lit(''));
      const ended = eb('e.id', 'is not', null);
      return eb.or([
        eb.and([eb('p.kind', '!=', 'pending'), ended]),
        eb.and([
          eb('p.kind', '=', 'pending'),
          eb.or([
            eb.and([eb(state, '=', 'open'), ended]),
            eb.and([eb(state, '!=', 'open'), eb('e.id', 'is', null)]),
            eb.and([
              ended,
              eb.or([
                eb('e.debit_account_id', '!=', eb.ref('p.debit_account_id')),
                eb('e.credit_account_id', '!=', eb.ref('p.credit_account_id')),
                eb.and([eb(state, '=', 'posted'), eb('e.kind', '!=', 'post_pending')]),
                eb.and([eb(state, '!=', 'posted'), eb('e.kind', '!=', 'void_pending')]),
                eb.and([eb('e.kind', '=', 'post_pending'), eb('e.amount', '>', eb.ref('p.amount'))]),
                eb.and([eb('e.kind', '=', 'void_pending'), eb('e.amount', '!=', eb.ref('p.amount'))]),
                eb(state, 'not in', ['posted', 'voided', 'expired']),
              ]),
            ]),
          ]),
        ]),
      ]);
    })
    .execute();
}

/** Endings of no hold, and holds or plain transfers that name one. */
export function strayEndings(exec: Executor) {
  return exec
    .selectFrom('ledger_transfers as e')
    .leftJoin('ledger_transfers as p', 'p.id', 'e.pending_id')
    .select(['e.id', 'e.kind', 'e.pending_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('e.kind', 'in', ['post_pending', 'void_pending']), eb('p.id', 'is', null)]),
        eb.and([eb('e.kind', 'in', ['posted', 'pending']), eb('e.pending_id', 'is not', null)]),
      ]),
    )
    .execute();
}

/**
 * What moved between two accounts, by kind of transfer (`pending` rows by their state) and by the
 * organization the transfers name (in sound books, the accounts' own).
 */
export interface PairTotal {
  debit: string;
  credit: string;
  kind: 'posted' | 'pending' | 'post_pending' | 'void_pending';
  pending_state: string | null;
  organization_id: string;
  total: number;
  /** The smallest of these transfers' amounts. */
  smallest: number;
}

/** What moved from each account to each other, by kind of transfer and state of hold. */
async function pairTotals(exec: Executor): Promise<PairTotal[]> {
  const columns = [
    'debit_account_id',
    'credit_account_id',
    'kind',
    'pending_state',
    'organization_id',
  ] as const;
  const pairs = await exec
    .selectFrom('ledger_transfers')
    .select([
      'debit_account_id as debit',
      'credit_account_id as credit',
      'kind',
      'pending_state',
      'organization_id',
    ])
    .select((eb) => [
      eb.fn.sum<number | string>('amount').as('total'),
      eb.fn.min<number | string>('amount').as('smallest'),
    ])
    .groupBy([...columns])
    .execute();
  return pairs.map((p) => ({ ...p, total: Number(p.total), smallest: Number(p.smallest) }));
}

/** A transfer as the checks over pairs of accounts read it. */
export interface PairTransfer {
  id: string;
  kind: PairTotal['kind'];
  debit_account_id: string;
  credit_account_id: string;
  amount: number;
  pending_id: string | null;
}

/** Every transfer from the debit to the credit account of one of these pairs, in id order per batch of debit accounts. */
export async function transfersBetween(
  exec: Executor,
  pairs: Pick<PairTotal, 'debit' | 'credit'>[],
): Promise<PairTransfer[]> {
  const wanted = new Set(pairs.map((p) => `${p.debit}>${p.credit}`));
  const debits = [...new Set(pairs.map((p) => p.debit))];
  const found: PairTransfer[] = [];
  for (let i = 0; i < debits.length; i += 500) {
    const rows = await exec
      .selectFrom('ledger_transfers')
      .select(['id', 'kind', 'debit_account_id', 'credit_account_id', 'amount', 'pending_id'])
      .where('debit_account_id', 'in', debits.slice(i, i + 500))
      .orderBy('id')
      .execute();
    for (const row of rows)
      if (wanted.has(`${row.debit_account_id}>${row.credit_account_id}`))
        found.push({ ...row, amount: Number(row.amount) });
  }
  return found;
}
