import { hash } from 'node:crypto';
import { safeEqual } from '../../core/crypto.ts';

/** RFC 7636 §4.1: a code verifier is 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** RFC 7636 §4.2: an S256 challenge is the base64url SHA-256 of the verifier: 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Why the PKCE parameters of an authorization request are refused, or null. Only S256: OAuth 2.1
 * §4.1.1 and RFC 9700 §2.1.1 require PKCE for every client and `plain` gives no protection when the
 * request leaks, so it is refused, as is a missing method (RFC 7636 §4.3 would default it to plain).
 */
export function challengeProblem(challenge: string | undefined, method: string | undefined): string | null {
  if (!challenge) return 'code_challenge is required (PKCE, S256)';
  if (method !== 'S256') return 'code_challenge_method must be S256';
  if (!S256_CHALLENGE.test(challenge)) return 'code_challenge must be a base64url SHA-256 digest';
  return null;
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) must equal the stored challenge. */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !VERIFIER.test(verifier)) return false;
  return safeEqual(hash('sha256', verifier, 'base64url'), challenge);
}
