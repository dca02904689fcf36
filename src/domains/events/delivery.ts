import { randomInt } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { destinationPolicy, type OutboundConfig } from '../../core/http/policy.ts';
import { DestinationRefused, resolveDestination } from '../../core/http/ssrf.ts';
import { newId, randomToken } from '../../core/ids.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode } from '../../core/tenant.ts';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { WebhookConfig } from './config.ts';
import * as store from './delivery-store.ts';
import { postWebhook, type SendResult } from './sender.ts';
import {
  ATTEMPT_HEADER,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  envelopeJson,
  signedHeaders,
} from './signing.ts';
import { cancelPending } from './store.ts';

export type ClaimedDelivery = store.DeliveryToMake;

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'cancelled' | 'lost';

/**
 * Makes delivery attempts: claims due deliveries under a lease, POSTs each signed envelope and
 * records the outcome. Used by the worker loop (src/jobs/worker.ts).
 */
export class DeliveryRunner {
  private readonly secrets = new Map<string, string>();
  private readonly queue: PendingRecord[] = [];
  private flushScheduled = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    private readonly config: WebhookConfig,
    private readonly outbound: OutboundConfig,
    private readonly sealer: Sealer,
    private readonly onDisabled: (endpointId: string) => Promise<void>,
    private readonly onRefused: (delivery: ClaimedDelivery, reason: string) => void = () => {},
  ) {}

  /** Attempts allowed per delivery: the first plus one per retry of the schedule (spec §8: 5). */
  get maxAttempts(): number {
    return this.config.retryScheduleSeconds.length + 1;
  }

  /**
   * Claims up to `limit` due deliveries for this worker's lease, each for its next attempt, and
   * reads what the attempts need in the same transaction (on SQLite its statements run straight on
   * the held connection). An attempt a crashed worker left unsettled is recorded in it too, as
   * interrupted, under its own number: the delivery log shows it, and the resend is the next attempt.
   */
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    return writeTransaction({ db: this.db, dialect: this.dialect }, async (trx) => {
      const rows = await store.claimDue(trx, this.dialect, {
        now,
        leaseUntil: now + this.config.leaseMs,
        leaseToken: randomToken(12),
        limit,
      });
      if (rows.length === 0) return [];
      const interrupted = rows.filter((row) => row.interrupted_at !== null);
      if (interrupted.length > 0)
        await store.insertAttempts(
          trx,
          interrupted.map((row) => store.interruptedAttempt(row, newId('wha'))),
        );
      return store.loadForDelivery(
        trx,
        rows.map((row) => row.id),
      );
    });
  }

  /** One attempt of one claimed delivery, recorded. Never throws for a receiver's failure. */
  async attempt(delivery: ClaimedDelivery, onSent: () => void = () => {}): Promise<AttemptOutcome> {
    const leaseToken = delivery.lease_token!;
    // The claim counted this attempt.
    const attemptNumber = delivery.attempts;
    if (delivery.endpoint_id === null || delivery.endpoint_status !== 'active') {
      onSent();
      await store.cancelDelivery(this.db, delivery.id, leaseToken, {
        now: this.clock.now(),
        reason: 'endpoint disabled or deleted',
        attempts: attemptNumber - 1,
      });
      return 'cancelled';
    }
    if (attemptNumber > this.maxAttempts) {
      // The last attempt allowed was interrupted (recorded by the claim): nothing is sent again.
      onSent();
      const now = this.clock.now();
      await store.settleDelivery(this.db, delivery.id, leaseToken, {
        status: 'failed',
        attempts: this.maxAttempts,
        next_attempt_at: now,
        last_error: 'the last attempt was interrupted; its outcome is unknown',
        updated_at: now,
        completed_at: now,
      });
      return 'failed';
    }
    const attemptedAt = this.clock.now();
    let result: SendResult;
    try {
      result = await this.send(delivery, attemptNumber);
    } finally {
      // The exchange with the receiver is over: the caller may start another while this one is recorded.
      onSent();
    }
    return this.record({ delivery, leaseToken, attemptNumber, attemptedAt, result });
  }

  private async send(delivery: ClaimedDelivery, attemptNumber: number): Promise<SendResult> {
    const started = performance.now();
    try {
      const url = new URL(delivery.url!);
      const destination = await resolveDestination(
        url,
        destinationPolicy(this.outbound, isLivemode(delivery.livemode)),
        this.outbound.resolveHost,
      );
      const body = envelopeJson({
        id: delivery.event_id,
        type: delivery.event_type,
        created_at: delivery.event_created_at,
        livemode: delivery.livemode,
        data: delivery.event_data,
      });
      const timestamp = Math.floor(this.clock.now() / 1000);
      // Added to the signature's object, not spread into a new one: V8 adds keys to a spread copy
      // slowly (about a microsecond each time).
      const headers = Object.assign(
        signedHeaders(
          delivery.signature_scheme!,
          this.secretOf(delivery),
          { id: delivery.event_id, body },
          timestamp,
        ),
        {
          [EVENT_ID_HEADER]: delivery.event_id,
          [DELIVERY_ID_HEADER]: delivery.id,
          [ATTEMPT_HEADER]: String(attemptNumber),
        },
      );
      // From a private address (allowed in sandbox for local development) the answer's body is never
      // kept: the delivery log would let a sandbox user read internal services (issue 8).
      const keepBody = destination.kind === 'public';
      return await postWebhook(url, destination, headers, body, this.config.timeoutMs, keepBody);
    } catch (error) {
      if (error instanceof DestinationRefused) this.onRefused(delivery, error.message);
      const message =
        error instanceof DestinationRefused
          ? `destination refused: ${error.message}`
          : `error: ${(error as Error).message}`;
      return {
        ok: false,
        statusCode: null,
        excerpt: null,
        durationMs: Math.round(performance.now() - started),
        error: message,
      };
    }
  }

  /** Opened once per sealed value: the ciphertext changes when the secret is rolled. */
  private secretOf(delivery: ClaimedDelivery): string {
    const sealed = delivery.secret_ciphertext!;
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      secret = this.sealer.open(sealed, delivery.endpoint_id!);
      if (this.secrets.size > 10_000) this.secrets.clear();
      this.secrets.set(sealed, secret);
    }
    return secret;
  }

  /** The wait before retry number `retry` (1-based), moved by the configured jitter. */
  backoffMs(retry: number): number {
    const schedule = this.config.retryScheduleSeconds;
    const base = (schedule[Math.min(retry, schedule.length) - 1] ?? 0) * 1000;
    const spread = (base * this.config.retryJitterPercent) / 100;
    return Math.max(0, Math.round(base + (spread > 0 ? randomInt(-1000, 1001) / 1000 : 0) * spread));
  }

  /**
   * Group commit: outcomes that arrive together are recorded in one transaction, in id order (a
   * stable lock order on PostgreSQL). One transaction per attempt would make the database, not
   * the receivers, the limit of a worker.
   */
  private record(attempt: Omit<PendingRecord, 'resolve' | 'reject'>): Promise<AttemptOutcome> {
    return new Promise((resolve, reject) => {
      const { delivery, leaseToken, attemptNumber, attemptedAt, result } = attempt;
      this.queue.push({ delivery, leaseToken, attemptNumber, attemptedAt, result, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => {
          this.flushing = this.flushing.then(() => this.flush());
        });
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.queue.splice(0).sort((a, b) => (a.delivery.id < b.delivery.id ? -1 : 1));
    if (batch.length === 0) return;
    const disabled: string[] = [];
    try {
      // A write transaction: on SQLite it shares its commit with those running (group commit).
      const outcomes = await writeTransaction({ db: this.db, dialect: this.dialect }, (trx) =>
        this.recordBatch(trx, batch, disabled),
      );
      for (const [i, item] of batch.entries()) item.resolve(outcomes[i]!);
    } catch (error) {
      // Nothing of the batch was recorded: the leases end and the deliveries are attempted again.
      for (const item of batch) item.reject(error);
    }
    for (const endpointId of disabled) {
      await this.onDisabled(endpointId).catch(() => {});
    }
  }

  private async recordBatch(
    trx: Executor,
    batch: PendingRecord[],
    disabled: string[],
  ): Promise<AttemptOutcome[]> {
    const now = this.clock.now();
    const outcomes: AttemptOutcome[] = [];
    const attempts: store.AttemptRecord[] = [];
    /** Per endpoint, in order: whether each recorded attempt succeeded. */
    const results = new Map<string, boolean[]>();
    // Successes sharing a lease, attempt number and status code settle in one statement.
    const groups = new Map<string, PendingRecord[]>();
    for (const item of batch) {
      if (!item.result.ok) continue;
      const key = `${item.leaseToken} ${item.attemptNumber} ${item.result.statusCode}`;
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
    const settledOk = new Set<string>();
    for (const items of groups.values()) {
      const first = items[0]!;
      const settled = await store.settleSucceeded(
        trx,
        items.map((item) => item.delivery.id),
        first.leaseToken,
        { attempts: first.attemptNumber, statusCode: first.result.statusCode!, now },
      );
      for (const id of settled) settledOk.add(id);
    }
    for (const { delivery, leaseToken, attemptNumber, attemptedAt, result } of batch) {
      const final = result.ok || attemptNumber >= this.maxAttempts;
      const settled = result.ok
        ? settledOk.has(delivery.id)
        : await store.settleDelivery(trx, delivery.id, leaseToken, {
            status: final ? 'failed' : 'pending',
            attempts: attemptNumber,
            next_attempt_at: final ? now : now + this.backoffMs(attemptNumber),
            last_status_code: result.statusCode,
            last_error: result.error ?? `HTTP ${result.statusCode}`,
            updated_at: now,
            completed_at: final ? now : null,
          });
      // Our lease ran out and another worker holds the delivery now: its record will count.
      if (!settled) {
        outcomes.push('lost');
        continue;
      }
      attempts.push([
        newId('wha'),
        delivery.id,
        attemptNumber,
        attemptedAt,
        result.statusCode,
        result.durationMs,
        result.error,
        result.excerpt,
        result.ok ? 1 : 0,
        0,
      ]);
      const endpointId = delivery.endpoint_id!;
      const endpointResults = results.get(endpointId);
      if (endpointResults) endpointResults.push(result.ok);
      else results.set(endpointId, [result.ok]);
      outcomes.push(result.ok ? 'succeeded' : final ? 'failed' : 'retrying');
    }
    await store.insertAttempts(trx, attempts);
    for (const endpointId of [...results.keys()].sort()) {
      const oks = results.get(endpointId)!;
      const lastSuccess = oks.lastIndexOf(true);
      if (lastSuccess >= 0) await store.markEndpointHealthy(trx, endpointId, now);
      const failuresAfter = oks.length - 1 - lastSuccess;
      if (failuresAfter === 0) continue;
      const endpoint = await store.markEndpointFailing(trx, endpointId, now, failuresAfter);
      // Spec §3: every delivery failing for 7 consecutive days disables the endpoint.
      if (
        endpoint?.status === 'active' &&
        endpoint.failing_since !== null &&
        now - endpoint.failing_since >= this.config.disableAfterMs &&
        (await store.disableEndpoint(trx, endpointId, now))
      ) {
        await cancelPending(trx, endpointId, now, 'endpoint disabled after repeated failures');
        disabled.push(endpointId);
      }
    }
    return outcomes;
  }
}

interface PendingRecord {
  delivery: ClaimedDelivery;
  leaseToken: string;
  attemptNumber: number;
  /** When the attempt began (the delivery log's `attempted_at`). */
  attemptedAt: number;
  result: SendResult;
  resolve(outcome: AttemptOutcome): void;
  reject(error: unknown): void;
}
