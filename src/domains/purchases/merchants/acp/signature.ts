import { createHmac, timingSafeEqual } from 'node:crypto';

/** openapi.agentic_checkout_webhook.yaml: "Recommended timestamp tolerance is 300 seconds". */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const HEADER = /^t=(\d{1,12}),v1=([a-fA-F0-9]{64})$/;

/**
 * Verifies an ACP order webhook's `Merchant-Signature: t=<unix seconds>,v1=<hex>` header:
 * HMAC-SHA256 with the merchant's webhook secret over `<t>.<raw body>`, compared in constant time,
 * refused when `t` is more than the tolerance away from now (a replay or a skewed clock).
 */
export function verifyMerchantSignature(
  secret: string,
  header: string | string[] | undefined,
  rawBody: string,
  nowMs: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): 'ok' | 'missing' | 'malformed' | 'stale' | 'mismatch' {
  if (header === undefined) return 'missing';
  if (Array.isArray(header)) return 'malformed';
  const match = HEADER.exec(header.trim());
  if (!match) return 'malformed';
  const timestamp = Number(match[1]);
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return 'stale';
  const expected = createHmac('sha256', secret).update(`${match[1]}.${rawBody}`, 'utf8').digest();
  const given = Buffer.from(match[2]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'mismatch';
}
