import { isIP } from 'node:net';
import { SECOND } from '../../core/clock.ts';
import { ConfigError, type Env, integer, optional } from '../../core/env.ts';

/** Lithic, the production issuer: where its API is, and the secrets it and Purser share. */
export interface LithicConfig {
  /** Never logged. */
  apiKey: string;
  /** `https`, or `http` only for a loopback host (a local fake in tests). */
  baseUrl: string;
  /**
   * The Standard Webhooks secrets (`whsec_…`) Lithic signs with: one for Auth Stream Access
   * (`GET /v1/auth_stream/secret`), one per event subscription (`GET /v1/event_subscriptions/{token}/secret`).
   * Never logged.
   */
  asaSecret: string;
  eventsSecret: string;
  /** How often the worker compares Lithic's transactions with the books (`purser issuer reconcile`). */
  reconcileIntervalMs: number;
  /** An Auth Stream Access decision must be answered within this; past it, a decline (fail closed). */
  asaBudgetMs: number;
  /** Of that budget, what the engine keeps for its own transactions when the platform decides too. */
  asaPlatformMarginMs: number;
}

export interface CardConfig {
  /** Smallest and largest `amount_cents` a card may be issued with (and a spend limit may reach). */
  minAmountCents: number;
  maxAmountCents: number;
  /** An authorization never cleared is voided by the worker after this many days. */
  authorizationExpiryDays: number;
  /** Interchange earned on a settled charge, in basis points: the organization's reward pool. */
  interchangeBps: number;
  /**
   * Who issues production cards: `sandbox` (the built-in network, no real cards) or `lithic`.
   * Test-mode cards always use the built-in network.
   */
  issuer: 'sandbox' | 'lithic';
  lithic: LithicConfig | null;
}

export function loadCardConfig(env: Env): CardConfig {
  const minAmountCents = integer(env, 'CARD_MIN_AMOUNT_CENTS', 1, 1, Number.MAX_SAFE_INTEGER);
  const issuer = optional(env, 'CARD_ISSUER') ?? 'sandbox';
  if (issuer !== 'sandbox' && issuer !== 'lithic') {
    throw new ConfigError(`CARD_ISSUER must be sandbox or lithic, got "${issuer}"`);
  }
  return {
    minAmountCents,
    maxAmountCents: integer(env, 'CARD_MAX_AMOUNT_CENTS', 50_000, minAmountCents, Number.MAX_SAFE_INTEGER),
    authorizationExpiryDays: integer(env, 'CARD_AUTHORIZATION_EXPIRY_DAYS', 7, 1, 90),
    interchangeBps: integer(env, 'INTERCHANGE_BPS', 100, 0, 10_000),
    issuer,
    lithic: issuer === 'lithic' ? loadLithicConfig(env) : null,
  };
}

function loadLithicConfig(env: Env): LithicConfig {
  const required = (name: string) => {
    const value = optional(env, name);
    if (!value) throw new ConfigError(`${name} is required when CARD_ISSUER=lithic`);
    return value;
  };
  const baseUrl = required('LITHIC_BASE_URL');
  if (!URL.canParse(baseUrl))
    throw new ConfigError(`LITHIC_BASE_URL must be an absolute URL, got "${baseUrl}"`);
  const url = new URL(baseUrl);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)))) {
    throw new ConfigError('LITHIC_BASE_URL must use https (http is allowed only for loopback hosts)');
  }
  // One secret cannot verify both routes: Lithic signs each with its own (docs/cards.md, Lithic).
  if (optional(env, 'LITHIC_WEBHOOK_SECRET') !== null) {
    throw new ConfigError(
      'LITHIC_WEBHOOK_SECRET is replaced by LITHIC_ASA_SECRET and LITHIC_EVENTS_SECRET: Lithic signs Auth Stream Access and events with two secrets',
    );
  }
  // Lithic's own ASA timeout is a few seconds: the default leaves it room for the network.
  const asaBudgetMs = integer(env, 'LITHIC_ASA_BUDGET_MS', 1_500, 100, 60_000);
  return {
    apiKey: required('LITHIC_API_KEY'),
    baseUrl: url.toString().replace(/\/$/, ''),
    asaSecret: standardWebhooksSecret(required('LITHIC_ASA_SECRET'), 'LITHIC_ASA_SECRET'),
    eventsSecret: standardWebhooksSecret(required('LITHIC_EVENTS_SECRET'), 'LITHIC_EVENTS_SECRET'),
    reconcileIntervalMs: integer(env, 'ISSUER_RECONCILE_INTERVAL_SECONDS', 86_400, 60, 7 * 86_400) * SECOND,
    asaBudgetMs,
    asaPlatformMarginMs: integer(env, 'LITHIC_ASA_PLATFORM_MARGIN_MS', 300, 50, asaBudgetMs - 50),
  };
}

/** A `whsec_` + base64 secret of at least 16 bytes. Its value never appears in a message (the log). */
function standardWebhooksSecret(secret: string, name: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  if (key.length < 16 || !/^(whsec_)?[A-Za-z0-9+/]+={0,2}$/.test(secret)) {
    throw new ConfigError(`${name} must be a Standard Webhooks secret (whsec_ and base64)`);
  }
  return secret;
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}
