import { SECOND } from '../../core/clock.ts';
import { type Env, integer, optional } from '../../core/env.ts';
import { loadPurchaseEngineConfig, type PurchaseEngineConfig } from './engine/config.ts';

export interface PurchaseConfig {
  /** How long a cart's price holds (its `expires_at`); default 30 minutes. */
  cartTtlMs: number;
  /** A turn older than this is taken to have died with its process, and its lock is taken over. */
  turnTimeoutMs: number;
  /**
   * How long a confirm may run before the worker takes its order over: an order still unsettled
   * this long after its last step is resolved from what the merchant says (docs/purchases.md).
   */
  confirmGraceMs: number;
  /** How often the worker asks a merchant that did not answer again. */
  resolveRetryMs: number;
  /** Past this age an order the merchant never answered for is voided and refunded. */
  resolveWithinMs: number;
  /** How long a confirm paused for the user's approval waits (`CHECKOUT_APPROVAL_TTL_SECONDS`). */
  approvalTtlMs: number;
  /** Fault injection for the crash tests (`PURSER_FAILPOINT=purchases.<step>`). Never in production. */
  failpoint: string | null;
  /** Which engine understands asks (`PURCHASE_ENGINE`; engine/config.ts). */
  engine: PurchaseEngineConfig;
}

export function loadPurchaseConfig(env: Env): PurchaseConfig {
  return {
    cartTtlMs: integer(env, 'PURCHASE_CART_TTL_SECONDS', 30 * 60, 60, 24 * 3600) * SECOND,
    turnTimeoutMs: integer(env, 'PURCHASE_TURN_TIMEOUT_SECONDS', 2 * 60, 1, 3600) * SECOND,
    confirmGraceMs: integer(env, 'PURCHASE_CONFIRM_GRACE_SECONDS', 2 * 60, 1, 3600) * SECOND,
    resolveRetryMs: integer(env, 'PURCHASE_RESOLVE_RETRY_SECONDS', 30, 1, 3600) * SECOND,
    resolveWithinMs: integer(env, 'PURCHASE_RESOLVE_WITHIN_SECONDS', 15 * 60, 60, 7 * 24 * 3600) * SECOND,
    approvalTtlMs: integer(env, 'CHECKOUT_APPROVAL_TTL_SECONDS', 15 * 60, 60, 24 * 3600) * SECOND,
    failpoint: optional(env, 'PURSER_FAILPOINT'),
    engine: loadPurchaseEngineConfig(env),
  };
}
