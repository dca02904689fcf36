import { formatUnits, getAddress } from 'viem';
import { type Clock, MINUTE } from '../../core/clock.ts';
import type { DatabaseHandle, Executor } from '../../db/index.ts';
import { readSnapshot } from '../../db/read-snapshot.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { EvmChain } from './chain/evm.ts';
import { unitsPerCent } from './chain/units.ts';
import * as store from './store.ts';
import { depositTransferId } from './store.ts';

/** An address whose tokens on the chain are not what the books say it holds. */
export interface ChainDrift {
  address: string;
  kind: 'pool' | 'user';
  organization_id: string;
  /** The organization (a pool) or the user (a deposit address). */
  owner_id: string;
  /** Token units (decimal strings): on the chain, in the books, and the first less the second. */
  chain_units: string;
  ledger_units: string;
  drift_units: string;
  /** The same three in tokens, for reading (`460.125678`). */
  chain: string;
  ledger: string;
  drift: string;
}

export interface ChainReconciliation {
  object: 'chain_reconciliation';
  chain_id: number;
  token: string;
  /** The block the chain was read at. */
  block: number;
  /** How many addresses were compared. */
  addresses: number;
  drifts: ChainDrift[];
}

/**
 * Flows and returns that reached their end this recently may have done so after the chain was read
 * (their transaction mined after that block): their receipts are looked at. Wide, so that the clocks
 * of several processes need not agree closely.
 */
const RECENT_MS = 5 * MINUTE;

const SETTLED_FLOW = new Set(['completed', 'card_created', 'card_failed']);

type Deps = {
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>;
  clock: Clock;
  ledger: LedgerService;
  chain: EvmChain;
  poolAccounts: (exec: Executor, organizationId: string) => Promise<{ pool: string; fees: string }>;
};

/**
 * Compares every production address Purser controls with its mirror in the books (docs/funding.md
 * "Reconciliation"), exactly, in token units:
 *
 * - a **pool** should hold the pool's posted ledger balance (reserved money included: its tokens
 *   leave when the flow's transfer does), plus what left the pool in the books only (the fees of
 *   flows, and charges over a closed company-funded card's hold paid straight from the pool: their
 *   tokens stay at its address), plus what its deposits brought under a cent;
 * - a **user's deposit address** should hold what its deposits credited (and their parts under a
 *   cent), plus what completed company-funded flows moved to it, less the releases returned from it.
 *   Card spending moves no tokens: they stay at the address.
 *
 * The chain is read first, at one block B; the books after, in one snapshot. Then what moved in
 * between is set right from the chain itself: flows and returns under way in the books whose
 * transaction succeeded at or before B count as moved; those that ended in the books just now but
 * whose transaction came after B do not; deposits the watcher credited from blocks after B do not
 * count, and those up to B that it has not credited yet do (read from the chain's logs). What
 * remains is drift.
 */
export async function reconcileChain(deps: Deps): Promise<ChainReconciliation> {
  const { chain, ledger, clock } = deps;
  const per = unitsPerCent(chain.config.decimals);
  const owned = await chain.ownedAddresses(deps.handle.db);
  // The addresses in use; what a `CHAIN_POOL_KEY` rotation retired counts as its successor's (rotate.ts).
  const addresses = owned.filter((a) => a.retired_at === null);
  const ownerKey = (a: { kind: string; organization_id: string; owner_id: string }) =>
    `${a.kind}|${a.organization_id}|${a.owner_id}`;
  const inUse = new Map(addresses.map((a) => [ownerKey(a), a.address]));
  const successor = new Map(owned.map((a) => [a.address, inUse.get(ownerKey(a))]));
  const recent = clock.now() - RECENT_MS;
  const orgs = [...new Set(addresses.filter((a) => a.kind === 'pool').map((a) => a.organization_id))];
  // Opened (if need be) outside the snapshot, which writes nothing.
  const accounts = new Map<string, { pool: string; fees: string }>();
  for (const org of orgs) accounts.set(org, await deps.poolAccounts(deps.handle.db, org));

  const { block, balances } = await chain.balancesAtHead(addresses.map((a) => a.address));

  const books = await readSnapshot(deps.handle, async (trx) => {
    const pools = new Map<string, bigint>();
    const draws = await ledger.postedByCode(trx, 'company_card_funding', true);
    for (const [org, { pool, fees }] of accounts) {
      const [poolBalance, feesBalance] = [await ledger.balance(trx, pool), await ledger.balance(trx, fees)];
      pools.set(org, BigInt(poolBalance.posted_cents + feesBalance.posted_cents + (draws.get(org) ?? 0)));
    }
    const deposits = await store.liveDeposits(trx);
    const flows = await store.liveChainFlows(trx);
    const returns = await store.liveReturns(trx);
    const ids = [
      ...deposits.filter((d) => Number(d.credited_cents) > 0).map(depositTransferId),
      ...flows.filter((f) => SETTLED_FLOW.has(f.status)).map((f) => `${f.id}.reserve.post`),
      ...returns.filter((r) => r.status === 'returned').map((r) => `${r.id}.post`),
    ];
    const posted = new Map((await ledger.transfers(trx, ids)).map((t) => [t.id, BigInt(t.amount)]));
    return { pools, deposits, flows, returns, posted, cursor: await chain.depositCursor(trx) };
  });

  const poolOf = new Map<string, string>();
  const userOf = new Map<string, string>();
  for (const a of addresses) {
    if (a.kind === 'pool') poolOf.set(a.organization_id, a.address);
    else userOf.set(`${a.organization_id}|${a.owner_id}`, a.address);
  }
  const expected = new Map<string, bigint>(addresses.map((a) => [a.address, 0n]));
  const add = (address: string | undefined, units: bigint) => {
    if (address !== undefined && expected.has(address))
      expected.set(address, (expected.get(address) ?? 0n) + units);
  };
  const cents = (id: string) => books.posted.get(id) ?? 0n;

  for (const [org, posted] of books.pools) add(poolOf.get(org), posted * per);
  const credited = new Set<string>();
  for (const d of books.deposits) {
    credited.add(`${d.tx_hash}:${d.log_index}`);
    const units = BigInt(d.units);
    const whole = BigInt(d.credited_cents) * per;
    if (Number(d.block_number) > block) {
      // Credited from a block after B: in the pool's balance, not yet in what the chain showed.
      if (d.kind === 'pool') add(successor.get(d.address), -whole);
    } else if (d.kind === 'pool') add(successor.get(d.address), units - whole);
    else add(successor.get(d.address), (whole > 0n ? cents(depositTransferId(d)) * per : 0n) + units - whole);
  }
  // Deposits up to B the watcher has not credited yet: the chain has them, the books will.
  if (books.cursor !== null && books.cursor < block) {
    for (const d of await chain.depositsBetween(books.cursor + 1, block))
      if (!credited.has(`${d.txHash}:${d.logIndex}`)) add(successor.get(d.address), d.units);
  }

  // Transfers between pools and users: which moved by B, of those the books have not settled (or just did).
  const look = new Set([
    ...books.flows
      .filter((f) => !SETTLED_FLOW.has(f.status) || Number(f.updated_at) >= recent)
      .map((f) => f.id),
    ...books.returns
      .filter((r) => r.status !== 'returned' || Number(r.updated_at) >= recent)
      .flatMap((r) => attempts(r.id, r.attempt)),
  ]);
  const movedIn = await chain.movedIn([...look]);
  const movedByB = (id: string) => (movedIn.get(id) ?? Number.POSITIVE_INFINITY) <= block;
  for (const f of books.flows) {
    const settled = SETTLED_FLOW.has(f.status);
    if (settled) add(userOf.get(`${f.organization_id}|${f.user_id}`), cents(`${f.id}.reserve.post`) * per);
    // Tokens that went from the pool to the user by B beyond what the books settled, or short of it.
    const units = BigInt(f.transfer_cents) * per;
    const moved = look.has(f.id) ? movedByB(f.id) : settled;
    const shift = moved && !settled ? units : settled && !moved ? -units : 0n;
    add(poolOf.get(f.organization_id), -shift);
    add(userOf.get(`${f.organization_id}|${f.user_id}`), shift);
  }
  for (const r of books.returns) {
    const returned = r.status === 'returned';
    if (returned) add(userOf.get(`${r.organization_id}|${r.user_id}`), -cents(`${r.id}.post`) * per);
    // Tokens that went back from the user to the pool by B beyond what the books settled, or short of it.
    const units = BigInt(r.amount_cents) * per;
    const ids = attempts(r.id, r.attempt);
    const moved = ids.some((id) => look.has(id)) ? ids.some(movedByB) : returned;
    const shift = moved && !returned ? units : returned && !moved ? -units : 0n;
    add(userOf.get(`${r.organization_id}|${r.user_id}`), -shift);
    add(poolOf.get(r.organization_id), shift);
  }

  const decimals = chain.config.decimals;
  const drifts: ChainDrift[] = [];
  for (const a of addresses) {
    const onChain = balances.get(a.address) ?? 0n;
    const inBooks = expected.get(a.address) ?? 0n;
    if (onChain === inBooks) continue;
    drifts.push({
      address: getAddress(a.address),
      kind: a.kind,
      organization_id: a.organization_id,
      owner_id: a.owner_id,
      chain_units: onChain.toString(),
      ledger_units: inBooks.toString(),
      drift_units: (onChain - inBooks).toString(),
      chain: formatUnits(onChain, decimals),
      ledger: formatUnits(inBooks, decimals),
      drift: formatUnits(onChain - inBooks, decimals),
    });
  }
  return {
    object: 'chain_reconciliation',
    chain_id: chain.config.chainId,
    token: getAddress(chain.config.stablecoinAddress),
    block,
    addresses: addresses.length,
    drifts,
  };
}

/** The chain transfer ids of a return's attempts so far (returns.ts). */
function attempts(releaseId: string, attempt: number): string[] {
  return Array.from({ length: attempt }, (_, n) => `${releaseId}.${n + 1}`);
}
