import { createHmac } from 'node:crypto';
import { safeEqual } from '../../core/crypto.ts';

/**
 * The hosted page link (`iframe_url`): `{base}/kyc/verify/{verification}.{nonce}.{expires}.{signature}`.
 * The signature is HMAC-SHA256 under the server's link secret over the verification, the user it
 * belongs to, the nonce and the expiry, so none of them can be changed or moved to another user.
 * The verification row keeps the newest nonce: issuing a link retires every older one.
 */
export interface LinkClaims {
  verificationId: string;
  userId: string;
  nonce: string;
  /** Unix seconds. */
  expires: number;
}

function signature(secret: string, claims: LinkClaims): string {
  const message = ['kyc-link.v1', claims.verificationId, claims.userId, claims.nonce, claims.expires].join(
    '|',
  );
  // Truncated to 132 bits (RFC 2104 §5 allows truncation to at least half the output) to keep links short.
  return createHmac('sha256', secret).update(message).digest('base64url').slice(0, 22);
}

export function signLink(secret: string, claims: LinkClaims): string {
  return `${claims.verificationId}.${claims.nonce}.${claims.expires}.${signature(secret, claims)}`;
}

/** The unverified parts of a link token, or null when it is not shaped like one. */
export function parseLink(
  token: string,
): { verificationId: string; nonce: string; expires: number; sig: string } | null {
  const match = /^(kyc_[A-Za-z0-9]{1,40})\.([A-Za-z0-9]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  return {
    verificationId: match[1] as string,
    nonce: match[2] as string,
    expires: Number(match[3]),
    sig: match[4] as string,
  };
}

/** Is the signature right for these claims? Constant-time. */
export function linkSignatureValid(secret: string, claims: LinkClaims, sig: string): boolean {
  return safeEqual(signature(secret, claims), sig);
}
