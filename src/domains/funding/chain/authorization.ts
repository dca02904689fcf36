import {
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  parseAbiParameters,
  parseSignature,
  toHex,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

/**
 * EIP-3009 `receiveWithAuthorization` (USDC's FiatTokenV2, EURC and other Circle tokens): the holder
 * of a user's deposit address signs a transfer of its tokens to the pool, and the pool submits it
 * and pays the gas. The user's address never needs native coin, and the token itself refuses an
 * authorization nonce used before, so a release returns on the chain at most once whatever our
 * records say (docs/funding.md "Releases return on the chain").
 */
export const AUTHORIZATION_ABI = parseAbi([
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
]);

/** EIP-3009 §"receiveWithAuthorization": the typed data the holder signs (EIP-712). */
const RECEIVE_TYPEHASH = keccak256(
  toHex(
    'ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)',
  ),
);

/** The authorization nonce of a release: derived from its id, so every attempt carries the same one. */
export function authorizationNonce(releaseId: string): Hex {
  return keccak256(toHex(`purser:chain:v1:return:${releaseId}`));
}

/**
 * The calldata of the pool's `receiveWithAuthorization(holder → pool, units)`, signed by the holder.
 * Valid from the start of the chain and without end (`validBefore` = 2^256 − 1): a return may wait
 * for the chain as long as it takes, and only the payee (the pool) can submit it (EIP-3009).
 */
export async function receiveWithAuthorization(input: {
  holder: PrivateKeyAccount;
  pool: `0x${string}`;
  units: bigint;
  releaseId: string;
  domainSeparator: Hex;
}): Promise<Hex> {
  const nonce = authorizationNonce(input.releaseId);
  const structHash = keccak256(
    encodeAbiParameters(parseAbiParameters('bytes32, address, address, uint256, uint256, uint256, bytes32'), [
      RECEIVE_TYPEHASH,
      input.holder.address,
      input.pool,
      input.units,
      0n,
      maxUint256,
      nonce,
    ]),
  );
  // EIP-712 §"Specification": "\x19\x01" ‖ domainSeparator ‖ hashStruct(message).
  const digest = keccak256(concat(['0x1901', input.domainSeparator, structHash]));
  const { r, s, v, yParity } = parseSignature(await input.holder.sign({ hash: digest }));
  return encodeFunctionData({
    abi: AUTHORIZATION_ABI,
    functionName: 'receiveWithAuthorization',
    args: [
      input.holder.address,
      input.pool,
      input.units,
      0n,
      maxUint256,
      nonce,
      Number(v ?? BigInt(yParity + 27)),
      r,
      s,
    ],
  });
}
