/**
 * The rail money moves on between a company pool and a user's wallet (issue 12). `offline` is the
 * sandbox's and the default: no chain, every transfer confirms at once with `tx_hash: null` (spec §6
 * `transfer.initiated`). `evm` (evm.ts: a USDC-style ERC-20 through viem) moves production money on
 * an EVM chain and watches it for deposits; sandbox stays offline there too.
 */
interface ChainTransferOf {
  /** The idempotency key of the submission: a card flow's transfer id, or a return's attempt id. */
  transferId: string;
  organizationId: string;
  livemode: boolean;
  userId: string;
  amountCents: number;
}

/**
 * Tokens moving between an organization's pool and a user's deposit address: a company-funded card
 * flow pays the user (`to_user`); company money a card releases goes back (`to_pool`, funding/returns.ts).
 */
export type ChainTransfer =
  | (ChainTransferOf & { direction: 'to_user' })
  | (ChainTransferOf & {
      direction: 'to_pool';
      /** The release this return carries: every attempt of one release carries the same authorization. */
      releaseId: string;
    });

export type ChainTransferStatus =
  | { state: 'confirmed' }
  | { state: 'pending' }
  /** Reverted, or never confirmed: the flow fails with `transfer_failed`. */
  | { state: 'failed'; detail: string };

/** A stablecoin transfer to one of Purser's addresses, at the configured depth: credited once. */
export interface ChainDeposit {
  chainId: number;
  txHash: string;
  logIndex: number;
  blockNumber: number;
  /** The deposit address (lower-case hex) and whose it is. */
  address: string;
  from: string;
  organizationId: string;
  livemode: boolean;
  kind: 'pool' | 'user';
  /** The organization (a pool) or the user (a user's deposit address). */
  ownerId: string;
  /** What arrived, in token units. */
  units: bigint;
  /** What it credits: whole cents, rounded down (units.ts). */
  cents: number;
}

export interface Chain {
  readonly name: 'offline' | 'evm';
  /** Whether this mode's money sits on the chain (evm, production): what moves in the books moves there too. */
  movesTokens(livemode: boolean): boolean;
  /** Where deposits to the company pool go; null offline (funding is simulated). */
  depositAddress(organizationId: string, livemode: boolean): Promise<string | null>;
  /** Where a user's own deposits go; null offline. */
  userDepositAddress(organizationId: string, livemode: boolean, userId: string): Promise<string | null>;
  /**
   * Submits the transfer (the pool signs and pays the gas either way). Must be idempotent by
   * `transferId`: the worker may die after submitting and before recording, and submit again.
   */
  submit(transfer: ChainTransfer): Promise<{ txHash: string | null }>;
  /** Where the submitted transfer stands. */
  status(transfer: ChainTransfer, txHash: string | null): Promise<ChainTransferStatus>;
  /**
   * Hands each deposit that reached the configured depth since the last call to `credit`, in chain
   * order, then remembers how far it read (a persisted cursor). `credit` must be idempotent by
   * (transaction hash, log index): a pass cut short reads the same blocks again. How many were handed over.
   */
  watchDeposits(credit: (deposit: ChainDeposit) => Promise<void>): Promise<number>;
}

/**
 * No chain: sandbox funding is simulated and transfers are ledger moves only. `fail` lets a test
 * play the part of a chain that reverts a transfer (the outside world, not our code).
 */
export class OfflineChain implements Chain {
  readonly name = 'offline' as const;
  private readonly reverting = new Set<string>();

  movesTokens(): boolean {
    return false;
  }

  async depositAddress(): Promise<null> {
    return null;
  }

  async userDepositAddress(): Promise<null> {
    return null;
  }

  async watchDeposits(): Promise<number> {
    return 0;
  }

  async submit(): Promise<{ txHash: null }> {
    return { txHash: null };
  }

  async status(transfer: ChainTransfer): Promise<ChainTransferStatus> {
    if (this.reverting.has(transfer.transferId)) return { state: 'failed', detail: 'reverted' };
    return { state: 'confirmed' };
  }

  /** Makes this transfer revert (tests of `transfer_failed`). */
  fail(transferId: string): void {
    this.reverting.add(transferId);
  }
}
