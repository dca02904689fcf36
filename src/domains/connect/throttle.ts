import type { Config } from '../../config.ts';
import { SECOND } from '../../core/clock.ts';
import { Refusal, rateLimited } from '../../core/refusal.ts';
import type { Dialect, Executor } from '../../db/index.ts';
import { lockName } from '../../db/write-transaction.ts';
import * as store from './store.ts';

/**
 * The throttles of `POST /api/v2/connect/start` (docs/decisions.md, Connect). They count the attempts
 * table itself, an exact sliding log of what was admitted: a refused start inserts nothing, so it
 * neither sends a code nor counts against anyone.
 */
export interface StartScope {
  organizationId: string;
  clientId: string;
  livemode: number;
  /** Exactly one of the two is set: the lower-cased email or the E.164 phone. */
  email: string | null;
  phone: string | null;
}

type Rule = 'resend_cooldown' | 'destination' | 'client';

const messages: Record<Rule, string> = {
  resend_cooldown: 'A code was just sent to this destination; wait before sending another.',
  destination: 'Too many codes were sent to this destination; retry later.',
  client: 'Too many connect attempts from this client; retry later.',
};

/**
 * The common `rate_limited` refusal (core/refusal.ts `rateLimited`: 429 with `Retry-After`), with
 * `rule` naming the throttle for the log.
 */
export class StartThrottled extends Refusal<'rate_limited'> {
  constructor(
    readonly rule: Rule,
    readonly retryAfterSeconds: number,
  ) {
    const { extra } = rateLimited(messages[rule], retryAfterSeconds);
    super('rate_limited', messages[rule], { extra });
  }
}

/**
 * Serializes starts for the same destination and for the same client between the check and the
 * insert. PostgreSQL: transaction-scoped advisory locks, taken in a fixed order so two starts never
 * wait on each other crosswise. SQLite runs one write transaction at a time anyway.
 */
export async function lockStartScope(trx: Executor, dialect: Dialect, scope: StartScope): Promise<void> {
  if (dialect !== 'postgres') return;
  const keys = [
    `connect:dest:${scope.organizationId}:${scope.livemode}:${scope.email ?? scope.phone}`,
    `connect:client:${scope.clientId}`,
  ].sort();
  for (const key of keys) await lockName(trx, dialect, key);
}

/**
 * Throws StartThrottled when a throttle refuses; the longest wait wins, so one retry suffices.
 * `perDestination` off leaves only the client's budget (codes that reach no real inbox).
 */
export async function checkStartThrottles(
  trx: Executor,
  rules: Config['connectRateLimit'],
  scope: StartScope,
  now: number,
  { perDestination }: { perDestination: boolean },
): Promise<void> {
  const waits: [Rule, number][] = [];
  if (perDestination) waits.push(...(await destinationWaits(trx, rules, scope, now)));

  const clientMs = rules.clientWindowSeconds * SECOND;
  const byClient = await store.attemptTimesBy(trx, scope.clientId, now - clientMs, rules.clientMax);
  if (byClient.length >= rules.clientMax) {
    waits.push(['client', byClient[rules.clientMax - 1]! + clientMs - now]);
  }

  if (waits.length === 0) return;
  const [rule, waitMs] = waits.reduce((longest, wait) => (wait[1] > longest[1] ? wait : longest));
  throw new StartThrottled(rule, Math.max(1, Math.ceil(waitMs / SECOND)));
}

/** The waits the destination's own throttles ask for: its resend cooldown and its cap. */
async function destinationWaits(
  trx: Executor,
  rules: Config['connectRateLimit'],
  scope: StartScope,
  now: number,
): Promise<[Rule, number][]> {
  const waits: [Rule, number][] = [];

  // Resend cooldown: only while the last attempt to this destination is still open (pending). A
  // verified one lets the user reconnect at once.
  const cooldownMs = rules.resendCooldownSeconds * SECOND;
  const latest = await store.latestAttemptTo(trx, scope);
  if (latest?.status === 'pending' && latest.expires_at > now && now - latest.created_at < cooldownMs) {
    waits.push(['resend_cooldown', latest.created_at + cooldownMs - now]);
  }

  const destinationMs = rules.destinationWindowSeconds * SECOND;
  const toDestination = await store.attemptTimesTo(trx, scope, now - destinationMs, rules.destinationMax);
  if (toDestination.length >= rules.destinationMax) {
    waits.push(['destination', toDestination[rules.destinationMax - 1]! + destinationMs - now]);
  }
  return waits;
}

/** For logs: enough to tell destinations apart, not enough to contact one. */
export function maskDestination(scope: Pick<StartScope, 'email' | 'phone'>): string {
  if (scope.email !== null) {
    const at = scope.email.lastIndexOf('@');
    return `${scope.email.slice(0, 1)}***${scope.email.slice(at)}`;
  }
  const phone = scope.phone ?? '';
  return `${phone.slice(0, 2)}${'*'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-2)}`;
}
