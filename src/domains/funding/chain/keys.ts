import { createHmac } from 'node:crypto';

/** secp256k1's group order: a private key is an integer in [1, n − 1] (SEC 2 §2.4.1). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Whose key: an organization's pool (per mode), or a user's deposit address (per organization and mode). */
export type KeyOwner =
  | { kind: 'pool'; organizationId: string; livemode: boolean }
  | { kind: 'user'; organizationId: string; livemode: boolean; userId: string };

/**
 * The private key of a pool or a deposit address, derived from the pool secret (`CHAIN_POOL_KEY`)
 * by a keyed derivation: HMAC-SHA256(secret, label), the label naming the owner. Deterministic, so
 * nothing secret is stored: the same secret gives the same addresses after a restore, and a leaked
 * database reveals no key. In the rare case (probability ~2^-128) that the digest is not a valid
 * scalar, a counter in the label moves to the next candidate. Ids are Purser's own (`org_…`,
 * `usr_…`, no `:` inside), so two owners never share a label.
 */
export function derivePrivateKey(secret: `0x${string}`, owner: KeyOwner): `0x${string}` {
  const key = Buffer.from(secret.slice(2), 'hex');
  const mode = owner.livemode ? 'live' : 'test';
  const base =
    owner.kind === 'pool'
      ? `purser:chain:v1:pool:${owner.organizationId}:${mode}`
      : `purser:chain:v1:user:${owner.organizationId}:${mode}:${owner.userId}`;
  for (let counter = 0; ; counter++) {
    const digest = createHmac('sha256', key).update(`${base}:${counter}`).digest('hex');
    const scalar = BigInt(`0x${digest}`);
    if (scalar > 0n && scalar < SECP256K1_N) return `0x${digest}`;
  }
}
