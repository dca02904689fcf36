import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { type DatabaseHandle, type Executor, isUniqueViolation } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import {
  AccountFlags,
  type AccountState,
  applyTransfer,
  available,
  LedgerRefusal,
  type RefusalCode,
  sameTransfer,
  type TransferRequest,
  type TransferState,
} from './rules.ts';
import { type AccountKind, LedgerStore } from './store.ts';
import { type Violation, verifyLedger } from './verify.ts';

export { AccountFlags, LedgerRefusal, type RefusalCode, type TransferRequest } from './rules.ts';
export type { AccountKind } from './store.ts';
export type { Violation } from './verify.ts';

/** Accounts that hold someone's money can never go below zero; system accounts mirror the world. */
const FLAGS_BY_KIND: Record<AccountKind, number> = {
  company_pool: AccountFlags.debitsMustNotExceedCredits,
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

/** What `executeWithTotals` returns: `execute`'s outcomes, and every locked account's totals after the batch. */
export interface ExecutedBatch {
  outcomes: TransferOutcome[];
  balances: Map<string, AccountBalance>;
}

/** Accounts locked ahead of a batch (`lockAccounts`), and their balances as read then. */
export interface LockedAccounts {
  accounts: Map<string, AccountState>;
  balance(id: string): AccountBalance;
}

/** Past this many remembered account ids the memory starts over (it is only a shortcut). */
const KNOWN_ACCOUNTS_MAX = 100_000;

export interface TransferOutcome {
  transfer: TransferState;
  /** False when the id was already recorded with the same fields: a retry, which changed nothing. */
  created: boolean;
}

/**
 * The only code that moves money. Every change is a batch of transfers applied in the caller's
 * write transaction (see `transaction`), all or nothing: a refused transfer throws `LedgerRefusal`,
 * which rolls the whole transaction back, the caller's other writes and events included.
 */
export class LedgerService {
  private readonly store: LedgerStore;
  /**
   * Account ids by owner, once their row is committed: an account is never deleted nor re-keyed,
   * so a committed id stays right and the hot paths (a card's account, the network's settlement
   * account) need not look it up again. Ids first seen inside a transaction of `transaction()`
   * wait in `learning` until it commits; a rollback forgets them.
   */
  private readonly knownAccounts = new Map<string, string>();
  private readonly learning = new WeakMap<Executor, Map<string, string>>();
  /** Invariants other domains prove about the money they recorded (`addCheck`). */
  private readonly checks: ((exec: Executor) => Promise<Violation[]>)[] = [];

  constructor(
    private readonly handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
    private readonly clock: Clock,
  ) {
    this.store = new LedgerStore(handle.dialect);
  }

  /** A write transaction for money moves (see db/write-transaction.ts). */
  async transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    let learned: Map<string, string> | undefined;
    const result = await writeTransaction(this.handle, (trx) => {
      learned = new Map();
      this.learning.set(trx, learned);
      return work(trx).finally(() => this.learning.delete(trx));
    });
    if (learned) for (const [key, id] of learned) this.remember(key, id);
    return result;
  }

  /** The id of the account for this owner (opened on first use), without a query once known. */
  async accountId(exec: Executor, spec: AccountSpec): Promise<string> {
    const key = `${spec.organizationId}|${spec.livemode ? 1 : 0}|${spec.kind}|${spec.ownerId}`;
    const known = this.knownAccounts.get(key) ?? this.learning.get(exec)?.get(key);
    if (known) return known;
    const { id } = await this.account(exec, spec);
    // Outside a transaction (autocommit on the pool) what was read or opened is already committed.
    if (exec === this.handle.db) this.remember(key, id);
    else this.learning.get(exec)?.set(key, id);
    return id;
  }

  /** The account for this owner, opened on first use. */
  async account(
    exec: Executor,
    spec: AccountSpec,
  ): Promise<AccountState & { kind: AccountKind; owner_id: string }> {
    const livemode = spec.livemode ? 1 : 0;
    const found = await this.store.findAccount(exec, spec.organizationId, livemode, spec.kind, spec.ownerId);
    if (found) return found;
    await this.store.insertAccountIfAbsent(exec, {
      id: newId('lac'),
      organization_id: spec.organizationId,
      livemode,
      kind: spec.kind,
      owner_id: spec.ownerId,
      flags: FLAGS_BY_KIND[spec.kind],
      currency: 'usd',
      created_at: this.clock.now(),
    });
    const created = await this.store.findAccount(
      exec,
      spec.organizationId,
      livemode,
      spec.kind,
      spec.ownerId,
    );
    if (!created) throw new Error(`ledger account ${spec.kind}/${spec.ownerId} could not be opened`);
    return created;
  }

  /**
   * Locks accounts as `executeWithTotals` would (in id order on PostgreSQL) and reads their
   * balances, for a caller that decides on a balance before it moves money: passed on to
   * `executeWithTotals`, they are not read again. Only for batches that end no hold.
   */
  async lockAccounts(exec: Executor, ids: string[]): Promise<LockedAccounts> {
    const accounts = new Map((await this.store.lockAccounts(exec, ids)).map((a) => [a.id, a]));
    return {
      accounts,
      balance(id) {
        const account = accounts.get(id);
        if (!account) throw new Error(`no ledger account ${id}`);
        return balanceOf(account);
      },
    };
  }

  async balance(exec: Executor, accountId: string): Promise<AccountBalance> {
    const account = await this.store.accountById(exec, accountId);
    if (!account) throw new Error(`no ledger account ${accountId}`);
    return balanceOf(account);
  }

  transfer(exec: Executor, id: string) {
    return this.store.transferById(exec, id);
  }

  /** What posted transfers of this code moved, per organization of the mode (store.ts `postedByCode`). */
  async postedByCode(exec: Executor, code: 'company_card_funding', livemode: boolean) {
    const rows = await this.store.postedByCode(exec, code, livemode ? 1 : 0);
    return new Map(rows.map((row) => [row.organization_id, Number(row.total)]));
  }

  /** The transfers recorded under these ids (absent ones left out), read in batches. */
  async transfers(exec: Executor, ids: string[]): Promise<TransferState[]> {
    const found: TransferState[] = [];
    for (let i = 0; i < ids.length; i += 500)
      found.push(...(await this.store.transfersByIds(exec, ids.slice(i, i + 500))));
    return found;
  }

  /**
   * Applies a batch in order inside `exec` (a write transaction). Holds that the batch ends are
   * locked first, then every account it touches, each in id order (PostgreSQL), and only then are
   * earlier transfers with the same ids looked for, so a concurrent retry sees the first one.
   */
  async execute(exec: Executor, requests: TransferRequest[]): Promise<TransferOutcome[]> {
    return (await this.executeWithTotals(exec, requests)).outcomes;
  }

  /**
   * `execute`, also returning the totals of every account the batch locked as they stand after it,
   * so a caller need not read a balance it just changed (they hold until the transaction ends:
   * the accounts stay locked, on SQLite by the write lock).
   */
  async executeWithTotals(
    exec: Executor,
    requests: TransferRequest[],
    locked?: LockedAccounts,
  ): Promise<ExecutedBatch> {
    const now = this.clock.now();
    const endsHold = (r: TransferRequest) => r.type === 'post_pending' || r.type === 'void_pending';
    const holdIds = requests.flatMap((r) => (endsHold(r) ? [(r as { pendingId: string }).pendingId] : []));
    // Holds are locked before accounts; accounts locked earlier would break that order.
    if (locked && holdIds.length > 0) throw new Error('a batch that ends holds locks its own accounts');
    const holds = new Map((await this.store.lockTransfers(exec, holdIds)).map((t) => [t.id, t]));
    const accountIds = requests.flatMap((r) =>
      r.type === 'posted' || r.type === 'pending' ? [r.debitAccountId, r.creditAccountId] : [],
    );
    for (const hold of holds.values()) accountIds.push(hold.debit_account_id, hold.credit_account_id);
    const accounts = locked?.accounts ?? (await this.lockAccounts(exec, accountIds)).accounts;
    // An account not found is the rules' to refuse; one not locked first is a caller's bug.
    const unlocked = locked && accountIds.find((id) => !accounts.has(id));
    if (unlocked) throw new Error(`ledger account ${unlocked} was not locked first`);
    const earlier = new Map(
      (
        await this.store.transfersByIds(
          exec,
          requests.map((r) => r.id),
        )
      ).map((t) => [t.id, t]),
    );

    const outcomes: TransferOutcome[] = [];
    const touched = new Set<string>();
    for (const [index, request] of requests.entries()) {
      const stored = earlier.get(request.id);
      if (stored) {
        if (!sameTransfer(stored, request))
          throw new LedgerRefusal('exists_with_different_fields', index, request.id);
        outcomes.push({ transfer: stored, created: false });
        continue;
      }
      const hold = endsHold(request)
        ? (holds.get((request as { pendingId: string }).pendingId) ?? null)
        : null;
      const applied = applyTransfer(request, accounts, hold, now);
      if (typeof applied === 'string') throw new LedgerRefusal(applied, index, request.id);
      const { transfer, endsPending } = applied;
      const ledger = accounts.get(transfer.debit_account_id) as AccountState;
      const metadata = 'metadata' in request && request.metadata ? JSON.stringify(request.metadata) : null;
      await this.store.insertTransfer(exec, {
        ...transfer,
        organization_id: ledger.organization_id,
        livemode: ledger.livemode,
        metadata,
        created_at: now,
      });
      if (endsPending) {
        await this.store.endPending(exec, endsPending.id, endsPending.state);
        const ended = holds.get(endsPending.id);
        if (ended) ended.pending_state = endsPending.state;
      }
      // A later request of the same batch may end a hold this one opened, or retry it.
      if (transfer.kind === 'pending') holds.set(transfer.id, { ...transfer });
      earlier.set(transfer.id, transfer);
      touched.add(transfer.debit_account_id).add(transfer.credit_account_id);
      outcomes.push({ transfer, created: true });
    }
    for (const id of touched) await this.store.writeTotals(exec, accounts.get(id) as AccountState);
    const balances = new Map([...accounts.values()].map((a) => [a.id, balanceOf(a)]));
    return { outcomes, balances };
  }

  /**
   * A batch in a transaction of its own, for callers with nothing else to write. A refusal is
   * returned, not thrown; two first attempts racing with one id resolve to one transfer.
   */
  async move(
    requests: TransferRequest[],
  ): Promise<{ ok: true; outcomes: TransferOutcome[] } | { ok: false; code: RefusalCode; index: number }> {
    for (let attempt = 0; ; attempt++) {
      try {
        return { ok: true, outcomes: await this.transaction((trx) => this.execute(trx, requests)) };
      } catch (error) {
        if (error instanceof LedgerRefusal) return { ok: false, code: error.code, index: error.index };
        if (attempt === 0 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }

  /** Voids holds whose expiry has passed (the worker's sweep); returns how many it voided. */
  async expireDue(limit = 100): Promise<number> {
    const due = await this.store.expiredHolds(this.handle.db, this.clock.now(), limit);
    let expired = 0;
    for (const hold of due) {
      const done = await this.transaction(async (trx) => {
        const [outcome] = await this.execute(trx, [
          { type: 'void_pending', id: `${hold.id}.expiry`, pendingId: hold.id },
        ]);
        return outcome?.created === true;
      }).catch((error) => {
        // Posted or voided since it was listed: nothing left to expire.
        if (error instanceof LedgerRefusal) return false;
        throw error;
      });
      if (done) expired++;
    }
    return expired;
  }

  private remember(key: string, id: string): void {
    if (this.knownAccounts.size >= KNOWN_ACCOUNTS_MAX) this.knownAccounts.clear();
    this.knownAccounts.set(key, id);
  }

  /**
   * Adds an invariant a domain proves about what it recorded with its money (the cards domain: no
   * purchase refunded above what it settled), run by `verify` after the ledger's own.
   */
  addCheck(check: (exec: Executor) => Promise<Violation[]>): void {
    this.checks.push(check);
  }

  /**
   * Every invariant of the ledger, checked against the stored transfers (`purser ledger verify`);
   * as a transaction sees them when given one.
   */
  async verify(exec: Executor = this.handle.db): Promise<Violation[]> {
    const violations = await verifyLedger(exec);
    for (const check of this.checks) violations.push(...(await check(exec)));
    return violations;
  }
}

function balanceOf(account: AccountState): AccountBalance {
  return {
    account_id: account.id,
    posted_cents: account.credits_posted - account.debits_posted,
    pending_cents: account.debits_pending,
    available_cents: available(account),
  };
}
