import type { Clock } from '../../core/clock.ts';
import { isoTime } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { isRefusal, missing, Refusal } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { CardFlowStatus } from '../../db/schema.ts';
import type { Principal } from '../auth/index.ts';
import { type Card, type SpendingControlsInput, scopeOf } from '../cards/index.ts';
import type { TransferRequest } from '../ledger/index.ts';
import type { ChainTransfer } from './chain/index.ts';
import type { FundingConfig } from './config.ts';
import { type FlowMove, flowTransition } from './flow-states.ts';
import type { FundingRefusalCode } from './index.ts';
import type { FundingDeps, FundingService } from './service.ts';
import type { CardFlow } from './store.ts';
import * as store from './store.ts';

export type TransferFailure = 'insufficient_org_funds' | 'ack_timeout' | 'ack_denied' | 'transfer_failed';

export interface FlowLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * The company-funded card flow (spec §3 "Company-funded card flow"): its moves are the rows of
 * flow-states.ts, and these are the steps the worker takes from each status. Every step is one write
 * transaction that locks the flow, checks it still stands where the step starts, moves the money and
 * writes the events: a step taken twice (two workers, a worker killed before its commit) happens
 * once. A failure before the money moved voids the reservation. Money moved and no card: it stays in
 * the user's wallet and nets against their next company-funded card.
 */
const STEPS: Partial<Record<CardFlowStatus, (flows: CardFlows, flow: CardFlow) => Promise<void>>> = {
  awaiting_collection: (flows, flow) => flows.fail(flow, 'ack_timeout'),
  started: (flows, flow) => flows.approve(flow, 'auto'),
  approved: (flows, flow) => flows.initiate(flow),
  initiated: (flows, flow) => flows.confirm(flow),
  completed: (flows, flow) => flows.mint(flow),
};

/** The pool's hold for a flow's transfer into the user's wallet (also read by ownership.ts). */
export const holdId = (flow: Pick<CardFlow, 'id'>) => `${flow.id}.reserve`;
const feeHoldId = (flow: Pick<CardFlow, 'id'>) => `${flow.id}.fee`;

/** The fee on a transfer: basis points of what moves (rounded down) plus the fixed part; none when nothing moves. */
export function transferFee(transferCents: number, fees: { bps: number; fixedCents: number }): number {
  if (transferCents <= 0) return 0;
  return Math.floor((transferCents * fees.bps) / 10_000) + fees.fixedCents;
}

/** The move a failure takes (the pool's refusal at start is no move: the flow starts failed). */
const FAILURE_MOVES = {
  ack_timeout: 'ack_timed_out',
  ack_denied: 'collection_failed',
  transfer_failed: 'chain_reverted',
} as const satisfies Record<Exclude<TransferFailure, 'insufficient_org_funds'>, FlowMove>;

class StepSkipped extends Error {}

export class CardFlows {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: FundingConfig,
    private readonly deps: FundingDeps & { funding: FundingService },
  ) {}

  // ---- start (API)

  async start(
    principal: Principal,
    input: {
      user_id: string;
      amount_cents: number;
      type: Card['type'];
      external_user_id?: string | undefined;
      ack_required?: boolean | undefined;
      spending_controls?: SpendingControlsInput | undefined;
    },
  ) {
    const scope = scopeOf(principal);
    const { cards, ledger, funding } = this.deps;
    cards.checkAmount('amount_cents', input.amount_cents);
    // Checked before anything moves; the card gets them at mint.
    const controls = input.spending_controls ? cards.controls.stored(input.spending_controls) : null;
    const user = await cards.requireUser(scope, input.user_id);
    const identity = await cards.approvedIdentity(scope, user.id);
    if (!identity) {
      throw new Refusal<FundingRefusalCode>(
        'kyc_required',
        "The user's identity verification must be approved first.",
      );
    }
    const id = newId('tr');
    const now = this.clock.now();
    const ackRequired = input.ack_required === true;
    const flow = await ledger.transaction(async (trx) => {
      // Locks the wallet row: one organization's flows start one at a time, each seeing the last's hold.
      const wallet = await funding.ensureWallet(trx, scope);
      const cardholder = await cards.cardholders.ensureForUser(trx, scope, user, identity);
      const livemode = livemodeColumn(scope.livemode);
      const [pool, userWallet] = await Promise.all([
        funding.poolAccount(trx, scope),
        cards.walletAccount(trx, scope, user.id),
      ]);
      // Both balances read under the locks the holds below need (taken up front: docs/ledger.md).
      const books = await ledger.lockAccounts(trx, [pool, userWallet]);
      // Funds an earlier flow left in the wallet (its card failed) net first, as far as they are still there.
      const released = await store.releasedCents(trx, scope.organizationId, livemode, user.id);
      const inWallet = books.balance(userWallet).available_cents;
      const netted = Math.max(0, Math.min(released, inWallet, input.amount_cents));
      const transferCents = input.amount_cents - netted;
      const feeCents = transferFee(transferCents, {
        bps: wallet.fee_bps,
        fixedCents: wallet.fee_fixed_cents,
      });
      const poolBalance = books.balance(pool).available_cents;
      const covered = poolBalance >= transferCents + feeCents;
      const row: CardFlow = {
        id,
        organization_id: scope.organizationId,
        livemode,
        user_id: user.id,
        cardholder_id: cardholder.id,
        client_id: principal.clientId,
        external_user_id: input.external_user_id ?? null,
        card_type: input.type,
        amount_cents: input.amount_cents,
        fee_cents: feeCents,
        transfer_cents: transferCents,
        netted_cents: covered ? netted : 0,
        ack_required: ackRequired ? 1 : 0,
        ack_deadline: ackRequired ? now + this.config.ackDeadlineMs : null,
        status: covered ? (ackRequired ? 'awaiting_collection' : 'started') : 'failed',
        approved_via: null,
        tx_hash: null,
        failure_reason: covered ? null : 'insufficient_org_funds',
        card_id: newId('card'),
        spending_controls: controls,
        created_at: now,
        updated_at: now,
      };
      await store.insertFlow(trx, row);
      if (!covered) {
        await this.emitFailed(trx, row, 'insufficient_org_funds');
        return row;
      }
      const feeAccount = await ledger.accountId(trx, {
        ...scope,
        kind: 'fees',
        ownerId: scope.organizationId,
      });
      const holds: TransferRequest[] = [];
      if (transferCents > 0)
        holds.push({
          type: 'pending',
          id: holdId(row),
          debitAccountId: pool,
          creditAccountId: userWallet,
          amount: transferCents,
          code: 'company_funding',
        });
      if (feeCents > 0)
        holds.push({
          type: 'pending',
          id: feeHoldId(row),
          debitAccountId: pool,
          creditAccountId: feeAccount,
          amount: feeCents,
          code: 'company_funding_fee',
        });
      await ledger.execute(trx, holds);
      await this.emit(trx, row, 'card_flow.started', {
        transfer_id: row.id,
        cardholder_id: row.cardholder_id,
        external_user_id: row.external_user_id,
        amount_cents: row.amount_cents,
        fee_cents: row.fee_cents,
        transfer_cents: row.transfer_cents,
        ack_required: ackRequired,
        ack_deadline: row.ack_deadline === null ? null : isoTime(row.ack_deadline),
        client_id: row.client_id,
      });
      await funding.checkLowBalance(trx, scope, transferCents + feeCents);
      return row;
    });
    return this.object(flow);
  }

  async get(scope: Tenant, id: string) {
    return this.object(await this.find(this.db, scope, id));
  }

  // ---- acknowledgements (v1 API)

  /** `collection_succeeded` (approve) or `collection_failed` (deny) for an `ack_required` flow. */
  async acknowledge(scope: Tenant, id: string, collected: boolean) {
    const flow = await this.find(this.db, scope, id);
    if (flow.ack_required !== 1)
      throw notAwaiting('This transfer was approved automatically; it takes no acknowledgement.');
    // Retrying the acknowledgement that already landed answers the flow again.
    if (collected && flow.approved_via === 'api') return this.object(flow);
    if (!collected && flow.failure_reason === 'ack_denied') return this.object(flow);
    if (flow.status !== 'awaiting_collection')
      throw notAwaiting('This transfer no longer awaits an acknowledgement.');
    if (flow.ack_deadline !== null && this.clock.now() >= flow.ack_deadline) {
      // Late: the flow fails as if the deadline had been swept, and the caller learns it.
      await this.fail(flow, 'ack_timeout');
      throw new Refusal<FundingRefusalCode>(
        'ack_deadline_passed',
        'The acknowledgement deadline has passed; the transfer failed.',
      );
    }
    if (collected) await this.approve(flow, 'api');
    else await this.fail(flow, 'ack_denied');
    const after = await this.find(this.db, scope, id);
    if (collected ? after.approved_via !== 'api' : after.failure_reason !== 'ack_denied')
      throw notAwaiting('This transfer no longer awaits an acknowledgement.');
    return this.object(after);
  }

  // ---- the worker's steps

  /** Takes every due step; a flow whose step errs is logged and tried again on the next pass. */
  async advance(log?: FlowLog): Promise<number> {
    let taken = 0;
    for (let round = 0; round < 10; round++) {
      const due = await store.due(this.db, this.clock.now(), 100);
      let progressed = 0;
      for (const { id } of due) {
        try {
          if (await this.takeStep(id)) progressed++;
        } catch (error) {
          log?.error({ transfer_id: id, err: String(error) }, 'card flow step failed');
        }
      }
      taken += progressed;
      // Nothing due, or only steps waiting on the outside world (an unconfirmed chain transfer).
      if (progressed === 0) break;
    }
    return taken;
  }

  /** The step due for this flow, if any; true when the flow moved. */
  async takeStep(id: string): Promise<boolean> {
    const flow = await store.flowById(this.db, id);
    if (!flow) return false;
    const overdue = flow.ack_deadline !== null && flow.ack_deadline <= this.clock.now();
    const step = flow.status === 'awaiting_collection' && !overdue ? undefined : STEPS[flow.status];
    if (!step) return false;
    try {
      await step(this, flow);
    } catch (error) {
      if (error instanceof StepSkipped) return false;
      throw error;
    }
    const after = await store.flowById(this.db, id);
    return after?.status !== flow.status;
  }

  approve(flow: CardFlow, via: 'api' | 'auto') {
    return this.step(flow.id, via === 'api' ? 'collection_succeeded' : 'approve', async (trx, locked) => {
      await this.emit(trx, locked, 'transfer.approved', { transfer_id: locked.id, approved_via: via });
      return { approved_via: via };
    });
  }

  async initiate(flow: CardFlow): Promise<void> {
    // Outside the transaction: no lock is held across the chain. Submissions are idempotent by id.
    const { txHash } =
      flow.transfer_cents > 0 ? await this.deps.chain.submit(this.chainTransfer(flow)) : { txHash: null };
    await this.step(flow.id, 'initiate', async (trx, locked) => {
      await this.emit(trx, locked, 'transfer.initiated', {
        transfer_id: locked.id,
        cardholder_id: locked.cardholder_id,
        transfer_cents: locked.transfer_cents,
        tx_hash: txHash,
      });
      return { tx_hash: txHash };
    });
  }

  async confirm(flow: CardFlow): Promise<void> {
    const status =
      flow.transfer_cents > 0
        ? await this.deps.chain.status(this.chainTransfer(flow), flow.tx_hash)
        : { state: 'confirmed' as const };
    if (status.state === 'pending') return;
    if (status.state === 'failed') return this.fail(flow, 'transfer_failed');
    await this.step(flow.id, 'confirm', async (trx, locked) => {
      const posts: TransferRequest[] = [];
      if (locked.transfer_cents > 0)
        posts.push({ type: 'post_pending', id: `${holdId(locked)}.post`, pendingId: holdId(locked) });
      if (locked.fee_cents > 0)
        posts.push({ type: 'post_pending', id: `${feeHoldId(locked)}.post`, pendingId: feeHoldId(locked) });
      await this.deps.ledger.execute(trx, posts);
      await this.emit(trx, locked, 'transfer.completed', {
        transfer_id: locked.id,
        cardholder_id: locked.cardholder_id,
        amount_cents: locked.amount_cents,
        transferred_cents: locked.transfer_cents,
        tx_hash: locked.tx_hash,
      });
      return {};
    });
  }

  async mint(flow: CardFlow): Promise<void> {
    const scope = tenantOf(flow);
    try {
      await this.deps.cards.createFlowCard(
        flow.client_id,
        scope,
        { user_id: flow.user_id, amount_cents: flow.amount_cents, type: flow.card_type },
        {
          id: flow.card_id,
          transferId: flow.id,
          spendingControls: flow.spending_controls,
          onCommit: async (trx) => {
            const { from, to } = flowTransition('mint');
            const locked = await store.lockFlow(trx, flow.id);
            if (locked?.status !== from) throw new StepSkipped();
            await store.updateFlow(trx, flow.id, { status: to, updated_at: this.clock.now() });
            this.failpoint(to);
          },
        },
      );
    } catch (error) {
      if (!isRefusal(error)) throw error;
      // The card cannot be issued (the user is no longer approved, the wallet was spent, the issuer
      // refused): the money stays the user's and nets against their next company-funded card.
      await this.step(flow.id, 'mint_failed', async (trx, locked) => {
        await this.emit(trx, locked, 'card_flow.failed', {
          transfer_id: locked.id,
          cardholder_id: locked.cardholder_id,
          amount_cents: locked.amount_cents,
          reason: 'mint_failed',
          funds_status: 'released_to_headroom',
        });
        return { failure_reason: 'mint_failed' };
      });
    }
  }

  /** `transfer.failed`: the reservation is released. */
  fail(flow: CardFlow, reason: Exclude<TransferFailure, 'insufficient_org_funds'>): Promise<void> {
    return this.step(flow.id, FAILURE_MOVES[reason], async (trx, locked) => {
      // The wallet row before the ledger's accounts: the order a start takes them in (no deadlock).
      await this.deps.funding.ensureWallet(trx, scopeOfFlow(locked));
      const voids: TransferRequest[] = [];
      if (locked.transfer_cents > 0)
        voids.push({ type: 'void_pending', id: `${holdId(locked)}.void`, pendingId: holdId(locked) });
      if (locked.fee_cents > 0)
        voids.push({ type: 'void_pending', id: `${feeHoldId(locked)}.void`, pendingId: feeHoldId(locked) });
      await this.deps.ledger.execute(trx, voids);
      await this.emitFailed(trx, locked, reason);
      await this.deps.funding.checkLowBalance(trx, scopeOfFlow(locked));
      return { failure_reason: reason };
    });
  }

  // ---- helpers

  /**
   * One step, `move`'s row of the table: in a write transaction, lock the flow; unless it still
   * stands at the row's `from` (another worker took the step), change nothing; else do the step's
   * work and move it to the row's `to`.
   */
  private async step(
    id: string,
    move: FlowMove,
    work: (trx: Executor, flow: CardFlow) => Promise<Partial<CardFlow>>,
  ): Promise<void> {
    const { from, to } = flowTransition(move);
    await this.deps.ledger.transaction(async (trx) => {
      const locked = await store.lockFlow(trx, id);
      if (locked?.status !== from) return;
      const changes = await work(trx, locked);
      await store.updateFlow(trx, id, { ...changes, status: to, updated_at: this.clock.now() });
      this.failpoint(to);
    });
  }

  /** Crash tests: die inside this step's transaction, before it commits (config.failpoint). */
  private failpoint(step: CardFlowStatus): void {
    if (this.config.failpoint === `funding.${step}`) process.kill(process.pid, 'SIGKILL');
  }

  private emitFailed(trx: Executor, flow: CardFlow, reason: TransferFailure) {
    return this.emit(trx, flow, 'transfer.failed', {
      transfer_id: flow.id,
      cardholder_id: flow.cardholder_id,
      amount_cents: flow.amount_cents,
      reason,
    });
  }

  private emit(trx: Executor, flow: CardFlow, type: string, data: Record<string, unknown>) {
    return this.deps.funding.emit(trx, scopeOfFlow(flow), type, data);
  }

  private chainTransfer(flow: CardFlow): ChainTransfer {
    return {
      direction: 'to_user',
      transferId: flow.id,
      organizationId: flow.organization_id,
      livemode: isLivemode(flow.livemode),
      userId: flow.user_id,
      amountCents: flow.transfer_cents,
    };
  }

  private async find(exec: Executor, scope: Tenant, id: string): Promise<CardFlow> {
    const flow = await store.flow(exec, scope.organizationId, livemodeColumn(scope.livemode), id);
    if (!flow) throw missing('No such card flow.');
    return flow;
  }

  object(flow: CardFlow) {
    return {
      object: 'card_flow' as const,
      transfer_id: flow.id,
      status: flow.status,
      user_id: flow.user_id,
      cardholder_id: flow.cardholder_id,
      external_user_id: flow.external_user_id,
      type: flow.card_type,
      amount_cents: flow.amount_cents,
      fee_cents: flow.fee_cents,
      transfer_cents: flow.transfer_cents,
      netted_cents: flow.netted_cents,
      ack_required: flow.ack_required === 1,
      ack_deadline: flow.ack_deadline === null ? null : isoTime(flow.ack_deadline),
      approved_via: flow.approved_via,
      tx_hash: flow.tx_hash,
      failure_reason: flow.failure_reason,
      card_id: flow.status === 'card_created' ? flow.card_id : null,
      test_mode: flow.livemode === 0,
      created_at: isoTime(flow.created_at),
      updated_at: isoTime(flow.updated_at),
    };
  }
}

function scopeOfFlow(flow: Pick<CardFlow, 'organization_id' | 'livemode'>): Tenant {
  return tenantOf(flow);
}

const notAwaiting = (message: string) =>
  new Refusal<FundingRefusalCode>('transfer_not_awaiting_ack', message);
