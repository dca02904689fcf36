import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { isoTime } from '../../core/clock.ts';
import type { Sealer } from '../../core/sealer.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { ReceiptKeysTable } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import * as store from './store.ts';

/**
 * Receipts of orders placed under a mandate (docs/mandates.md "Receipts"): a compact JWS (RFC 7515,
 * ES256 per RFC 7518 §3.4) over what was bought under which terms, signed by the installation's
 * current key and checked by anyone against `{base_url}/.well-known/jwks.json`.
 *
 * One key signs at a time (slot `current`). `purser keys rotate-receipts` retires it: its private
 * half is erased at once (nothing may sign with it again) and its public half stays published until
 * `RECEIPT_KEY_RETENTION_DAYS` later. After that the receipts it signed no longer verify; the order's
 * receipt route then signs the same claims again with the current key.
 */

/** What a receipt states, in this order (the JWS payload). */
export interface ReceiptClaims {
  mandate_id: string;
  terms_hash: string;
  cart_hash: string;
  order_id: string;
  amount_cents: number;
  currency: string;
  merchant: string;
  placed_at: string;
}

/** A P-256 public key as published (RFC 7517), named by its thumbprint (RFC 7638). */
export interface ReceiptJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

export interface Receipt {
  object: 'receipt';
  order_id: string;
  mandate_id: string;
  kid: string;
  jws: string;
  claims: ReceiptClaims;
}

/** A receipt key as the CLI shows it. */
export interface ReceiptKeySummary {
  kid: string;
  status: 'current' | 'retired' | 'expired';
  created_at: string;
  retired_at: string | null;
  expires_at: string | null;
}

export class ReceiptService {
  /** Private keys opened from their sealed form, by kid (a kid's key never changes). */
  private readonly opened = new Map<string, KeyObject>();

  constructor(private readonly deps: { db: Db; clock: Clock; sealer: Sealer; retentionDays: number }) {}

  /**
   * Signs and keeps an order's receipt, in the transaction that places the order (its
   * `order.placed` carries the JWS this returns).
   */
  async issue(
    trx: Executor,
    order: { organizationId: string; livemode: boolean },
    claims: ReceiptClaims,
  ): Promise<string> {
    const { kid, jws } = await this.sign(trx, claims);
    await store.insertReceipt(trx, {
      order_id: claims.order_id,
      organization_id: order.organizationId,
      livemode: livemodeColumn(order.livemode),
      mandate_id: claims.mandate_id,
      kid,
      jws,
      created_at: this.deps.clock.now(),
    });
    return jws;
  }

  /**
   * An order's receipt in this organization and mode, or null when it has none. A receipt whose key
   * has expired (or was deleted after a leak) is signed again, same claims, by the current key: the
   * facts have not changed, only the key that vouches for them.
   */
  async forOrder(
    scope: { organizationId: string; livemode: boolean },
    orderId: string,
  ): Promise<Receipt | null> {
    const { db, clock } = this.deps;
    const row = await store.findReceipt(db, scope, orderId);
    if (!row) return null;
    let { kid, jws } = row;
    const expired = row.expires_at !== null && Number(row.expires_at) <= clock.now();
    if (row.published === null || expired) {
      ({ kid, jws } = await db.transaction().execute(async (trx) => {
        const signed = await this.sign(trx, claimsOf(row.jws));
        await store.replaceSignature(trx, orderId, signed);
        return signed;
      }));
    }
    return {
      object: 'receipt',
      order_id: row.order_id,
      mandate_id: row.mandate_id,
      kid,
      jws,
      claims: claimsOf(jws),
    };
  }

  /** The JWK Set to verify receipts with: the current key and the retired ones not yet expired. */
  async jwks(): Promise<{ keys: ReceiptJwk[] }> {
    await this.ensureKey(this.deps.db);
    const rows = await store.publishedKeys(this.deps.db, this.deps.clock.now());
    // The signing key first, then the retired ones, the latest retired first.
    const order = (retiredAt: number | null) =>
      retiredAt === null ? Number.POSITIVE_INFINITY : Number(retiredAt);
    rows.sort((a, b) => order(b.retired_at) - order(a.retired_at));
    return { keys: rows.map((row) => publishedJwk(row.kid, row.public_jwk)) };
  }

  /**
   * A new current key; the one it replaces is retired (private half erased) and expires after the
   * retention. Returns the new key's kid and the key it retired.
   */
  async rotate(): Promise<{ kid: string; retired: ReceiptKeySummary[] }> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const retiring = await store.retireCurrentKey(trx, now, now + this.deps.retentionDays * 86_400_000);
      const kid = await this.createKey(trx);
      const retired = await store.keysNamed(trx, retiring);
      return { kid, retired: retired.map((key) => summary(key, now)) };
    });
  }

  /** Every key ever made, newest first, for `purser keys list-receipts`. */
  async keys(): Promise<ReceiptKeySummary[]> {
    const now = this.deps.clock.now();
    const rows = await store.allKeys(this.deps.db);
    return rows.map((row) => summary(row, now));
  }

  /** The current key's kid and a JWS by it; the first key is made on first use. */
  private async sign(trx: Executor, claims: ReceiptClaims): Promise<{ kid: string; jws: string }> {
    const key = await this.ensureKey(trx);
    const header = { alg: 'ES256', kid: key.kid };
    const signingInput = `${b64json(header)}.${b64json(claims)}`;
    // RFC 7518 §3.4: the signature is R || S, 32 bytes each, not DER.
    const signature = sign('sha256', Buffer.from(signingInput), {
      key: this.privateKey(key.kid, key.private_key_sealed as string),
      dsaEncoding: 'ieee-p1363',
    });
    return { kid: key.kid, jws: `${signingInput}.${signature.toString('base64url')}` };
  }

  /** The current key, made when there is none (concurrent first uses: one insert wins the slot). */
  private async ensureKey(exec: Executor) {
    const found = await store.currentKey(exec);
    if (found) return found;
    await this.createKey(exec);
    return (await store.currentKey(exec))!;
  }

  private async createKey(exec: Executor): Promise<string> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { x, y } = publicKey.export({ format: 'jwk' });
    const kid = thumbprint(x as string, y as string);
    await store.insertCurrentKey(exec, {
      kid,
      private_key_sealed: this.deps.sealer.seal(
        privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
        sealedFor(kid),
      ),
      public_jwk: JSON.stringify({ kty: 'EC', crv: 'P-256', x, y }),
      created_at: this.deps.clock.now(),
      retired_at: null,
      expires_at: null,
    });
    return kid;
  }

  private privateKey(kid: string, sealed: string): KeyObject {
    let key = this.opened.get(kid);
    if (!key) {
      key = createPrivateKey(this.deps.sealer.open(sealed, sealedFor(kid)));
      this.opened.set(kid, key);
    }
    return key;
  }
}

/** The additional data that binds a sealed private key to its row. */
const sealedFor = (kid: string) => `receipt_keys.private_key:${kid}`;

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** RFC 7638 §3.2: SHA-256 over the required members, sorted, no whitespace. */
function thumbprint(x: string, y: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y }))
    .digest('base64url');
}

function publishedJwk(kid: string, stored: string): ReceiptJwk {
  return {
    ...(JSON.parse(stored) as Pick<ReceiptJwk, 'kty' | 'crv' | 'x' | 'y'>),
    kid,
    alg: 'ES256',
    use: 'sig',
  };
}

/** The claims of a JWS this service signed (its own, so read without checking). */
function claimsOf(jws: string): ReceiptClaims {
  return JSON.parse(Buffer.from(jws.split('.')[1] as string, 'base64url').toString('utf8')) as ReceiptClaims;
}

function summary(
  row: Pick<ReceiptKeysTable, 'kid' | 'slot' | 'created_at' | 'retired_at' | 'expires_at'>,
  now: number,
): ReceiptKeySummary {
  const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
  return {
    kid: row.kid,
    status:
      row.slot === store.CURRENT ? 'current' : expiresAt !== null && expiresAt <= now ? 'expired' : 'retired',
    created_at: isoTime(Number(row.created_at)),
    retired_at: row.retired_at === null ? null : isoTime(Number(row.retired_at)),
    expires_at: expiresAt === null ? null : isoTime(expiresAt),
  };
}

/** The sealed signing keys (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'receipt_keys',
    column: 'private_key_sealed',
    key: ['kid'],
    aad: (row) => sealedFor(String(row.kid)),
  },
];
