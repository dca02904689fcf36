import type { Clock } from '../../core/clock.ts';
import { HOUR, SECOND } from '../../core/clock.ts';
import { isLivemode, livemodeColumn, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { ChainReturnStatus } from '../../db/schema.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { Chain, ChainTransfer } from './chain/index.ts';
import type { FundingConfig } from './config.ts';
import type { FlowLog } from './flow.ts';
import type { FundingService } from './service.ts';
import type { ChainReturn } from './store.ts';
import * as store from './store.ts';

/** A failed attempt waits this long before the next, twice as long after each failure, at most an hour. */
const RETRY_FIRST_MS = 30 * SECOND;
const RETRY_MAX_MS = HOUR;

/** Company money a company-funded card releases, on its way back to the pool. */
export interface Release {
  /** The release's id: the ledger hold (card → pool) and the return's. */
  id: string;
  organizationId: string;
  livemode: boolean;
  userId: string;
  cardAccount: string;
  pool: string;
  amountCents: number;
  /** The ledger code of the move. */
  code: string;
  /** `transfer.released`'s data, `tx_hash` aside. */
  event: Record<string, unknown>;
}

/**
 * Company money released to the pool while its tokens sit at the user's deposit address (CHAIN=evm,
 * production): a company-funded flow moved them there. The release holds the money in the ledger
 * (card → pool, pending: the card can no longer spend it, the pool cannot yet) and records this job
 * in the caller's transaction; the worker moves the tokens back, and only when they are on the pool's
 * address at depth does the hold post and `transfer.released` fire with the `tx_hash`. So the pool
 * never counts money the chain has not given it back (docs/funding.md "Releases return on the chain").
 *
 * | status  | step (worker)                                                | next      | events             |
 * |---------|--------------------------------------------------------------|-----------|--------------------|
 * | pending | submit attempt `<id>.<attempt>`: the pool sends the user's signed authorization, paying the gas | sent | — |
 * | sent    | confirmed: the hold posts to the pool                        | returned  | `transfer.released` |
 * | sent    | failed (reverted, never mined): the next attempt, later      | pending   | — (an error log)   |
 *
 * Every step is one write transaction that locks the return and checks it still stands where the
 * step starts (two workers, a worker killed before its commit: each step happens once). Submissions
 * are idempotent by attempt id (signed and stored before they are broadcast), and the token refuses
 * the authorization a second time (chain/authorization.ts): the tokens return once.
 */
export class ChainReturns {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: FundingConfig,
    private readonly deps: {
      ledger: LedgerService;
      chain: Chain;
      funding: FundingService;
    },
  ) {}

  /** In the caller's transaction: the hold and the job. A release made again (a retry) changes nothing. */
  async begin(trx: Executor, release: Release): Promise<void> {
    const [outcome] = await this.deps.ledger.execute(trx, [
      {
        type: 'pending',
        id: release.id,
        debitAccountId: release.cardAccount,
        creditAccountId: release.pool,
        amount: release.amountCents,
        code: release.code,
      },
    ]);
    if (!outcome?.created) return;
    const now = this.clock.now();
    await store.insertReturn(trx, {
      id: release.id,
      organization_id: release.organizationId,
      livemode: livemodeColumn(release.livemode),
      user_id: release.userId,
      amount_cents: release.amountCents,
      status: 'pending',
      attempt: 1,
      tx_hash: null,
      event_data: JSON.stringify(release.event),
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    });
  }

  /** Takes every due step; a return whose step errs is logged and tried again on the next pass. */
  async advance(log?: FlowLog): Promise<number> {
    let taken = 0;
    for (let round = 0; round < 10; round++) {
      const due = await store.dueReturns(this.db, this.clock.now(), 100);
      let progressed = 0;
      for (const { id } of due) {
        try {
          if (await this.takeStep(id, log)) progressed++;
        } catch (error) {
          log?.error({ release_id: id, err: String(error) }, 'chain return step failed');
        }
      }
      taken += progressed;
      // Nothing due, or only transactions the chain has not confirmed yet.
      if (progressed === 0) break;
    }
    return taken;
  }

  /** The step due for this return, if any; true when it moved. */
  async takeStep(id: string, log?: FlowLog): Promise<boolean> {
    const ret = await store.returnById(this.db, id);
    if (!ret) return false;
    if (ret.status === 'pending' && ret.next_attempt_at <= this.clock.now()) await this.submit(ret);
    else if (ret.status === 'sent') await this.confirm(ret, log);
    else return false;
    const after = await store.returnById(this.db, id);
    return after?.status !== ret.status;
  }

  private async submit(ret: ChainReturn): Promise<void> {
    // Outside the transaction: no lock is held across the chain. Submissions are idempotent by id.
    const { txHash } = await this.deps.chain.submit(this.transfer(ret));
    await this.step(ret, 'pending', 'sent', async () => ({ tx_hash: txHash }));
  }

  private async confirm(ret: ChainReturn, log?: FlowLog): Promise<void> {
    const status = await this.deps.chain.status(this.transfer(ret), ret.tx_hash);
    if (status.state === 'pending') return;
    if (status.state === 'failed') {
      // The tokens did not move (a reverted or never mined attempt): the next attempt carries the
      // same authorization, so at most one of them can ever move them.
      log?.error(
        { release_id: ret.id, attempt: ret.attempt, tx_hash: ret.tx_hash, detail: status.detail },
        'chain return failed; another attempt follows',
      );
      const wait = Math.min(RETRY_FIRST_MS * 2 ** (ret.attempt - 1), RETRY_MAX_MS);
      return this.step(ret, 'sent', 'pending', async () => ({
        attempt: ret.attempt + 1,
        tx_hash: null,
        next_attempt_at: this.clock.now() + wait,
      }));
    }
    await this.step(ret, 'sent', 'returned', async (trx, locked) => {
      const scope = tenantOf(locked);
      await this.deps.funding.ensureWallet(trx, scope);
      await this.deps.ledger.execute(trx, [
        { type: 'post_pending', id: `${locked.id}.post`, pendingId: locked.id },
      ]);
      await this.deps.funding.emit(trx, scope, 'transfer.released', {
        ...JSON.parse(locked.event_data),
        tx_hash: locked.tx_hash,
      });
      await this.deps.funding.checkLowBalance(trx, scope);
      return {};
    });
  }

  /**
   * One step: in a write transaction, lock the return; unless it still stands at `from` in the same
   * attempt (another worker took the step), change nothing; else do the step's work and move it to `to`.
   */
  private async step(
    ret: ChainReturn,
    from: ChainReturnStatus,
    to: ChainReturnStatus,
    work: (trx: Executor, locked: ChainReturn) => Promise<Partial<ChainReturn>>,
  ): Promise<void> {
    await this.deps.ledger.transaction(async (trx) => {
      const locked = await store.lockReturn(trx, ret.id);
      if (locked?.status !== from || locked.attempt !== ret.attempt) return;
      const changes = await work(trx, locked);
      await store.updateReturn(trx, ret.id, {
        ...changes,
        status: to,
        updated_at: this.clock.now(),
      });
      // Crash tests: die inside this step's transaction, before it commits (config.failpoint).
      if (this.config.failpoint === `funding.return.${to}`) process.kill(process.pid, 'SIGKILL');
    });
  }

  private transfer(ret: ChainReturn): ChainTransfer {
    return {
      direction: 'to_pool',
      transferId: `${ret.id}.${ret.attempt}`,
      releaseId: ret.id,
      organizationId: ret.organization_id,
      livemode: isLivemode(ret.livemode),
      userId: ret.user_id,
      amountCents: Number(ret.amount_cents),
    };
  }
}
