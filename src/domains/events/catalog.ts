/**
 * The event catalog: every event type Purser emits or will emit (spec §6 "Event catalog"), plus the
 * test event. Subscriptions and test events are checked against it, so a misspelt name is refused
 * instead of silently never matching. A feature that emits a new type adds it here.
 */
export const EVENT_TYPES = [
  'card.created',
  'card.updated',
  'card.closed',
  'cardholder.created',
  'cardholder.updated',
  'cardholder_onboarding_session.completed',
  'platform_connect_session.completed',
  'balance.low',
  'transaction.authorized',
  'transaction.cleared',
  'transaction.declined',
  'transaction.voided',
  'transaction.refunded',
  'merchant.connected',
  'reward.earned',
  'card_flow.started',
  'card_flow.failed',
  'transfer.approved',
  'transfer.initiated',
  'transfer.completed',
  'transfer.failed',
  'transfer.released',
  'wallet.funded',
  'wallet.balance.low',
  'identity.verification.updated',
  'order.placed',
  'order.confirmed',
  'order.updated',
  'checkout_authorization.approved',
  'checkout_authorization.declined',
  'checkout_authorization.expired',
  'passkey.reset',
  'mandate.approved',
  'mandate.revoked',
  'mandate.exhausted',
  'mandate.expired',
  'webhook_endpoint.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The only type a production test event may carry (spec §6 "Delivery" 5). */
export const TEST_EVENT_TYPE: EventType = 'webhook_endpoint.test';

const known = new Set<string>(EVENT_TYPES);

/** Every prefix that a `prefix.*` subscription may name: `card`, `wallet`, `wallet.balance`, ... */
const families = new Set<string>(
  EVENT_TYPES.flatMap((type) => {
    const segments = type.split('.');
    return segments.slice(1).map((_, i) => segments.slice(0, i + 1).join('.'));
  }),
);

export function isKnownEventType(type: string): boolean {
  return known.has(type);
}

/** `*`, a known type, or `family.*` for a known family. */
export function isKnownSubscription(pattern: string): boolean {
  if (pattern === '*' || known.has(pattern)) return true;
  return pattern.endsWith('.*') && families.has(pattern.slice(0, -2));
}

/** The known type or family pattern nearest to `name` by edit distance, to suggest in an error. */
export function closestKnown(name: string): string {
  const candidates = [...EVENT_TYPES, ...[...families].map((f) => `${f}.*`)];
  let best = candidates[0]!;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, one row at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
