import { createHmac, hash, randomInt, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex digest: how secrets, tokens and one-time codes are stored at rest. */
export function digest(secret: string): string {
  // One-shot hashing: no Hash object per call (this runs on every authenticated request).
  return hash('sha256', secret, 'hex');
}

export function hmacSha256Hex(key: string, message: string | Buffer): string {
  return createHmac('sha256', key).update(message).digest('hex');
}

/** Constant-time equality of two strings (digests, signatures); unequal lengths are simply false. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    // Still spend a comparison so that length mismatch and content mismatch cost the same.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Does `secret` match the stored digest? Compared in constant time. */
export function matchesDigest(secret: string, storedDigest: string): boolean {
  return safeEqual(digest(secret), storedDigest);
}

/** A numeric one-time code of `length` digits from a CSPRNG. */
export function numericCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}
