import { ConfigError, type Env, integer } from '../../core/env.ts';
/**
 * Webhook delivery settings (`WEBHOOK_*`, `EVENT_RETENTION_DAYS`); docs/operations.md lists them. Where a
 * destination may be is the outbound policy's (core/http/policy.ts), shared by every outbound call.
 */
export interface WebhookConfig {
  /** Seconds to wait before each retry; attempts = retries + 1 (spec §8: 5). */
  retryScheduleSeconds: number[];
  /** Each wait is moved by up to ± this percentage, so failed endpoints are not retried in lockstep. */
  retryJitterPercent: number;
  /** Spec §8: a delivery that has no answer after 10 seconds has failed. */
  timeoutMs: number;
  /** How long a claimed delivery stays with its worker; a worker that dies loses it after this. */
  leaseMs: number;
  /** How often an idle worker looks for due deliveries. */
  pollIntervalMs: number;
  /** Deliveries in flight per worker process. */
  concurrency: number;
  /** Spec §3: an endpoint failing every delivery for this long is disabled. */
  disableAfterMs: number;
  /** Events (and their delivery logs) are kept this many days, at least 30. */
  eventRetentionDays: number;
}

export function loadWebhookConfig(env: Env): WebhookConfig {
  const rawSchedule = env.WEBHOOK_RETRY_SCHEDULE || '60,300,1800,3600';
  const retryScheduleSeconds = rawSchedule.split(',').map((part) => Number(part.trim()));
  if (
    retryScheduleSeconds.length > 20 ||
    retryScheduleSeconds.some((s) => !Number.isFinite(s) || s < 0 || s > 7 * 86_400)
  ) {
    throw new ConfigError(
      `WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds between retries, got "${rawSchedule}"`,
    );
  }
  const timeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000);
  const leaseMs = integer(env, 'WEBHOOK_LEASE_MS', 60_000, 1_000);
  if (leaseMs <= timeoutMs) throw new ConfigError('WEBHOOK_LEASE_MS must be longer than WEBHOOK_TIMEOUT_MS');
  return {
    retryScheduleSeconds,
    retryJitterPercent: integer(env, 'WEBHOOK_RETRY_JITTER_PERCENT', 10, 0, 50),
    timeoutMs,
    leaseMs,
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 100, 10, 60_000),
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 32, 1, 1000),
    disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 7 * 24, 1) * 3_600_000,
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 30),
  };
}
