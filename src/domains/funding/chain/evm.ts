import {
  BaseError,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbiItem,
  parseTransaction,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { Clock } from '../../../core/clock.ts';
import { livemodeColumn } from '../../../core/tenant.ts';
import type { DatabaseHandle, Executor } from '../../../db/index.ts';
import { writeTransaction } from '../../../db/write-transaction.ts';
import type { EvmChainConfig } from '../config.ts';
import { AUTHORIZATION_ABI, receiveWithAuthorization } from './authorization.ts';
import {
  type Chain,
  type ChainDeposit,
  type ChainTransfer,
  type ChainTransferStatus,
  OfflineChain,
} from './index.ts';
import { derivePrivateKey, type KeyOwner } from './keys.ts';
import { type PoolKeyRotation, rotatePoolKey } from './rotate.ts';
import type { ChainAddress, ChainTransferRow } from './store.ts';
import * as store from './store.ts';
import { centsFromUnits, unitsFromCents } from './units.ts';

export interface ChainLog {
  error(fields: object, message: string): void;
}

const stderrLog: ChainLog = {
  error: (fields, message) =>
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: message, ...fields })}\n`),
};

/**
 * The gas limit of a pool transfer. Fixed rather than estimated: an estimate fails for a transfer
 * that would revert, and such a transfer must still be mined (and seen to revert) so the flow
 * fails with `transfer_failed`. An ERC-20 `transfer` costs 35–65k gas (USDC with its blocklist
 * proxy ~60k); the unused part is not charged.
 */
const TRANSFER_GAS = 100_000n;
/**
 * The gas limit of a return (`receiveWithAuthorization`): the transfer, a signature recovered and
 * the authorization nonce stored (USDC ~85k).
 */
const RETURN_GAS = 150_000n;
/** At most this many `eth_getLogs` ranges per watcher pass: a long catch-up goes on next pass. */
const LOG_RANGES_PER_PASS = 20;
/** Reads `chain reconcile` sends at once. */
const READS_AT_ONCE = 20;
const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/**
 * The EVM rail (`CHAIN=evm`): a USDC-style ERC-20 moved and watched through viem over the operator's
 * JSON-RPC endpoint. Production mode only: sandbox stays offline (spec: `tx_hash` is null in sandbox).
 *
 * - Keys: each organization's pool signer and each user's deposit address are derived from
 *   `CHAIN_POOL_KEY` (keys.ts); the addresses are recorded (`chain_addresses`) so the watcher knows them.
 * - Submitting is idempotent by transfer id: the transaction is signed, with a nonce taken under a
 *   lock of the pool's row, and stored (`chain_transfers`) before it is broadcast. A resubmission,
 *   and every status check until it is mined, broadcasts the same bytes again.
 * - An RPC failure never throws out of `status` or `watchDeposits`: the transfer stays pending and
 *   the cursor stays put until the endpoint answers again. `submit` throws only before anything was
 *   signed (no nonce or fee could be read): the flow stays `approved` and tries again next pass.
 */
export class EvmChain implements Chain {
  readonly name = 'evm' as const;
  private readonly sandbox = new OfflineChain();
  /** The token's EIP-712 domain separator (read once: it names the token and the chain). */
  private domainSeparator: Hex | null = null;
  private readonly client: PublicClient;
  private readonly cursorName: string;
  /** Accounts derived and recorded by this process (derivation and the insert happen once each). */
  private readonly known = new Map<string, { account: PrivateKeyAccount; address: string }>();

  constructor(
    private readonly handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
    private readonly clock: Clock,
    readonly config: EvmChainConfig,
    private readonly log: ChainLog = stderrLog,
  ) {
    const chain = defineChain({
      id: config.chainId,
      name: `chain ${config.chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [config.rpcUrl] } },
    });
    // Retries are the worker's passes, not the transport's: a pass never hangs on a dead endpoint.
    this.client = createPublicClient({
      chain,
      transport: http(config.rpcUrl, { retryCount: 0, timeout: 10_000 }),
    }) as PublicClient;
    this.cursorName = `evm:${config.chainId}:${config.stablecoinAddress}`;
  }

  movesTokens(livemode: boolean): boolean {
    return livemode;
  }

  // ---- addresses

  async depositAddress(organizationId: string, livemode: boolean): Promise<string | null> {
    if (!livemode) return null;
    const { address } = await this.owned({ kind: 'pool', organizationId, livemode });
    return getAddress(address);
  }

  async userDepositAddress(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<string | null> {
    if (!livemode) return null;
    const { address } = await this.owned({ kind: 'user', organizationId, livemode, userId });
    return getAddress(address);
  }

  /** The owner's account (derived) and its address, recorded so that the watcher knows it. */
  private async owned(owner: KeyOwner) {
    const key = `${owner.kind}|${owner.organizationId}|${owner.livemode}|${owner.kind === 'user' ? owner.userId : ''}`;
    const known = this.known.get(key);
    if (known) return known;
    const account = privateKeyToAccount(derivePrivateKey(this.config.poolKey, owner));
    const address = account.address.toLowerCase();
    const { retired } = await store.ensureAddress(this.handle.db, {
      address,
      organization_id: owner.organizationId,
      livemode: livemodeColumn(owner.livemode),
      kind: owner.kind,
      owner_id: owner.kind === 'pool' ? owner.organizationId : owner.userId,
      created_at: this.clock.now(),
    });
    // Its funds were moved to the next key's addresses: signing or showing it would lose money.
    if (retired)
      throw new Error(
        'CHAIN_POOL_KEY is a key that purser chain rotate-pool-key replaced: start with the current one',
      );
    const derived = { account, address };
    this.known.set(key, derived);
    return derived;
  }

  // ---- transfers

  async submit(transfer: ChainTransfer): Promise<{ txHash: string | null }> {
    if (!transfer.livemode) return this.sandbox.submit();
    const row = (await store.transfer(this.handle.db, transfer.transferId)) ?? (await this.sign(transfer));
    await this.broadcast(row);
    return { txHash: row.tx_hash };
  }

  /**
   * Signs the transfer and stores it, once: a second signer finds the first one's row. The pool
   * signs either way: a `transfer` to the user, or a return the user's address authorized
   * (authorization.ts), so the pool pays every gas and user addresses never hold native coin.
   * `from_address` is the signer (the nonce's owner); `to_address` where the tokens go.
   */
  private async sign(transfer: ChainTransfer): Promise<ChainTransferRow> {
    const { organizationId } = transfer;
    const pool = await this.owned({ kind: 'pool', organizationId, livemode: true });
    const user = await this.owned({ kind: 'user', organizationId, livemode: true, userId: transfer.userId });
    const units = unitsFromCents(transfer.amountCents, this.config.decimals);
    // Read before the lock (no lock is held across the network); the nonce is settled under it.
    const [pendingNonce, fees, call] = await Promise.all([
      this.client.getTransactionCount({ address: pool.account.address, blockTag: 'pending' }),
      this.client.estimateFeesPerGas({ type: 'eip1559', chain: undefined }),
      transfer.direction === 'to_user'
        ? {
            to: user.address,
            gas: TRANSFER_GAS,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'transfer',
              args: [getAddress(user.address), units],
            }),
          }
        : this.domain().then(async (domainSeparator) => ({
            to: pool.address,
            gas: RETURN_GAS,
            data: await receiveWithAuthorization({
              holder: user.account,
              pool: pool.account.address,
              units,
              releaseId: transfer.releaseId,
              domainSeparator,
            }),
          })),
    ]);
    return writeTransaction(this.handle, async (trx) => {
      await store.lockAddress(trx, pool.address);
      const existing = await store.transfer(trx, transfer.transferId);
      if (existing) return existing;
      // The chain's count covers transactions sent by anyone with the key; ours, those not mined yet.
      const last = await store.lastNonce(trx, this.config.chainId, pool.address);
      const nonce = Math.max(pendingNonce, last === null ? 0 : last + 1);
      const raw = await pool.account.signTransaction({
        type: 'eip1559',
        chainId: this.config.chainId,
        nonce,
        to: this.config.stablecoinAddress,
        data: call.data,
        value: 0n,
        gas: call.gas,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      const row: ChainTransferRow = {
        transfer_id: transfer.transferId,
        chain_id: this.config.chainId,
        from_address: pool.address,
        to_address: call.to,
        units: units.toString(),
        nonce,
        tx_hash: keccak256(raw),
        raw_tx: raw,
        cancel_tx_hash: null,
        cancel_raw_tx: null,
        created_at: this.clock.now(),
      };
      await store.insertTransfer(trx, row);
      return row;
    });
  }

  private async domain(): Promise<Hex> {
    this.domainSeparator ??= await this.client.readContract({
      address: this.config.stablecoinAddress,
      abi: AUTHORIZATION_ABI,
      functionName: 'DOMAIN_SEPARATOR',
    });
    return this.domainSeparator;
  }

  /**
   * Sends the stored bytes (the cancellation's once there is one: the transfer itself would be
   * refused as underpriced); a refusal (already known, an outage) is logged, and the next check sends again.
   */
  private async broadcast(row: ChainTransferRow): Promise<void> {
    try {
      await this.client.sendRawTransaction({
        serializedTransaction: (row.cancel_raw_tx ?? row.raw_tx) as `0x${string}`,
      });
    } catch (error) {
      const text = rpcErrorText(error);
      // Sent before (still waiting, or already mined): nothing to report.
      if (/already (known|imported)|nonce too low/i.test(text)) return;
      this.log.error(
        { transfer_id: row.transfer_id, tx_hash: row.tx_hash, err: text },
        'chain transfer broadcast failed; sent again on the next check',
      );
    }
  }

  async status(transfer: ChainTransfer, txHash: string | null): Promise<ChainTransferStatus> {
    if (!transfer.livemode) return this.sandbox.status(transfer);
    const row = await store.transfer(this.handle.db, transfer.transferId);
    if (!row || (txHash !== null && row.tx_hash !== txHash))
      return { state: 'failed', detail: 'unknown_transfer' };
    try {
      const head = await this.client.getBlockNumber({ cacheTime: 0 });
      // The deepest block that counts as confirmed.
      const safe = head - BigInt(this.config.confirmations - 1);
      let receipt = await this.receipt(row.tx_hash);
      if (!receipt) {
        // Not mined. If the nonce was used, at confirmed depth, by another transaction sent with the
        // key, this one can never be mined: it failed. Else send it again (it may have been dropped).
        const used =
          safe >= 0n
            ? await this.client.getTransactionCount({
                address: getAddress(row.from_address),
                blockNumber: safe,
              })
            : 0;
        if (used > row.nonce) {
          receipt = await this.receipt(row.tx_hash);
          if (!receipt) return { state: 'failed', detail: row.cancel_tx_hash ? 'not_mined' : 'replaced' };
        } else {
          const overdue = this.clock.now() - Number(row.created_at) >= this.config.transferTimeoutMs;
          await this.broadcast(overdue && row.cancel_raw_tx === null ? await this.cancel(row) : row);
          return { state: 'pending' };
        }
      }
      if (receipt.blockNumber > safe) return { state: 'pending' };
      return receipt.status === 'success' ? { state: 'confirmed' } : { state: 'failed', detail: 'reverted' };
    } catch (error) {
      this.log.error(
        { transfer_id: row.transfer_id, tx_hash: row.tx_hash, err: rpcErrorText(error) },
        'chain transfer status unavailable; still pending',
      );
      return { state: 'pending' };
    }
  }

  /**
   * A transfer that never got mined is cancelled the only way a signed transaction can be: another
   * one at its nonce, here a zero-value transfer of native coin to the pool itself, with fees at
   * least 12.5% higher (what nodes require of a replacement; EIP-1559 pools ask 10%). The transfer is
   * then either mined after all (and confirms) or never (the nonce went to the cancellation: failed).
   */
  private async cancel(row: ChainTransferRow): Promise<ChainTransferRow> {
    const original = parseTransaction(row.raw_tx as `0x${string}`);
    const fees = await this.client.estimateFeesPerGas({ type: 'eip1559', chain: undefined });
    const bump = (paid: bigint | undefined, now: bigint) => largest(((paid ?? 0n) * 1125n) / 1000n + 1n, now);
    const maxPriorityFeePerGas = bump(original.maxPriorityFeePerGas, fees.maxPriorityFeePerGas);
    const maxFeePerGas = bump(original.maxFeePerGas, fees.maxFeePerGas);
    const organizationId = await this.poolOwner(row.from_address);
    const { account } = await this.owned({ kind: 'pool', organizationId, livemode: true });
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: this.config.chainId,
      nonce: Number(row.nonce),
      to: account.address,
      value: 0n,
      gas: 21_000n,
      maxFeePerGas: largest(maxFeePerGas, maxPriorityFeePerGas),
      maxPriorityFeePerGas,
    });
    await store.setCancel(this.handle.db, row.transfer_id, { hash: keccak256(raw), raw });
    const kept = await store.transfer(this.handle.db, row.transfer_id);
    return kept ?? row;
  }

  private async poolOwner(address: string): Promise<string> {
    const [owner] = await store.addresses(this.handle.db, [address]);
    if (!owner || owner.kind !== 'pool') throw new Error('not a pool address of this instance');
    return owner.organization_id;
  }

  private async receipt(hash: string): Promise<TransactionReceipt | null> {
    try {
      return await this.client.getTransactionReceipt({ hash: hash as `0x${string}` });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
  }

  // ---- deposits

  async watchDeposits(credit: (deposit: ChainDeposit) => Promise<void>): Promise<number> {
    let handed = 0;
    try {
      const head = await this.client.getBlockNumber({ cacheTime: 0 });
      const safe = Number(head) - (this.config.confirmations - 1);
      let cursor = await store.cursor(this.handle.db, this.cursorName);
      if (cursor === null) {
        // A first start reads from CHAIN_START_BLOCK, or else only what comes from now on.
        cursor = this.config.startBlock === null ? Math.max(safe, 0) : this.config.startBlock - 1;
        await store.setCursor(this.handle.db, this.cursorName, cursor, this.clock.now());
      }
      for (let pass = 0; pass < LOG_RANGES_PER_PASS && cursor < safe; pass++) {
        const from = cursor + 1;
        const to = Math.min(safe, from + this.config.logRange - 1);
        handed += await this.readRange(from, to, credit);
        await store.setCursor(this.handle.db, this.cursorName, to, this.clock.now());
        cursor = to;
      }
    } catch (error) {
      this.log.error({ err: rpcErrorText(error) }, 'deposit watching failed; the cursor stays put');
    }
    return handed;
  }

  private async readRange(
    from: number,
    to: number,
    credit: (deposit: ChainDeposit) => Promise<void>,
  ): Promise<number> {
    const deposits = await this.depositsIn(from, to);
    for (const deposit of deposits) await credit(deposit);
    return deposits.length;
  }

  /** The deposits to Purser's production addresses in blocks `from`..`to`, in chain order. */
  private async depositsIn(from: number, to: number): Promise<ChainDeposit[]> {
    const logs = await this.client.getLogs({
      address: this.config.stablecoinAddress,
      event: TRANSFER_EVENT,
      fromBlock: BigInt(from),
      toBlock: BigInt(to),
      strict: true,
    });
    const seen = new Set(logs.flatMap((log) => [log.args.to.toLowerCase(), log.args.from.toLowerCase()]));
    const ours = new Map<string, ChainAddress>(
      (await store.addresses(this.handle.db, [...seen])).map((row) => [row.address, row]),
    );
    const ordered = [...logs].sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
    const deposits: ChainDeposit[] = [];
    for (const log of ordered) {
      const address = log.args.to.toLowerCase();
      const owner = ours.get(address);
      // A move between Purser's own addresses (a card flow's transfer, a return to the pool) is no
      // deposit: the ledger moves that money with the flow or the return.
      if (!owner || ours.has(log.args.from.toLowerCase()) || owner.livemode !== 1) continue;
      const { cents } = centsFromUnits(log.args.value, this.config.decimals);
      deposits.push({
        chainId: this.config.chainId,
        txHash: log.transactionHash.toLowerCase(),
        logIndex: log.logIndex,
        blockNumber: Number(log.blockNumber),
        address,
        from: log.args.from.toLowerCase(),
        organizationId: owner.organization_id,
        livemode: true,
        kind: owner.kind,
        ownerId: owner.owner_id,
        units: log.args.value,
        cents: Number(cents),
      });
    }
    return deposits;
  }

  // ---- reading for `chain reconcile` (funding/reconcile.ts); these throw on an RPC failure

  /** The head block, and each address's token balance in it. */
  async balancesAtHead(addresses: string[]): Promise<{ block: number; balances: Map<string, bigint> }> {
    const block = await this.client.getBlockNumber({ cacheTime: 0 });
    const balances = new Map<string, bigint>();
    // A few reads at a time: an endpoint's rate limit, not a thousand requests at once.
    for (let i = 0; i < addresses.length; i += READS_AT_ONCE) {
      const chunk = addresses.slice(i, i + READS_AT_ONCE);
      const read = await Promise.all(
        chunk.map((address) =>
          this.client.readContract({
            address: this.config.stablecoinAddress,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [getAddress(address)],
            blockNumber: block,
          }),
        ),
      );
      for (const [n, address] of chunk.entries()) balances.set(address, read[n]!);
    }
    return { block: Number(block), balances };
  }

  /**
   * Of these stored transfers, the block each one moved its tokens in (mined and succeeded); those
   * that moved nothing (not mined, reverted, replaced by their cancellation) are absent.
   */
  async movedIn(transferIds: string[]): Promise<Map<string, number>> {
    const moved = new Map<string, number>();
    const rows = await store.transfers(this.handle.db, transferIds);
    for (let i = 0; i < rows.length; i += READS_AT_ONCE) {
      const chunk = rows.slice(i, i + READS_AT_ONCE);
      const receipts = await Promise.all(chunk.map((row) => this.receipt(row.tx_hash)));
      chunk.forEach((row, n) => {
        const receipt = receipts[n];
        if (receipt?.status === 'success') moved.set(row.transfer_id, Number(receipt.blockNumber));
      });
    }
    return moved;
  }

  /** Deposits in blocks `from`..`to` (the watcher's reading, credited or not), in chain order. */
  async depositsBetween(from: number, to: number): Promise<ChainDeposit[]> {
    const deposits: ChainDeposit[] = [];
    for (let start = from; start <= to; start += this.config.logRange)
      deposits.push(...(await this.depositsIn(start, Math.min(to, start + this.config.logRange - 1))));
    return deposits;
  }

  /** How far the deposit watcher has credited: every deposit up to this block is in the books. */
  depositCursor(exec: Executor): Promise<number | null> {
    return store.cursor(exec, this.cursorName);
  }

  /** Every production address Purser derived, those a rotation retired included (`retired_at`). */
  ownedAddresses(exec: Executor) {
    return store.liveAddresses(exec);
  }

  /**
   * `purser chain rotate-pool-key`: what the addresses derived from `CHAIN_PREVIOUS_POOL_KEY` hold
   * moves to those of `CHAIN_POOL_KEY` (rotate.ts).
   */
  rotatePoolKey(previousKey: `0x${string}`, unsettled: string[]): Promise<PoolKeyRotation> {
    return rotatePoolKey(
      {
        handle: this.handle,
        clock: this.clock,
        config: this.config,
        client: this.client,
        transferGas: TRANSFER_GAS,
        current: (owner) => this.owned(owner),
      },
      previousKey,
      unsettled,
    );
  }

  /** The worker records a check made at this block, unless a later one was recorded (store.ts). */
  claimReconcile(trx: Executor, block: number): Promise<boolean> {
    return store.claimCursor(trx, `reconcile:${this.cursorName}`, block, this.clock.now());
  }

  /** The block and time of the last check the worker recorded, if any. */
  async lastReconcile(exec: Executor): Promise<{ block: number; at: number } | null> {
    const row = await store.cursorRow(exec, `reconcile:${this.cursorName}`);
    return row && Number(row.block_number) >= 0
      ? { block: Number(row.block_number), at: Number(row.updated_at) }
      : null;
  }
}

/** Math.max for bigints (Math.max itself refuses them). */
const largest = (...values: bigint[]): bigint =>
  // biome-ignore lint/complexity/useMathMinMax: Math.max does not take bigints
  values.reduce((max, value) => (value > max ? value : max));

/**
 * An RPC failure in a few words, for the log: viem's short message and details, without its
 * request dump and with any URL cut (a provider's URL often carries its API key).
 */
export function rpcErrorText(error: unknown): string {
  const text =
    error instanceof BaseError
      ? `${error.name}: ${error.shortMessage}${error.details ? ` (${error.details})` : ''}`
      : String(error);
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[url]').slice(0, 500);
}
