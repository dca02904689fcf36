import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import { type DatabaseHandle, type Executor, isUniqueViolation } from '../../db/index.ts';
import { readSnapshot } from '../../db/read-snapshot.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import {
  type AccountBalance,
  type AccountSpec,
  balanceOf,
  FLAGS_BY_KIND,
  type HeldAccount,
  heldAccount,
  isMirror,
  type LockedAccounts,
  lockOptional,
  unlocked,
  ZERO,
} from './accounts.ts';
import {
  type AccountState,
  applyTransfer,
  copyTotals,
  endsHold,
  LedgerRefusal,
  type RefusalCode,
  sameTransfer,
  type Totals,
  type TransferRequest,
  type TransferState,
} from './rules.ts';
import type { AccountKind, BatchWrites, TransferRow } from './store.ts';
import * as store from './store.ts';
import { type Violation, verifyLedger } from './verify.ts';
import { type LedgerBooks, ledgerBooks } from './verify-store.ts';

export type { AccountBalance, AccountSpec, HeldAccount, LockedAccounts } from './accounts.ts';
export { AccountFlags, LedgerRefusal, type RefusalCode, type TransferRequest } from './rules.ts';
export type { AccountKind } from './store.ts';
export type { Violation } from './verify.ts';

/** A domain's own invariant over the books `ledger verify` read (`addCheck`). */
type DomainCheck = (exec: Executor, books: LedgerBooks) => Promise<Violation[]>;

/** Past this many remembered account ids the memory starts over (it is only a shortcut). */
const KNOWN_ACCOUNTS_MAX = 100_000;

/** What the ledger knows of a write transaction of `transaction()` while it runs. */
interface OpenTransaction {
  /** Account ids opened in it, remembered once it commits. */
  learned: Map<string, string>;
  /** The accounts it locked up front (and those its batches named unlocked); null until then. */
  locked: Map<string, HeldAccount> | null;
}

/** A limited account a transaction needs but did not lock with the others, up front: a caller's bug. */
export class LockOrderError extends Error {
  constructor(readonly accountId: string) {
    super(`ledger account ${accountId} was not locked up front with the transaction's other accounts`);
  }
}

/** What `executeWithTotals` returns: `execute`'s outcomes, and every locked account's totals after the batch. */
export interface ExecutedBatch {
  outcomes: TransferOutcome[];
  balances: Map<string, AccountBalance>;
}

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
  /**
   * Account ids by owner, once their row is committed: an account is never deleted nor re-keyed,
   * so a committed id stays right and the hot paths (a card's account, the network's settlement
   * account) need not look it up again. Ids first seen inside a transaction of `transaction()`
   * wait in `learning` until it commits; a rollback forgets them.
   */
  private readonly knownAccounts = new Map<string, string>();
  private readonly open = new WeakMap<Executor, OpenTransaction>();
  /** Accounts' fixed fields (organization, mode, currency, flags) by id: they never change. */
  private readonly fixedFields = new Map<string, AccountState>();
  /** Invariants other domains prove about the money they recorded (`addCheck`). */
  private readonly checks: DomainCheck[] = [];

  constructor(
    private readonly handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
    private readonly clock: Clock,
  ) {}

  /**
   * A write transaction for money moves (see db/write-transaction.ts). It takes every account lock
   * it needs at once, up front (`lockAccounts`, or its first batch's own), in id order: a later batch
   * may only use accounts already locked, else `LockOrderError` (docs/ledger.md, "Transactions and
   * concurrency"). On PostgreSQL a transaction aborted as a deadlock victim or a serialization
   * failure runs again from the start, a bounded number of times (`retryingConflicts`).
   */
  async transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    let open: OpenTransaction | undefined;
    const result = await writeTransaction(this.handle, (trx) => {
      open = { learned: new Map(), locked: null };
      this.open.set(trx, open);
      return work(trx).finally(() => this.open.delete(trx));
    });
    if (open) for (const [key, id] of open.learned) this.remember(key, id);
    return result;
  }

  /** The id of the account for this owner (opened on first use), without a query once known. */
  async accountId(exec: Executor, spec: AccountSpec): Promise<string> {
    const key = `${spec.organizationId}|${livemodeColumn(spec.livemode)}|${spec.kind}|${spec.ownerId}`;
    const known = this.knownAccounts.get(key) ?? this.open.get(exec)?.learned.get(key);
    if (known) return known;
    const { id } = await this.account(exec, spec);
    // Outside a transaction (autocommit on the pool) what was read or opened is already committed.
    if (exec === this.handle.db) this.remember(key, id);
    else this.open.get(exec)?.learned.set(key, id);
    return id;
  }

  /** The account for this owner, opened on first use. */
  async account(
    exec: Executor,
    spec: AccountSpec,
  ): Promise<AccountState & { kind: AccountKind; owner_id: string }> {
    const livemode = livemodeColumn(spec.livemode);
    const found = await store.findAccount(exec, spec.organizationId, livemode, spec.kind, spec.ownerId);
    if (found) return found;
    await store.insertAccountIfAbsent(exec, {
      id: newId('lac'),
      organization_id: spec.organizationId,
      livemode,
      kind: spec.kind,
      owner_id: spec.ownerId,
      flags: FLAGS_BY_KIND[spec.kind],
      currency: 'usd',
      created_at: this.clock.now(),
    });
    const created = await store.findAccount(exec, spec.organizationId, livemode, spec.kind, spec.ownerId);
    if (!created) throw new Error(`ledger account ${spec.kind}/${spec.ownerId} could not be opened`);
    return created;
  }

  /**
   * Takes the transaction's account locks, all at once and in id order (PostgreSQL), and reads
   * their balances: call it first, with every account any batch of the transaction can debit or
   * change otherwise (a mirror account may be left out: it is never locked; so may the pool where the
   * transaction only credits it). Batches after it use these accounts, and their balances here follow
   * what the batches move. In a transaction that locked already, it only checks that `ids` were
   * locked then (`LockOrderError` otherwise): locks taken in a second round could wait on another
   * transaction in a cycle.
   */
  lockAccounts(exec: Executor, ids: string[]): Promise<LockedAccounts> {
    return this.lockFor(exec, ids, null);
  }

  /**
   * `lockAccounts`; `debited`, when given, names the accounts among `ids` that will be debited: an
   * account credited without its lock is locked only when among them (a batch locking its own).
   */
  private async lockFor(
    exec: Executor,
    ids: string[],
    debited: ReadonlySet<string> | null,
  ): Promise<LockedAccounts> {
    const open = this.open.get(exec);
    const unique = [...new Set(ids)];
    const accounts = open?.locked ?? (await this.takeLocks(exec, unique, debited));
    if (open && !open.locked) open.locked = accounts;
    const missing = unique.filter((id) => !accounts.has(id));
    for (const account of missing.length > 0 ? await this.fixed(exec, missing) : []) {
      if (!lockOptional(account)) throw new LockOrderError(account.id);
      accounts.set(account.id, unlocked(account));
    }
    // Only a locked account may be debited: its balance is read under its lock.
    for (const id of debited ?? []) {
      const account = accounts.get(id);
      if (account && !account.locked && !isMirror(account)) throw new LockOrderError(id);
    }
    return {
      accounts,
      balance(id) {
        const account = accounts.get(id);
        if (!account?.locked) throw new Error(`ledger account ${id} is not locked`);
        return balanceOf(account);
      },
    };
  }

  /**
   * Locks the limited accounts among `ids` (id order) and reads the others' fixed fields: mirror
   * accounts, and accounts credited without their lock that `debited` leaves out.
   */
  private async takeLocks(
    exec: Executor,
    ids: string[],
    debited: ReadonlySet<string> | null,
  ): Promise<Map<string, HeldAccount>> {
    const accounts = new Map<string, HeldAccount>();
    const limited: string[] = [];
    for (const account of await this.fixed(exec, ids)) {
      const creditedOnly = debited !== null && !debited.has(account.id);
      if (isMirror(account) || (lockOptional(account) && creditedOnly))
        accounts.set(account.id, unlocked(account));
      else limited.push(account.id);
    }
    for (const account of await store.lockAccounts(exec, limited))
      accounts.set(account.id, heldAccount(account, account, true));
    return accounts;
  }

  /** The accounts' fixed fields, from memory once read (absent ids left out). */
  private async fixed(exec: Executor, ids: string[]): Promise<AccountState[]> {
    const unknown = ids.filter((id) => !this.fixedFields.has(id));
    for (const account of unknown.length === 0 ? [] : await store.accountsByIds(exec, unknown)) {
      if (this.fixedFields.size >= KNOWN_ACCOUNTS_MAX) this.fixedFields.clear();
      this.fixedFields.set(account.id, heldAccount(account, ZERO, false));
    }
    const found: AccountState[] = [];
    for (const id of ids) {
      const account = this.fixedFields.get(id);
      if (account) found.push(account);
    }
    return found;
  }

  /**
   * An account's balance: as it stands in this transaction if the transaction locked it, else as
   * committed (with the changes appended and not yet folded into its row).
   */
  async balance(exec: Executor, accountId: string): Promise<AccountBalance> {
    const locked = this.lockedBalance(exec, accountId);
    if (locked) return locked;
    const account = await store.accountWithDeltas(exec, accountId);
    if (!account) throw new Error(`no ledger account ${accountId}`);
    return balanceOf(account);
  }

  /** An account's balance as it stands in this transaction, if the transaction locked it; else null. */
  lockedBalance(exec: Executor, accountId: string): AccountBalance | null {
    const held = this.open.get(exec)?.locked?.get(accountId);
    return held?.locked ? balanceOf(held) : null;
  }

  transfer(exec: Executor, id: string) {
    return store.transferById(exec, id);
  }

  /** What posted transfers of this code moved, per organization of the mode (store.ts `postedByCode`). */
  async postedByCode(exec: Executor, code: 'company_card_funding', livemode: boolean) {
    const rows = await store.postedByCode(exec, code, livemodeColumn(livemode));
    return new Map(rows.map((row) => [row.organization_id, Number(row.total)]));
  }

  /** The transfers recorded under these ids (absent ones left out), read in batches. */
  async transfers(exec: Executor, ids: string[]): Promise<TransferState[]> {
    const found: TransferState[] = [];
    for (let i = 0; i < ids.length; i += 500)
      found.push(...(await store.transfersByIds(exec, ids.slice(i, i + 500))));
    return found;
  }

  /**
   * Applies a batch in order inside `exec` (a write transaction). The accounts it touches are
   * those the transaction locked up front (`lockAccounts`); a first batch with none locked yet locks
   * its own, in id order (PostgreSQL). Then the holds it ends are locked, and only then are earlier
   * transfers with the same ids looked for, so a concurrent retry sees the first one.
   */
  async execute(exec: Executor, requests: TransferRequest[]): Promise<TransferOutcome[]> {
    return (await this.executeWithTotals(exec, requests)).outcomes;
  }

  /**
   * `execute`, also returning the totals of the limited accounts the transaction locked, as they
   * stand after the batch, so a caller need not read a balance it just changed (they hold until the
   * transaction ends: the accounts stay locked, on SQLite by the write lock). `locked`: the
   * transaction's `lockAccounts`, for a transaction outside `transaction()`. `fresh`: the caller
   * knows no transfer of the batch exists yet (ids it just drew, or derived from a row of its own
   * that its lock showed absent), so earlier ones are not looked for; the primary key would still
   * refuse a repeat.
   */
  async executeWithTotals(
    exec: Executor,
    requests: TransferRequest[],
    { locked, fresh = false }: { locked?: LockedAccounts; fresh?: boolean } = {},
  ): Promise<ExecutedBatch> {
    const now = this.clock.now();
    // The holds the batch ends, the accounts its new transfers move between, and those they debit:
    // ending a hold never lowers what an account can spend, so only new transfers' debits need a lock.
    const holdIds: string[] = [];
    const accountIds: string[] = [];
    const debited = new Set<string>();
    for (const request of requests) {
      if (endsHold(request)) holdIds.push(request.pendingId);
      else {
        accountIds.push(request.debitAccountId, request.creditAccountId);
        debited.add(request.debitAccountId);
      }
    }
    const open = this.open.get(exec);
    const outside = open ? undefined : locked;
    const lockedFirst = outside !== undefined || open?.locked != null;
    if (!lockedFirst && holdIds.length > 0) {
      // The holds' accounts (fixed once written) are locked with the others, before the holds.
      for (const hold of await store.transfersByIds(exec, holdIds))
        accountIds.push(hold.debit_account_id, hold.credit_account_id);
    }
    const accounts = outside?.accounts ?? (await this.lockFor(exec, accountIds, debited)).accounts;
    // A batch that ends no hold (an authorization's) has none to lock, nor their accounts to check.
    const holds = new Map(
      holdIds.length === 0 ? [] : (await store.lockTransfers(exec, holdIds)).map((t) => [t.id, t]),
    );
    const holdAccounts = [...holds.values()].flatMap((h) => [h.debit_account_id, h.credit_account_id]);
    if (outside) {
      const missing = [...accountIds, ...holdAccounts].find((id) => !accounts.has(id));
      if (missing) throw new LockOrderError(missing);
    } else if (lockedFirst && holdAccounts.length > 0) await this.lockFor(exec, holdAccounts, debited);
    const earlier = new Map(
      (fresh
        ? []
        : await store.transfersByIds(
            exec,
            requests.map((r) => r.id),
          )
      ).map((t) => [t.id, t]),
    );

    // The batch works on copies (a refusal leaves the transaction's accounts as they were); an
    // unlocked account's copy starts at zero and so ends holding the batch's change to it.
    const working = new Map<string, HeldAccount>();
    for (const [id, account] of accounts) working.set(id, heldAccount(account, account, account.locked));
    const outcomes: TransferOutcome[] = [];
    const touched = new Set<string>();
    const written = new Map<string, TransferRow>();
    const endings: BatchWrites['endings'] = [];
    for (const [index, request] of requests.entries()) {
      const stored = earlier.get(request.id);
      if (stored) {
        if (!sameTransfer(stored, request))
          throw new LedgerRefusal('exists_with_different_fields', index, request.id);
        outcomes.push({ transfer: stored, created: false });
        continue;
      }
      const hold = endsHold(request) ? (holds.get(request.pendingId) ?? null) : null;
      const applied = applyTransfer(request, working, hold, now);
      if (typeof applied === 'string') throw new LedgerRefusal(applied, index, request.id);
      const { transfer, endsPending } = applied;
      const ledger = working.get(transfer.debit_account_id) as AccountState;
      const metadata = 'metadata' in request && request.metadata ? JSON.stringify(request.metadata) : null;
      written.set(transfer.id, store.transferRow(transfer, ledger, metadata, now));
      if (endsPending) {
        // A hold this batch opened is written already ended; an earlier one is updated.
        const opened = written.get(endsPending.id);
        if (opened) opened.pending_state = endsPending.state;
        else endings.push(endsPending);
        const ended = holds.get(endsPending.id);
        if (ended) ended.pending_state = endsPending.state;
      }
      // A later request of the same batch may end a hold this one opened, or retry it.
      if (transfer.kind === 'pending') holds.set(transfer.id, { ...transfer });
      earlier.set(transfer.id, transfer);
      touched.add(transfer.debit_account_id).add(transfer.credit_account_id);
      outcomes.push({ transfer, created: true });
    }
    // What the batch changed: in place for a locked account, appended for the others.
    const changed = new Map<string, Totals>();
    const appended = new Map<string, Totals>();
    for (const id of touched) {
      const after = working.get(id) as HeldAccount;
      const before = accounts.get(id) as HeldAccount;
      const change = {
        debits_pending: after.debits_pending - before.debits_pending,
        debits_posted: after.debits_posted - before.debits_posted,
        credits_pending: after.credits_pending - before.credits_pending,
        credits_posted: after.credits_posted - before.credits_posted,
      };
      (after.locked ? changed : appended).set(id, change);
    }
    if (written.size > 0)
      await store.writeBatch(exec, { transfers: [...written.values()], endings, changed, appended });
    // A batch changes only totals: the transaction's locked accounts take them.
    for (const id of changed.keys())
      copyTotals(accounts.get(id) as HeldAccount, working.get(id) as HeldAccount);
    const balances = new Map([...accounts.values()].filter((a) => a.locked).map((a) => [a.id, balanceOf(a)]));
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
    const due = await store.expiredHolds(this.handle.db, this.clock.now(), limit);
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
  addCheck(check: DomainCheck): void {
    this.checks.push(check);
  }

  /**
   * Folds appended changes into their accounts' totals (the worker's sweep; PostgreSQL only, see
   * store.ts `writeBatch`), up to `limit` accounts; returns how many deltas it folded.
   */
  foldDeltas(limit = 100): Promise<number> {
    return store.foldDeltas(this.handle.db, limit);
  }

  /**
   * Every invariant of the ledger, checked against the stored transfers (`purser ledger verify`);
   * as a transaction sees them when given one, else on one snapshot: what commits meanwhile (a fold
   * of deltas) cannot make it see a total twice.
   */
  async verify(exec?: Executor): Promise<Violation[]> {
    const check = async (on: Executor) => {
      const books = await ledgerBooks(on);
      const violations = await verifyLedger(on, books, await store.unfoldedDeltas(on));
      for (const domainCheck of this.checks) violations.push(...(await domainCheck(on, books)));
      return violations;
    };
    return exec ? check(exec) : readSnapshot(this.handle, check);
  }
}
