import type { AppContext } from '../context.ts';
import { SECOND } from '../core/clock.ts';
import { isDatabaseUnavailable, probeDatabase } from '../db/availability.ts';
import type { ClaimedDelivery } from '../domains/events/delivery.ts';
import { DELIVERIES_CHANNEL } from '../domains/events/service.ts';
import { type Chore, workerChores } from './chores.ts';
import { NotificationListener } from './listener.ts';

export interface WorkerLog {
  info(fields: object, message: string): void;
  /** Something an operator should look at (a drift between the chain and the books); else `error`. */
  warn?(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * How long a busy worker lets newly emitted deliveries gather before claiming them: a few
 * milliseconds of latency buy batched claims and records under a steady stream of events.
 */
const GATHER_MS = 5;
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
    this.choreList = workerChores(ctx, this.log);
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
