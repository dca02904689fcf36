import { type Env, integer } from '../../core/env.ts';

export interface CardConfig {
  /** Smallest and largest `amount_cents` a card may be issued with (and a spend limit may reach). */
  minAmountCents: number;
  maxAmountCents: number;
  /** An authorization never cleared is voided by the worker after this many days. */
  authorizationExpiryDays: number;
  /** Interchange earned on a settled charge, in basis points: the organization's reward pool. */
  interchangeBps: number;
}

export function loadCardConfig(env: Env): CardConfig {
  const minAmountCents = integer(env, 'CARD_MIN_AMOUNT_CENTS', 1, 1, Number.MAX_SAFE_INTEGER);
  return {
    minAmountCents,
    maxAmountCents: integer(env, 'CARD_MAX_AMOUNT_CENTS', 50_000, minAmountCents, Number.MAX_SAFE_INTEGER),
    authorizationExpiryDays: integer(env, 'CARD_AUTHORIZATION_EXPIRY_DAYS', 7, 1, 90),
    interchangeBps: integer(env, 'INTERCHANGE_BPS', 100, 0, 10_000),
  };
}
