import { MINUTE, SECOND } from '../../core/clock.ts';
import { ConfigError, type Env, integer, optional } from '../../core/env.ts';

export interface FundingConfig {
  /** The rail: only `offline` so far (the EVM adapter comes next). */
  chain: 'offline';
  /** How long an `ack_required` flow waits for `collection_succeeded` (spec §4). */
  ackDeadlineMs: number;
  /** A new company wallet's `low_balance_threshold_cents`. */
  lowBalanceThresholdCents: number;
  /** A new company wallet's fee on company-funded transfers: basis points plus fixed cents. */
  feeBps: number;
  feeFixedCents: number;
  /** How often the worker advances card flows. */
  pollIntervalMs: number;
  /**
   * Fault injection for the crash tests (`PURSER_FAILPOINT=funding.<step>`): the process kills
   * itself with SIGKILL inside that step's transaction, before it commits. Never set in production.
   */
  failpoint: string | null;
}

export function loadFundingConfig(env: Env): FundingConfig {
  const chain = optional(env, 'CHAIN') ?? 'offline';
  if (chain !== 'offline')
    throw new ConfigError(`CHAIN must be offline (the EVM chain is not built yet), got "${chain}"`);
  return {
    chain,
    ackDeadlineMs: integer(env, 'FUNDING_ACK_DEADLINE_SECONDS', 15 * 60, 1, 7 * 24 * 3600) * SECOND,
    lowBalanceThresholdCents: integer(env, 'WALLET_LOW_BALANCE_THRESHOLD_CENTS', 1000, 0),
    feeBps: integer(env, 'FUNDING_FEE_BPS', 0, 0, 10_000),
    feeFixedCents: integer(env, 'FUNDING_FEE_FIXED_CENTS', 0, 0),
    pollIntervalMs: integer(env, 'FUNDING_POLL_INTERVAL_MS', SECOND, 1, 10 * MINUTE),
    failpoint: optional(env, 'PURSER_FAILPOINT'),
  };
}
