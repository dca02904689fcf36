import { MINUTE, SECOND } from '../../core/clock.ts';
import { ConfigError, type Env, integer, optional } from '../../core/env.ts';

/** The EVM rail (`CHAIN=evm`): where the stablecoin lives and the secret the pool signers derive from. */
export interface EvmChainConfig {
  /** The JSON-RPC endpoint: chosen by the operator, so a trusted destination (docs/funding.md). */
  rpcUrl: string;
  chainId: number;
  /** The ERC-20 (USDC-style) contract, lower-case hex. */
  stablecoinAddress: `0x${string}`;
  /** The token's decimals (USDC: 6); a cent is 10^(decimals − 2) units. */
  decimals: number;
  /** A transfer counts as confirmed, and a deposit is credited, at this depth (1: in the head block). */
  confirmations: number;
  /**
   * The pool secret (32 bytes, hex): every organization's pool signer and every user's deposit
   * address is derived from it (chain/keys.ts). Only in the environment; never stored, never logged.
   */
  poolKey: `0x${string}`;
  /**
   * The pool secret before a rotation (`CHAIN_PREVIOUS_POOL_KEY`), read only by `purser chain
   * rotate-pool-key` (chain/rotate.ts), which moves what its addresses hold to the current key's.
   */
  previousPoolKey: `0x${string}` | null;
  /**
   * A transfer not mined this long after it was signed is cancelled: a replacement at its nonce is
   * sent, and once that is mined the flow fails with `transfer_failed` ("never confirms").
   */
  transferTimeoutMs: number;
  /** Where deposit watching starts on an empty cursor; null: at the chain's current head. */
  startBlock: number | null;
  /** How many blocks one `eth_getLogs` call covers at most. */
  logRange: number;
}

export interface FundingConfig {
  /** The rail: `offline` (no chain) or `evm` (production mode on an EVM chain; sandbox stays offline). */
  chain: 'offline' | 'evm';
  /** Set when `chain` is `evm`. */
  evm: EvmChainConfig | null;
  /** How long an `ack_required` flow waits for `collection_succeeded` (spec §4). */
  ackDeadlineMs: number;
  /** A new company wallet's `low_balance_threshold_cents`. */
  lowBalanceThresholdCents: number;
  /** A new company wallet's fee on company-funded transfers: basis points plus fixed cents. */
  feeBps: number;
  feeFixedCents: number;
  /** How often the worker advances card flows (and looks for new deposits on the chain). */
  pollIntervalMs: number;
  /** How often the worker compares every address on the chain with the books (`chain reconcile`). */
  reconcileIntervalMs: number;
  /**
   * Fault injection for the crash tests (`PURSER_FAILPOINT=funding.<step>`): the process kills
   * itself with SIGKILL inside that step's transaction, before it commits. Never set in production.
   */
  failpoint: string | null;
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_KEY = /^0x[0-9a-fA-F]{64}$/;

function required(env: Env, name: string): string {
  const value = optional(env, name);
  if (value === null) throw new ConfigError(`${name} is required with CHAIN=evm`);
  return value;
}

export function loadEvmConfig(env: Env): EvmChainConfig {
  const rpcUrl = required(env, 'CHAIN_RPC_URL');
  let parsed: URL;
  try {
    parsed = new URL(rpcUrl);
  } catch {
    // The value may carry a provider's API key: the message does not repeat it.
    throw new ConfigError('CHAIN_RPC_URL must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError('CHAIN_RPC_URL must be an absolute http(s) URL');
  const stablecoin = required(env, 'STABLECOIN_ADDRESS');
  if (!HEX_ADDRESS.test(stablecoin))
    throw new ConfigError(
      `STABLECOIN_ADDRESS must be a 0x-prefixed 20-byte hex address, got "${stablecoin}"`,
    );
  const poolKey = required(env, 'CHAIN_POOL_KEY');
  // Never echo the key, not even in an error.
  if (!HEX_KEY.test(poolKey)) throw new ConfigError('CHAIN_POOL_KEY must be 32 bytes of 0x-prefixed hex');
  const previousPoolKey = optional(env, 'CHAIN_PREVIOUS_POOL_KEY');
  if (previousPoolKey !== null && !HEX_KEY.test(previousPoolKey))
    throw new ConfigError('CHAIN_PREVIOUS_POOL_KEY must be 32 bytes of 0x-prefixed hex');
  if (optional(env, 'CHAIN_ID') === null) throw new ConfigError('CHAIN_ID is required with CHAIN=evm');
  const start = optional(env, 'CHAIN_START_BLOCK');
  return {
    rpcUrl,
    chainId: integer(env, 'CHAIN_ID', 0, 1),
    stablecoinAddress: stablecoin.toLowerCase() as `0x${string}`,
    decimals: integer(env, 'STABLECOIN_DECIMALS', 6, 2, 36),
    confirmations: integer(env, 'CHAIN_CONFIRMATIONS', 1, 1, 1000),
    poolKey: poolKey.toLowerCase() as `0x${string}`,
    previousPoolKey: previousPoolKey === null ? null : (previousPoolKey.toLowerCase() as `0x${string}`),
    transferTimeoutMs: integer(env, 'CHAIN_TRANSFER_TIMEOUT_SECONDS', 1800, 60, 7 * 24 * 3600) * SECOND,
    startBlock: start === null ? null : integer(env, 'CHAIN_START_BLOCK', 0, 0),
    logRange: integer(env, 'CHAIN_LOG_RANGE', 1000, 1, 100_000),
  };
}

export function loadFundingConfig(env: Env): FundingConfig {
  const chain = optional(env, 'CHAIN') ?? 'offline';
  if (chain !== 'offline' && chain !== 'evm')
    throw new ConfigError(`CHAIN must be offline or evm, got "${chain}"`);
  return {
    chain,
    evm: chain === 'evm' ? loadEvmConfig(env) : null,
    ackDeadlineMs: integer(env, 'FUNDING_ACK_DEADLINE_SECONDS', 15 * 60, 1, 7 * 24 * 3600) * SECOND,
    lowBalanceThresholdCents: integer(env, 'WALLET_LOW_BALANCE_THRESHOLD_CENTS', 1000, 0),
    feeBps: integer(env, 'FUNDING_FEE_BPS', 0, 0, 10_000),
    feeFixedCents: integer(env, 'FUNDING_FEE_FIXED_CENTS', 0, 0),
    pollIntervalMs: integer(env, 'FUNDING_POLL_INTERVAL_MS', SECOND, 1, 10 * MINUTE),
    reconcileIntervalMs: integer(env, 'CHAIN_RECONCILE_INTERVAL_SECONDS', 300, 1, 24 * 3600) * SECOND,
    failpoint: optional(env, 'PURSER_FAILPOINT'),
  };
}
