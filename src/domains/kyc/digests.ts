import { createHmac } from 'node:crypto';
import type { AesGcmSealer } from '../../core/sealer.ts';

/**
 * Keyed digests of the low-entropy identifiers a verification keeps for matching (the national id
 * number, the document number). A plain SHA-256 of a nine-digit number is reversed by trying every
 * number in minutes; HMAC-SHA-256 under a key derived from the service's encryption key ring cannot
 * be tried without that key. Each digest is stored with the id of the key it was computed under, so
 * a match looks for the digest under every key of the ring (current and previous) and a row keeps
 * matching across a rotation until it is written again under the current key.
 */
export type IdentifierKind = 'national_id' | 'document';

export interface KeyedDigest {
  digest: string;
  keyId: string;
}

/** HKDF purpose of the digest key (distinct from every other key derived from the ring). */
const PURPOSE = 'kyc-identifier-digests';

export class IdentifierDigests {
  private readonly keys: { keyId: string; key: Buffer }[];

  constructor(ring: Pick<AesGcmSealer, 'derivedKeys'>) {
    this.keys = ring.derivedKeys(PURPOSE);
  }

  /** The id of the key new digests are computed under. */
  get currentKeyId(): string {
    return (this.keys[0] as { keyId: string }).keyId;
  }

  /** The digest under the current key: what a write stores. */
  current(kind: IdentifierKind, value: string): KeyedDigest {
    return this.under(this.keys[0] as { keyId: string; key: Buffer }, kind, value);
  }

  /** The digest under every key of the ring: what a match looks for. */
  candidates(kind: IdentifierKind, value: string): KeyedDigest[] {
    return this.keys.map((key) => this.under(key, kind, value));
  }

  private under(key: { keyId: string; key: Buffer }, kind: IdentifierKind, value: string): KeyedDigest {
    // The kind is part of the message, so a digest of one kind never matches a value of another.
    const digest = createHmac('sha256', key.key).update(`kyc-${kind}.v2|${value}`).digest('hex');
    return { digest, keyId: key.keyId };
  }
}

/** The document identity a document key digests: country, kind (passport or licence) and number. */
export function documentIdentity(input: {
  issuingCountry: string;
  documentType: string;
  documentNumber: string;
}): string {
  return [
    input.issuingCountry,
    input.documentType === 'passport' ? 'passport' : 'licence',
    normaliseDocumentNumber(input.documentNumber),
  ].join('|');
}

/** Document numbers are compared without spaces or hyphens, in capitals (as printed or encoded). */
export function normaliseDocumentNumber(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}
