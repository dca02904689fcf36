import pg from 'pg';
import type { AppContext } from '../context.ts';
import { HOUR, MINUTE, SECOND } from '../core/clock.ts';
import { pruneIdempotencyKeys } from '../core/idempotency.ts';
import { DatabaseRateLimiter } from '../core/rate-limit.ts';
import type { ClaimedDelivery } from '../domains/events/delivery.ts';
import { DELIVERIES_CHANNEL } from '../domains/events/service.ts';

export interface WorkerLog {
  info(fields: object, message: string): void;
  /** Something an operator should look at (a drift between the chain and the books); else `error`. */
  warn?(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const consoleLog: WorkerLog = {
  info: (fields, message) =>
    process.stdout.write(`${JSON.stringify({ level: 'info', msg: message, ...fields })}\n`),
  warn: (fields, message) =>
    process.stdout.write(`${JSON.stringify({ level: 'warn', msg: message, ...fields })}\n`),
  error: (fields, message) =>
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: message, ...fields })}\n`),
};

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
  private listening: Promise<unknown> = Promise.resolve();
  private firstPassDone: () => void = () => {};
  private firstPass: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  /** When each periodic chore last ran. */
  private readonly lastRun = {
    retention: Number.NEGATIVE_INFINITY,
    reviews: Number.NEGATIVE_INFINITY,
    kycData: Number.NEGATIVE_INFINITY,
    holds: Number.NEGATIVE_INFINITY,
    flows: Number.NEGATIVE_INFINITY,
    orders: Number.NEGATIVE_INFINITY,
    approvals: Number.NEGATIVE_INFINITY,
    deposits: Number.NEGATIVE_INFINITY,
    reconcile: Number.NEGATIVE_INFINITY,
    messaging: Number.NEGATIVE_INFINITY,
  };

  constructor(
    private readonly ctx: AppContext,
    private readonly log: WorkerLog = consoleLog,
  ) {}

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
    const listener = this.ctx.dialect === 'postgres' ? this.listen(wakeIfIdle) : null;
    this.listening = listener ?? Promise.resolve();
    this.firstPass = new Promise((resolve) => {
      this.firstPassDone = resolve;
    });
    this.unsubscribe = () => {
      unsubscribe();
      void listener?.then((client) => client?.end()).catch(() => {});
    };
    this.loopDone = this.loop();
  }

  /**
   * Resolves once the worker has made its first pass and hears other processes' new deliveries
   * (PostgreSQL LISTEN; on SQLite it polls only).
   */
  async ready(): Promise<void> {
    await Promise.all([this.listening, this.firstPass]);
  }

  /** Stops claiming, then waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wake?.();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Delivers every delivery due now, waits for each to be recorded, and runs due sweeps. */
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
    return attempted;
  }

  private async loop(): Promise<void> {
    const { concurrency, pollIntervalMs } = this.ctx.config.webhooks;
    const half = Math.floor(concurrency / 2);
    while (this.running) {
      // A wake-up from here on may announce deliveries this claim does not see yet: keep it.
      this.wakeRequested = false;
      let claimed: ClaimedDelivery[] = [];
      // Requests in flight are bounded by `concurrency`; attempts awaiting their record by as much again.
      const free = Math.min(concurrency - this.sending, 2 * concurrency - this.inFlight.size);
      if (free > 0) {
        try {
          claimed = await this.ctx.events.deliveries.claim(free);
        } catch (error) {
          this.log.error({ err: String(error) }, 'claiming deliveries failed');
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
      if (outcome !== 'succeeded' && outcome !== 'lost') {
        this.log.info({ delivery_id: delivery.id, event_id: delivery.event_id, outcome }, 'webhook attempt');
      }
    } catch (error) {
      // The lease ends and another pass retries it; nothing is dropped.
      this.log.error({ delivery_id: delivery.id, err: String(error) }, 'webhook attempt failed to record');
    } finally {
      sent();
    }
  }

  /** The periodic chores that are due, each at most once per its interval. */
  private async sweep(): Promise<void> {
    const now = this.ctx.clock.now();
    await this.advanceFlows(now);
    await this.watchDeposits(now);
    await this.reconcileChain(now);
    if (now - this.lastRun.retention >= RETENTION_INTERVAL_MS) {
      this.lastRun.retention = now;
      try {
        const pruned = await this.ctx.events.pruneExpired();
        const tokens = await this.ctx.auth.sweepExpired();
        await this.ctx.connect.sweepRotatedSuccessors();
        // Authorization codes past their 60 seconds (and the minute their replay is recognised in).
        await this.ctx.oauth.sweepExpiredCodes();
        // Rate-limit logs of every limiter kept in the database whose window has passed.
        if (this.ctx.tokenRateLimiter instanceof DatabaseRateLimiter) await this.ctx.tokenRateLimiter.sweep();
        const keys = await pruneIdempotencyKeys(this.ctx.db, now);
        if (pruned > 0 || tokens > 0 || keys > 0)
          this.log.info({ events: pruned, access_tokens: tokens, idempotency_keys: keys }, 'retention sweep');
      } catch (error) {
        this.log.error({ err: String(error) }, 'retention sweep failed');
      }
    }
    if (now - this.lastRun.reviews >= REVIEW_RETRY_INTERVAL_MS) {
      this.lastRun.reviews = now;
      try {
        const { submitted, failed } = await this.ctx.kyc.retryReviewSubmissions(REVIEW_RETRY_INTERVAL_MS);
        if (submitted > 0 || failed > 0)
          this.log[failed > 0 ? 'error' : 'info'](
            { submitted, failed },
            'identity review hand-overs retried',
          );
      } catch (error) {
        this.log.error({ err: String(error) }, 'identity review hand-over retry failed');
      }
    }
    if (now - this.lastRun.kycData >= KYC_DATA_SWEEP_INTERVAL_MS) {
      this.lastRun.kycData = now;
      try {
        const { nationalIdsErased, documentKeysRekeyed } = await this.ctx.kyc.sweepPersonalData();
        if (nationalIdsErased > 0 || documentKeysRekeyed > 0)
          this.log.info(
            { national_ids_erased: nationalIdsErased, document_keys_rekeyed: documentKeysRekeyed },
            'identity data sweep',
          );
      } catch (error) {
        this.log.error({ err: String(error) }, 'identity data sweep failed');
      }
    }
    if (now - this.lastRun.orders >= ORDER_RESOLVE_INTERVAL_MS) {
      this.lastRun.orders = now;
      try {
        const ended = await this.ctx.purchases.checkout.resolveDue();
        if (ended > 0) this.log.info({ orders: ended }, 'unsettled orders resolved');
      } catch (error) {
        this.log.error({ err: String(error) }, 'order resolution failed');
      }
    }
    if (now - this.lastRun.messaging >= MESSAGING_REFRESH_INTERVAL_MS) {
      this.lastRun.messaging = now;
      try {
        const { refreshed, failed, broken } = await this.ctx.messaging.refreshDue();
        if (refreshed > 0 || failed > 0 || broken > 0)
          this.log[failed > 0 || broken > 0 ? 'error' : 'info'](
            { refreshed, failed, broken },
            'messaging provider tokens refreshed',
          );
      } catch (error) {
        this.log.error({ err: String(error) }, 'messaging token refresh failed');
      }
    }
    if (now - this.lastRun.approvals >= APPROVAL_EXPIRY_INTERVAL_MS) {
      this.lastRun.approvals = now;
      try {
        const expired = await this.ctx.purchases.approvals.expireDue();
        await this.ctx.purchases.approvals.placeApprovedDue(this.ctx.config.purchases.confirmGraceMs);
        await this.ctx.vault.passkeys.sweepChallenges();
        if (expired > 0) this.log.info({ authorizations: expired }, 'checkout authorizations expired');
      } catch (error) {
        this.log.error({ err: String(error) }, 'checkout authorization expiry failed');
      }
    }
    if (now - this.lastRun.holds >= HOLD_EXPIRY_INTERVAL_MS) {
      this.lastRun.holds = now;
      try {
        const authorizations = await this.ctx.cards.network.expireAuthorizations();
        const holds = await this.ctx.ledger.expireDue();
        if (authorizations > 0 || holds > 0) this.log.info({ authorizations, holds }, 'expired holds voided');
        // Mirror accounts' changes into their totals (PostgreSQL), so that reading one stays cheap.
        for (let round = 0; round < 10 && (await this.ctx.ledger.foldMirrors()) > 0; round++);
      } catch (error) {
        this.log.error({ err: String(error) }, 'hold expiry failed');
      }
    }
  }

  /** Company-funded card flows: each due step, exactly once (funding/flow.ts). */
  private async advanceFlows(now: number): Promise<void> {
    if (now - this.lastRun.flows < this.ctx.config.funding.pollIntervalMs) return;
    this.lastRun.flows = now;
    try {
      const steps = await this.ctx.funding.advanceFlows(this.log);
      if (steps > 0) this.log.info({ steps }, 'card flow steps taken');
      const returns = await this.ctx.funding.advanceReturns(this.log);
      if (returns > 0) this.log.info({ steps: returns }, 'chain return steps taken');
    } catch (error) {
      this.log.error({ err: String(error) }, 'card flow pass failed');
    }
  }

  /** Stablecoin deposits on the chain (CHAIN=evm): each credited once, the block cursor persisted. */
  private async watchDeposits(now: number): Promise<void> {
    if (this.ctx.funding.chain.name !== 'evm') return;
    if (now - this.lastRun.deposits < this.ctx.config.funding.pollIntervalMs) return;
    this.lastRun.deposits = now;
    try {
      const deposits = await this.ctx.funding.watchDeposits();
      if (deposits > 0) this.log.info({ deposits }, 'chain deposits credited');
    } catch (error) {
      this.log.error({ err: String(error) }, 'deposit watching failed');
    }
  }

  /**
   * The chain against the books (CHAIN=evm, `purser chain reconcile`): each address's drift recorded
   * for /metrics, and one warning line per drift that appears or changes (one info line when it ends).
   */
  private async reconcileChain(now: number): Promise<void> {
    if (this.ctx.funding.chain.name !== 'evm') return;
    if (now - this.lastRun.reconcile < this.ctx.config.funding.reconcileIntervalMs) return;
    this.lastRun.reconcile = now;
    try {
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
    } catch (error) {
      this.log.error({ err: String(error) }, 'chain reconcile failed');
    }
  }

  /** A dedicated connection LISTENing for new deliveries; polling still covers anything it misses. */
  private async listen(onNotify: () => void): Promise<pg.Client | null> {
    const url = new URL(this.ctx.config.databaseUrl);
    url.searchParams.delete('schema');
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      client.on('notification', onNotify);
      client.on('error', (error) =>
        this.log.error({ err: String(error) }, 'LISTEN connection failed; polling'),
      );
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      return client;
    } catch (error) {
      this.log.error({ err: String(error) }, 'LISTEN unavailable; polling');
      await client.end().catch(() => {});
      return null;
    }
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
