/** Event type names: dot-separated lowercase segments, e.g. `card.created`, `wallet.balance.low`. */
export const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** A subscription: an exact type, `*` (everything), or a prefix ending in `.*` (`card.*`). */
export const SUBSCRIPTION = /^(\*|[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*(\.\*)?)$/;

export function isEventType(value: string): boolean {
  return value.length <= 100 && EVENT_TYPE.test(value);
}

export function isSubscription(value: string): boolean {
  return value.length <= 100 && SUBSCRIPTION.test(value);
}

/**
 * Does `type` fall under one of `patterns`? A prefix matches every type below it at any depth
 * (`wallet.*` matches `wallet.balance.low`), so types added later reach it without change.
 */
export function matchesSubscription(patterns: readonly string[], type: string): boolean {
  for (const pattern of patterns) {
    if (pattern === '*' || pattern === type) return true;
    if (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))) return true;
  }
  return false;
}
