import { encodeFunctionData, erc20Abi, getAddress, type Hex, type PublicClient } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { Clock } from '../../../core/clock.ts';
import type { DatabaseHandle } from '../../../db/index.ts';
import { writeTransaction } from '../../../db/write-transaction.ts';
import type { EvmChainConfig } from '../config.ts';
import { derivePrivateKey, type KeyOwner } from './keys.ts';
import type { ChainAddress } from './store.ts';
import * as store from './store.ts';

/** A native-coin transfer's gas (fixed by the protocol). */
const VALUE_GAS = 21_000n;
/** How long one transaction may take to reach `CHAIN_CONFIRMATIONS` before the command gives up. */
const RECEIPT_TIMEOUT_MS = 10 * 60_000;

/** One address of the previous key and where what it held went. */
export interface RotatedAddress {
  kind: 'pool' | 'user';
  organization_id: string;
  /** The organization (a pool) or the user (a deposit address). */
  owner_id: string;
  from: string;
  to: string;
  /** Token units moved (a decimal string; "0" when it held none). */
  units: string;
  /** The transactions sent for it, in order (gas for a user's address, then the tokens; a pool's coin). */
  tx_hashes: string[];
}

export interface PoolKeyRotation {
  object: 'chain_pool_key_rotation';
  chain_id: number;
  addresses: RotatedAddress[];
}

interface Deps {
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>;
  clock: Clock;
  config: EvmChainConfig;
  client: PublicClient;
  /** The gas limit of a token transfer (evm.ts). */
  transferGas: bigint;
  /** The current key's account for this owner, its address recorded (EvmChain.owned). */
  current(owner: KeyOwner): Promise<{ account: PrivateKeyAccount; address: string }>;
}

/** The rotation cannot start as things stand; nothing was changed. The message says why. */
export class RotationRefused extends Error {}

const ownerOf = (row: ChainAddress): KeyOwner =>
  row.kind === 'pool'
    ? { kind: 'pool', organizationId: row.organization_id, livemode: true }
    : { kind: 'user', organizationId: row.organization_id, livemode: true, userId: row.owner_id };

/**
 * Rotates `CHAIN_POOL_KEY` (docs/operations.md "CHAIN_POOL_KEY"): every production address the
 * previous key derived is retired and replaced by the current key's address of the same owner, and
 * what it holds moves there on the chain. The books do not change: the same owners hold the same
 * money, at new addresses.
 *
 * 1. Every recorded address must come from one of the two keys (a wrong previous key changes nothing).
 * 2. In one transaction the previous key's addresses are retired and their successors recorded, before
 *    any token moves: the watcher still knows a retired address, so the moves below are no deposits,
 *    and `chain reconcile` counts a retired address's deposits as its successor's.
 * 3. Per organization, the previous pool sends its tokens, then its coin (less that transfer's fee), to
 *    the new pool; then each user's address that holds tokens sends them all to its successor. The new
 *    pool pays the gas of every address that lacks it (user addresses hold no coin; a retired pool
 *    swept again has given its coin away).
 *
 * Each step reads the chain's balances afresh, so a run cut short (or a deposit that reached a
 * retired address later) is finished by running it again. `unsettled` names the chain transfers of
 * flows and returns not settled in the books: if any was signed (by the previous key) nothing
 * happens. No process may run with the previous key meanwhile (the operator stops them).
 */
export async function rotatePoolKey(
  deps: Deps,
  previousKey: `0x${string}`,
  unsettled: string[],
): Promise<PoolKeyRotation> {
  const { config, client, handle } = deps;
  if (previousKey === config.poolKey)
    throw new RotationRefused('CHAIN_PREVIOUS_POOL_KEY is CHAIN_POOL_KEY: set CHAIN_POOL_KEY to the new key');
  // A transaction the previous pool signed and the chain may still mine would move tokens that are gone.
  const signed = await store.transfers(handle.db, unsettled);
  if (signed.length > 0)
    throw new RotationRefused(
      `${signed.length} transfer(s) signed with the previous key are not settled (${signed
        .slice(0, 5)
        .map((t) => t.transfer_id)
        .join(', ')}): run the worker with the previous key until they are, then rotate`,
    );
  const previous = (owner: KeyOwner) => privateKeyToAccount(derivePrivateKey(previousKey, owner));
  const rows = await store.liveAddresses(handle.db);
  const moving: { row: ChainAddress; account: PrivateKeyAccount }[] = [];
  for (const row of rows) {
    const account = previous(ownerOf(row));
    if (account.address.toLowerCase() === row.address) moving.push({ row, account });
    else if (row.retired_at === null && !derivesCurrent(config.poolKey, row))
      throw new RotationRefused(
        `CHAIN_PREVIOUS_POOL_KEY does not derive ${getAddress(row.address)} (${row.kind} ${row.owner_id}), nor does CHAIN_POOL_KEY: neither is the key these addresses came from`,
      );
  }

  const now = deps.clock.now();
  await writeTransaction(handle, async (trx) => {
    for (const { row } of moving) await store.retireAddress(trx, row.address, now);
  });
  const successors = new Map<string, string>();
  for (const { row } of moving) successors.set(row.address, (await deps.current(ownerOf(row))).address);

  const send = async (
    from: PrivateKeyAccount,
    call: { to: string; value?: bigint; data?: Hex; gas: bigint },
  ) => {
    const [nonce, fees] = await Promise.all([
      client.getTransactionCount({ address: from.address, blockTag: 'pending' }),
      client.estimateFeesPerGas({ type: 'eip1559', chain: undefined }),
    ]);
    const raw = await from.signTransaction({
      type: 'eip1559',
      chainId: config.chainId,
      nonce,
      to: getAddress(call.to),
      value: call.value ?? 0n,
      ...(call.data ? { data: call.data } : {}),
      gas: call.gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const hash = await client.sendRawTransaction({ serializedTransaction: raw });
    const receipt = await client.waitForTransactionReceipt({
      hash,
      confirmations: config.confirmations,
      timeout: RECEIPT_TIMEOUT_MS,
    });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} from ${from.address} reverted`);
    return hash;
  };
  const tokens = (address: string) =>
    client.readContract({
      address: config.stablecoinAddress,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [getAddress(address)],
    });
  const sendTokens = (from: PrivateKeyAccount, to: string, units: bigint) =>
    send(from, {
      to: config.stablecoinAddress,
      gas: deps.transferGas,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [getAddress(to), units] }),
    });

  const moved: RotatedAddress[] = [];
  const organizations = [...new Set(moving.map(({ row }) => row.organization_id))];
  for (const organizationId of organizations) {
    const newPool = await deps.current({ kind: 'pool', organizationId, livemode: true });
    const ofOrg = moving.filter(({ row }) => row.organization_id === organizationId);
    /** Gives `address` the coin for one token transfer (twice today's fee), from the new pool, if it lacks it. */
    const gasFor = async (address: string, hashes: string[]) => {
      const { maxFeePerGas } = await client.estimateFeesPerGas({ type: 'eip1559', chain: undefined });
      const need = deps.transferGas * maxFeePerGas * 2n;
      const has = await client.getBalance({ address: getAddress(address) });
      if (has < need)
        hashes.push(await send(newPool.account, { to: address, value: need - has, gas: VALUE_GAS }));
    };
    // The pool first: its coin reaches the new pool, which then pays the users' gas.
    const pools = ofOrg.filter(({ row }) => row.kind === 'pool');
    for (const { row, account } of [...pools, ...ofOrg.filter(({ row }) => row.kind === 'user')]) {
      const to = successors.get(row.address)!;
      const hashes: string[] = [];
      const units = await tokens(row.address);
      if (units > 0n) {
        await gasFor(row.address, hashes);
        hashes.push(await sendTokens(account, to, units));
      }
      if (row.kind === 'pool') {
        const { maxFeePerGas } = await client.estimateFeesPerGas({ type: 'eip1559', chain: undefined });
        const coin = await client.getBalance({ address: account.address });
        const fee = VALUE_GAS * maxFeePerGas;
        if (coin > fee) hashes.push(await send(account, { to, value: coin - fee, gas: VALUE_GAS }));
      }
      moved.push({
        kind: row.kind,
        organization_id: organizationId,
        owner_id: row.owner_id,
        from: getAddress(row.address),
        to: getAddress(to),
        units: units.toString(),
        tx_hashes: hashes,
      });
    }
  }
  return { object: 'chain_pool_key_rotation', chain_id: config.chainId, addresses: moved };
}

/** Whether the row is the current key's own address of its owner. */
function derivesCurrent(poolKey: `0x${string}`, row: ChainAddress): boolean {
  return privateKeyToAccount(derivePrivateKey(poolKey, ownerOf(row))).address.toLowerCase() === row.address;
}
