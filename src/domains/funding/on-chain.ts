import type { Clock } from '../../core/clock.ts';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { EvmChain, rpcErrorText } from './chain/evm.ts';
import type { ChainDeposit } from './chain/index.ts';
import { type PoolKeyRotation, RotationRefused } from './chain/rotate.ts';
import { type ChainDrift, type ChainReconciliation, reconcileChain } from './reconcile.ts';
import type { FundingDeps, FundingService } from './service.ts';
import * as store from './store.ts';
import { depositTransferId } from './store.ts';

/** The chain (or the database) could not be read for a reconciliation; the message names why. */
export class ChainUnreadable extends Error {}

/**
 * Funding's side of the chain (CHAIN=evm; docs/funding.md): users' deposit addresses, the worker's
 * watch that credits each confirmed deposit once, the reconciliation of every production address
 * with the books and the record of what drifted, and the pool key's rotation. Offline
 * (CHAIN=offline) each says so: no address, nothing to watch, nothing to compare.
 */
export class FundingOnChain {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly deps: FundingDeps,
    private readonly funding: FundingService,
  ) {}

  /** Where a user's own deposits go (production on the EVM rail); null offline and in sandbox. */
  async userDepositAddress(scope: Tenant, userId: string): Promise<string | null> {
    await this.deps.cards.requireUser(scope, userId);
    return this.deps.chain.userDepositAddress(scope.organizationId, scope.livemode, userId);
  }

  /** The worker's pass over the chain: every new confirmed deposit credited once. How many were seen. */
  watchDeposits(): Promise<number> {
    return this.deps.chain.watchDeposits((deposit) => this.creditDeposit(deposit));
  }

  /**
   * One deposit, in one transaction: recorded once by (chain, transaction hash, log index), and its
   * whole cents credited: to the company pool (`wallet.funded`), or to the user's wallet. Units
   * under a cent are recorded with it and never credited (docs/funding.md).
   */
  async creditDeposit(deposit: ChainDeposit): Promise<void> {
    const scope = { organizationId: deposit.organizationId, livemode: deposit.livemode };
    await this.deps.ledger.transaction(async (trx) => {
      const recorded = await store.insertDeposit(trx, {
        chain_id: deposit.chainId,
        tx_hash: deposit.txHash,
        log_index: deposit.logIndex,
        block_number: deposit.blockNumber,
        address: deposit.address,
        from_address: deposit.from,
        organization_id: deposit.organizationId,
        livemode: livemodeColumn(deposit.livemode),
        kind: deposit.kind,
        owner_id: deposit.ownerId,
        units: deposit.units.toString(),
        credited_cents: deposit.cents,
        created_at: this.clock.now(),
      });
      if (!recorded || deposit.cents <= 0) return;
      const transferId = depositTransferId({
        chain_id: deposit.chainId,
        tx_hash: deposit.txHash,
        log_index: deposit.logIndex,
      });
      if (deposit.kind === 'pool') {
        await this.funding.creditPool(trx, scope, deposit.cents, { transferId, txHash: deposit.txHash });
        return;
      }
      const [source, wallet] = await Promise.all([
        this.deps.cards.systemAccount(trx, scope, 'funding_source'),
        this.deps.cards.walletAccount(trx, scope, deposit.ownerId),
      ]);
      await this.deps.ledger.execute(trx, [
        {
          type: 'posted',
          id: transferId,
          debitAccountId: source,
          creditAccountId: wallet,
          amount: deposit.cents,
          code: 'user_deposit',
        },
      ]);
    });
  }

  /** Every production address compared with the books; null without a chain (CHAIN=offline). */
  async reconcileChain(): Promise<ChainReconciliation | null> {
    const { chain, ledger, dialect } = this.deps;
    if (!(chain instanceof EvmChain)) return null;
    // An RPC failure's text without the endpoint's URL (it often carries a provider's key).
    return reconcileChain({
      handle: { db: this.db, dialect },
      clock: this.clock,
      ledger,
      chain,
      poolAccounts: async (exec, organizationId) => {
        const scope = { organizationId, livemode: true };
        const fees = await ledger.accountId(exec, { ...scope, kind: 'fees', ownerId: organizationId });
        return { pool: await this.funding.poolAccount(exec, scope), fees };
      },
    }).catch((error: unknown) => {
      throw new ChainUnreadable(rpcErrorText(error));
    });
  }

  /**
   * `purser chain rotate-pool-key` (chain/rotate.ts): moves what the addresses of
   * `CHAIN_PREVIOUS_POOL_KEY` hold to those of `CHAIN_POOL_KEY`; null without `CHAIN=evm`. Refused
   * while a flow or a return has a transaction signed and not settled.
   */
  async rotatePoolKey(): Promise<PoolKeyRotation | null> {
    const { chain } = this.deps;
    if (!(chain instanceof EvmChain)) return null;
    const previous = chain.config.previousPoolKey;
    if (!previous) throw new RotationRefused('CHAIN_PREVIOUS_POOL_KEY (the key being replaced) is not set');
    const flows = await store.liveChainFlows(this.db);
    const returns = await store.liveReturns(this.db);
    const unsettled = [
      ...flows.filter((f) => f.status === 'approved' || f.status === 'initiated').map((f) => f.id),
      ...returns.filter((r) => r.status !== 'returned').map((r) => `${r.id}.${r.attempt}`),
    ];
    return chain.rotatePoolKey(previous, unsettled);
  }

  /**
   * The worker's record of a check: each address's drift kept (`chain_drifts`, read by /metrics) and
   * what changed since the last check returned, once across workers (a check older than the one
   * recorded changes nothing).
   */
  async recordChainCheck(
    check: ChainReconciliation,
  ): Promise<{ drifted: ChainDrift[]; resolved: { address: string; organization_id: string }[] }> {
    const changes = {
      drifted: [] as ChainDrift[],
      resolved: [] as { address: string; organization_id: string }[],
    };
    const chain = this.deps.chain;
    if (!(chain instanceof EvmChain)) return changes;
    await writeTransaction({ db: this.db, dialect: this.deps.dialect }, async (trx) => {
      if (!(await chain.claimReconcile(trx, check.block))) return;
      const now = this.clock.now();
      const current = new Set(check.drifts.map((d) => d.address.toLowerCase()));
      for (const drift of check.drifts) {
        const row = {
          address: drift.address.toLowerCase(),
          organization_id: drift.organization_id,
          kind: drift.kind,
          owner_id: drift.owner_id,
          chain_units: drift.chain_units,
          ledger_units: drift.ledger_units,
          since: now,
          checked_at: now,
        };
        if (await store.recordDrift(trx, row)) changes.drifted.push(drift);
      }
      for (const before of await store.drifts(trx)) {
        if (current.has(before.address)) continue;
        if (await store.clearDrift(trx, before.address))
          changes.resolved.push({ address: before.address, organization_id: before.organization_id });
      }
    });
    return changes;
  }

  /** What the worker's last check found (for /metrics): each drifting address, and when it ran. */
  async chainDrifts() {
    const chain = this.deps.chain;
    const last = chain instanceof EvmChain ? await chain.lastReconcile(this.db) : null;
    return {
      last,
      drifts: await store.drifts(this.db),
      decimals: chain instanceof EvmChain ? chain.config.decimals : 0,
    };
  }
}
