import type { AppContext } from '../context.ts';
import { DAY, HOUR, MINUTE, SECOND } from '../core/clock.ts';
import { pruneIdempotencyKeys } from '../core/idempotency.ts';
import { DatabaseRateLimiter } from '../core/rate-limit.ts';
import { isDatabaseUnavailable, probeDatabase } from '../db/availability.ts';
import { maintainTables } from '../db/maintenance.ts';
import type { ClaimedDelivery } from '../domains/events/delivery.ts';
import { DELIVERIES_CHANNEL } from '../domains/events/service.ts';
import { NotificationListener } from './listener.ts';

export interface WorkerLog {
  info(fields: object, message: string): void;
  /** Something an operator should look at (a drift between the chain and the books); else `error`. */
  warn?(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A periodic chore of the worker (see `Worker.chores`). */
interface Chore {
  /** Its label in /metrics and in the log. */
  name: string;
  intervalMs: number;
  enabled?: boolean;
  /** Run beside the loop, which claims meanwhile: a chore that can take seconds (one at a time). */
  background?: boolean;
  run(now: number): Promise<void>;
}

/** Retention: expired events, delivery logs, access tokens and idempotency keys. */
const RETENTION_INTERVAL_MS = HOUR;
/**
 * How long a busy worker lets newly emitted deliveries gather before claiming them: a few
 * milliseconds of latency buy batched claims and records under a steady stream of events.
 */
const GATHER_MS = 5;
/** Owed hand-overs of live identity verifications to the reviewer (KycService.retryReviewSubmissions). */
const REVIEW_RETRY_INTERVAL_MS = MINUTE;
/** Sealed national ids past their moment and stale document keys (KycService.sweepPersonalData). */
const KYC_DATA_SWEEP_INTERVAL_MS = 15 * MINUTE;
/** Expiring holds: card authorizations never cleared, and ledger holds past their expiry. */
const HOLD_EXPIRY_INTERVAL_MS = MINUTE;
/** Messaging-provider tokens near their expiry (MessagingService.refreshDue). */
const MESSAGING_REFRESH_INTERVAL_MS = MINUTE;
/** How often orders whose confirm died or whose merchant did not answer are looked at. */
const ORDER_RESOLVE_INTERVAL_MS = 5 * SECOND;
/** How often checkout authorizations past their time are expired (and stale WebAuthn challenges forgotten). */
const APPROVAL_EXPIRY_INTERVAL_MS = 15 * SECOND;
/** How often tables are looked at on a PostgreSQL server whose autovacuum is off (autovacuum's own naptime). */
const MAINTENANCE_INTERVAL_MS = MINUTE;
/**
 * The issuer's transactions the worker compares with the books: those created in this window. Lithic
 * clears within 30 days; late presentments and corrections can come later still.
 */
const ISSUER_RECONCILE_WINDOW_MS = 45 * DAY;
/** The database out of reach: the first wait before asking again, and the longest. */
const FIRST_DATABASE_PROBE_MS = 250;
const MAX_DATABASE_PROBE_MS = 5 * SECOND;

/**
 * The worker role: delivers webhooks and runs the periodic sweeps. Deliveries are claimed from the
 * database under a lease (see events/store.ts `claimDue`), so any number of workers can run, and a
 * delivery held by a worker that dies is claimed again when its lease ends: at-least-once.
 *
 * `start()` runs the loop until `stop()`; `runOnce()` is one deterministic pass for tests: it
 * delivers everything due at the clock's current time and returns when all of it is recorded.
 */
export class Worker {
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  /** Attempts not yet recorded. */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Of those, the ones still talking to their receiver. */
  private sending = 0;
  private wake: (() => void) | null = null;
  private idle = false;
  /** Set by a wake-up that came while the loop was busy, so that it is not lost. */
  private wakeRequested = false;
  private listener: NotificationListener | null = null;
  private firstPassDone: () => void = () => {};
  private firstPass: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  private readonly log: WorkerLog;
  private readonly choreList: Chore[];
  /** When each chore last started, and last completed. */
  private readonly lastRun = new Map<string, number>();
  private readonly lastDone = new Map<string, number>();
  /** Background chores still running, by name. */
  private readonly background = new Map<string, Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    log?: WorkerLog,
  ) {
    this.log = log ?? ctx.log;
    this.choreList = this.chores();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // An event emitted in this process wakes an idle loop; the claim then queues behind the
    // emitting transaction on SQLite's single connection, so it sees the new deliveries.
    const wakeIfIdle = () => {
      this.wakeRequested = true;
      if (this.idle) setImmediate(() => this.wake?.());
    };
    const unsubscribe = this.ctx.events.onEmit(wakeIfIdle);
    // On PostgreSQL, events emitted by other processes announce themselves on commit.
    if (this.ctx.dialect === 'postgres') {
      this.listener = new NotificationListener(this.ctx.config, DELIVERIES_CHANNEL, wakeIfIdle, this.log);
      void this.listener.connect();
    }
    this.firstPass = new Promise((resolve) => {
      this.firstPassDone = resolve;
    });
    this.unsubscribe = () => {
      unsubscribe();
      void this.listener?.close();
    };
    this.loopDone = this.loop();
  }

  /**
   * Resolves once the worker has made its first pass and hears other processes' new deliveries
   * (PostgreSQL LISTEN; on SQLite it polls only).
   */
  async ready(): Promise<void> {
    await Promise.all([this.listener?.connecting, this.firstPass]);
  }

  /** Stops claiming, then waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake?.();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight, ...this.background.values()]);
  }

  /** Delivers every delivery due now, waits for each to be recorded, and runs due sweeps to their end. */
  async runOnce(): Promise<number> {
    const { concurrency } = this.ctx.config.webhooks;
    let attempted = 0;
    for (;;) {
      const claimed = await this.ctx.events.deliveries.claim(concurrency);
      if (claimed.length === 0) break;
      attempted += claimed.length;
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    }
    await this.sweep();
    await Promise.all(this.background.values());
    return attempted;
  }

  private async loop(): Promise<void> {
    const { concurrency, pollIntervalMs } = this.ctx.config.webhooks;
    const half = Math.floor(concurrency / 2);
    while (this.running) {
      if (!this.ctx.health.database.ok) {
        await this.waitForDatabase();
        continue;
      }
      // A wake-up from here on may announce deliveries this claim does not see yet: keep it.
      this.wakeRequested = false;
      let claimed: ClaimedDelivery[] = [];
      // Requests in flight are bounded by `concurrency`; attempts awaiting their record by as much again.
      const free = Math.min(concurrency - this.sending, 2 * concurrency - this.inFlight.size);
      if (free > 0) {
        try {
          claimed = await this.ctx.events.deliveries.claim(free);
        } catch (error) {
          this.failed('claiming deliveries failed', error);
        }
        for (const delivery of claimed) {
          this.sending++;
          const sent = () => {
            this.sending--;
            // Half the capacity came free: claim again (in one batch) without waiting for the poll.
            if (this.sending === half) this.wake?.();
          };
          const attempt = this.attempt(delivery, sent).finally(() => {
            this.inFlight.delete(attempt);
            if (this.inFlight.size === concurrency) this.wake?.();
          });
          this.inFlight.add(attempt);
        }
      }
      await this.sweep();
      this.firstPassDone();
      // A LISTEN connection lost with the database is opened again once it answers.
      if (this.ctx.health.database.ok) this.listener?.reconnectIfLost();
      // Found work and room for more: look again at once. Idle: wait for the poll. Busy: wait
      // until half the slots are free, so that claims come in batches.
      const busy = this.sending > half || this.inFlight.size >= 2 * concurrency;
      // `stop()` may have come while this pass was claiming, when there was no pause to cut short.
      if (!this.running) break;
      if (busy || (claimed.length === 0 && !this.wakeRequested)) {
        this.idle = claimed.length === 0;
        await this.pause(pollIntervalMs);
        this.idle = false;
      } else if (claimed.length < free) {
        // Everything due was claimed. Deliveries emitted from now on gather for a moment, so that a
        // steady stream is claimed and recorded in batches instead of one write transaction each;
        // a lone event after a quiet spell is still claimed at once (the idle wake-up above).
        await this.pause(GATHER_MS);
      }
    }
  }

  /** One attempt, recorded; `onSent` is called exactly once, when the receiver is done with. */
  private async attempt(delivery: ClaimedDelivery, onSent: () => void = () => {}): Promise<void> {
    let sentCalled = false;
    const sent = () => {
      if (!sentCalled) {
        sentCalled = true;
        onSent();
      }
    };
    try {
      const outcome = await this.ctx.events.deliveries.attempt(delivery, sent);
      this.ctx.metrics.delivery(outcome);
      if (outcome !== 'succeeded' && outcome !== 'lost') {
        this.log.info({ delivery_id: delivery.id, event_id: delivery.event_id, outcome }, 'webhook attempt');
      }
    } catch (error) {
      // The lease ends and another pass retries it; nothing is dropped.
      this.ctx.metrics.delivery('unrecorded');
      this.failed(`webhook attempt ${delivery.id} failed to record`, error);
    } finally {
      sent();
    }
  }

  /**
   * The periodic chores, in the order a pass runs them: each at most once per its interval, and a
   * failed one waits for its next turn. `purser_worker_chore_lag_seconds` reports how late each is.
   */
  private chores(): Chore[] {
    const { ctx, log } = this;
    const evm = ctx.funding.chain.name === 'evm';
    let maintenanceWarned = false;
    const chores: Chore[] = [
      {
        // Company-funded card flows: each due step, exactly once (funding/flow.ts).
        name: 'card_flows',
        intervalMs: ctx.config.funding.pollIntervalMs,
        run: async () => {
          const steps = await ctx.funding.advanceFlows(log);
          if (steps > 0) log.info({ steps }, 'card flow steps taken');
          const returns = await ctx.funding.advanceReturns(log);
          if (returns > 0) log.info({ steps: returns }, 'chain return steps taken');
        },
      },
      {
        // Stablecoin deposits on the chain: each credited once, the block cursor persisted.
        name: 'chain_deposits',
        enabled: evm,
        intervalMs: ctx.config.funding.pollIntervalMs,
        run: async () => {
          const deposits = await ctx.funding.watchDeposits();
          if (deposits > 0) log.info({ deposits }, 'chain deposits credited');
        },
      },
      {
        name: 'chain_reconcile',
        enabled: evm,
        intervalMs: ctx.config.funding.reconcileIntervalMs,
        run: () => this.reconcileChain(),
      },
      {
        name: 'issuer_reconcile',
        enabled: ctx.config.cards.lithic !== null,
        intervalMs: ctx.config.cards.lithic?.reconcileIntervalMs ?? DAY,
        run: (now) => this.reconcileIssuer(now),
      },
      {
        // Expired events, delivery logs, access tokens and idempotency keys.
        name: 'retention',
        intervalMs: RETENTION_INTERVAL_MS,
        run: async (now) => {
          const pruned = await ctx.events.pruneExpired();
          const tokens = await ctx.auth.sweepExpired();
          await ctx.connect.sweepRotatedSuccessors();
          // Authorization codes past their 60 seconds (and the minute their replay is recognised in).
          await ctx.oauth.sweepExpiredCodes();
          // Rate-limit logs of every limiter kept in the database whose window has passed.
          if (ctx.tokenRateLimiter instanceof DatabaseRateLimiter) await ctx.tokenRateLimiter.sweep();
          const keys = await pruneIdempotencyKeys(ctx.db, now);
          if (pruned > 0 || tokens > 0 || keys > 0)
            log.info({ events: pruned, access_tokens: tokens, idempotency_keys: keys }, 'retention sweep');
        },
      },
      {
        name: 'identity_reviews',
        intervalMs: REVIEW_RETRY_INTERVAL_MS,
        run: async () => {
          const { submitted, failed } = await ctx.kyc.retryReviewSubmissions(REVIEW_RETRY_INTERVAL_MS);
          if (submitted > 0 || failed > 0)
            log[failed > 0 ? 'error' : 'info']({ submitted, failed }, 'identity review hand-overs retried');
        },
      },
      {
        name: 'identity_data',
        intervalMs: KYC_DATA_SWEEP_INTERVAL_MS,
        run: async () => {
          const { nationalIdsErased, documentKeysRekeyed } = await ctx.kyc.sweepPersonalData();
          if (nationalIdsErased > 0 || documentKeysRekeyed > 0)
            log.info(
              { national_ids_erased: nationalIdsErased, document_keys_rekeyed: documentKeysRekeyed },
              'identity data sweep',
            );
        },
      },
      {
        name: 'orders',
        intervalMs: ORDER_RESOLVE_INTERVAL_MS,
        run: async () => {
          const ended = await ctx.purchases.checkout.resolveDue();
          if (ended > 0) log.info({ orders: ended }, 'unsettled orders resolved');
        },
      },
      {
        name: 'messaging_tokens',
        intervalMs: MESSAGING_REFRESH_INTERVAL_MS,
        run: async () => {
          const { refreshed, failed, broken } = await ctx.messaging.refreshDue();
          if (refreshed > 0 || failed > 0 || broken > 0)
            log[failed > 0 || broken > 0 ? 'error' : 'info'](
              { refreshed, failed, broken },
              'messaging provider tokens refreshed',
            );
        },
      },
      {
        name: 'checkout_approvals',
        intervalMs: APPROVAL_EXPIRY_INTERVAL_MS,
        run: async () => {
          const expired = await ctx.purchases.approvals.expireDue();
          const mandates = await ctx.mandates.expireDue();
          if (mandates > 0) log.info({ mandates }, 'mandates expired');
          await ctx.purchases.approvals.placeApprovedDue(ctx.config.purchases.confirmGraceMs);
          await ctx.vault.passkeys.sweepChallenges();
          if (expired > 0) log.info({ authorizations: expired }, 'checkout authorizations expired');
        },
      },
      {
        // Card authorizations never cleared, and ledger holds past their expiry.
        name: 'hold_expiry',
        intervalMs: HOLD_EXPIRY_INTERVAL_MS,
        run: async () => {
          const authorizations = await ctx.cards.network.expireAuthorizations();
          const holds = await ctx.ledger.expireDue();
          if (authorizations > 0 || holds > 0) log.info({ authorizations, holds }, 'expired holds voided');
          // Changes appended to accounts (mirror accounts, the pool's credits: PostgreSQL) into their
          // totals, so that reading one stays cheap.
          for (let round = 0; round < 10 && (await ctx.ledger.foldDeltas()) > 0; round++);
        },
      },
      {
        // Vacuum and statistics, where the server's autovacuum does not do them (db/maintenance.ts).
        name: 'table_maintenance',
        enabled: ctx.dialect === 'postgres',
        intervalMs: MAINTENANCE_INTERVAL_MS,
        background: true,
        run: async () => {
          const { vacuumed, analyzed } = await maintainTables(ctx.db);
          if (analyzed.length === 0) return;
          // A warning the first time (the operator's signal that autovacuum is off); after it, info.
          const say = maintenanceWarned ? log.info : (log.warn ?? log.info);
          maintenanceWarned = true;
          say.call(
            log,
            { vacuumed, analyzed },
            "PostgreSQL's autovacuum is off: the worker did what it would have (docs/operations.md)",
          );
        },
      },
    ];
    return chores.filter((chore) => chore.enabled !== false);
  }

  /** Runs the chores that are due. */
  private async sweep(): Promise<void> {
    for (const chore of this.choreList) {
      const now = this.ctx.clock.now();
      const last = this.lastRun.get(chore.name) ?? Number.NEGATIVE_INFINITY;
      if (now - last < chore.intervalMs || this.background.has(chore.name)) continue;
      this.lastRun.set(chore.name, now);
      const done = chore.run(now).then(
        () => void this.lastDone.set(chore.name, this.ctx.clock.now()),
        (error) => this.failed(`${chore.name} failed`, error),
      );
      if (!chore.background) {
        await done;
        continue;
      }
      this.background.set(
        chore.name,
        done.finally(() => this.background.delete(chore.name)),
      );
    }
  }

  /**
   * Each chore's lag: how long past its due time (its last start plus its interval) it has not run,
   * and when it last completed. A paused or stuck worker shows a growing lag.
   */
  choreLag(): { chore: string; lagMs: number; lastDoneAt: number | null }[] {
    const now = this.ctx.clock.now();
    return this.choreList.map(({ name, intervalMs }) => {
      const last = this.lastRun.get(name);
      return {
        chore: name,
        lagMs: last === undefined ? 0 : Math.max(0, now - (last + intervalMs)),
        lastDoneAt: this.lastDone.get(name) ?? null,
      };
    });
  }

  /**
   * A failure of a pass or a chore: the database out of reach is recorded once (the loop then pauses
   * until it answers), anything else is logged as an error.
   */
  private failed(message: string, error: unknown): void {
    if (isDatabaseUnavailable(error)) {
      this.ctx.health.database.set('unavailable', { reason: (error as Error).message });
      return;
    }
    this.log.error({ err: String(error) }, message);
  }

  /**
   * While the database cannot be reached the loop claims nothing and runs no chore: it asks the
   * database again after a growing wait (up to `MAX_DATABASE_PROBE_MS`), and resumes at its first
   * answer. Deliveries in flight finish or are claimed again when their lease ends.
   */
  private async waitForDatabase(): Promise<void> {
    this.log.warn?.({}, 'worker paused: the database is unavailable');
    for (let wait = FIRST_DATABASE_PROBE_MS; this.running; wait = Math.min(2 * wait, MAX_DATABASE_PROBE_MS)) {
      await this.pause(wait);
      if (!this.running) return;
      if (await probeDatabase(this.ctx.db, this.ctx.health.database)) {
        this.log.info({}, 'worker resumed: the database answers');
        return;
      }
    }
  }

  /**
   * The chain against the books (CHAIN=evm, `purser chain reconcile`): each address's drift recorded
   * for /metrics, and one warning line per drift that appears or changes (one info line when it ends).
   */
  private async reconcileChain(): Promise<void> {
    const check = await this.ctx.funding.reconcileChain();
    if (!check) return;
    const { drifted, resolved } = await this.ctx.funding.recordChainCheck(check);
    const warn = (this.log.warn ?? this.log.error).bind(this.log);
    for (const drift of drifted) {
      const { address, kind, organization_id, owner_id, chain, ledger, drift: difference } = drift;
      warn(
        { address, kind, organization_id, owner_id, chain, ledger, drift: difference, block: check.block },
        'chain drift: the chain and the books disagree',
      );
    }
    for (const { address, organization_id } of resolved)
      this.log.info({ address, organization_id, block: check.block }, 'chain drift resolved');
  }

  /**
   * The issuer against the books (CARD_ISSUER=lithic, `purser issuer reconcile`) over the last
   * `ISSUER_RECONCILE_WINDOW_MS`: what it found recorded for /metrics, and one warning line per drift.
   */
  private async reconcileIssuer(now: number): Promise<void> {
    const reconciler = this.ctx.cards.reconciler;
    const check = await reconciler.reconcile(now - ISSUER_RECONCILE_WINDOW_MS);
    await reconciler.record(check);
    const warn = (this.log.warn ?? this.log.error).bind(this.log);
    for (const { transaction_id, kind, organization_id, card_id, issuer, books, detail } of check.drifts) {
      warn(
        { transaction_id, kind, organization_id, card_id, issuer, books, detail },
        'issuer drift: the issuer and the books disagree',
      );
    }
    this.log.info(
      { issuer: check.issuer, transactions: check.transactions, drifts: check.drifts.length },
      'issuer reconciled',
    );
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}
