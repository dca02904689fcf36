import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifying Purser webhooks. Every delivery carries
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the
 * endpoint's `whsec_…` secret. Verify against the raw body bytes as received, never re-serialized JSON.
 */

/** Spec §6: a timestamp further than this from now is refused (replay protection). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** The current time: a Date, or Unix seconds. Defaults to the system clock. */
  now?: Date | number;
}

/** The envelope of every event. */
export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: T;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type RawBody = string | Uint8Array;
type Header = string | string[] | null | undefined;

function parseHeader(header: Header): { timestamp: number; signatures: string[] } | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(val)) timestamp = Number(val);
    // Several v1 entries may appear; any one matching is enough.
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(val)) signatures.push(val.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

function nowSeconds(now: Date | number | undefined): number {
  if (now instanceof Date) return Math.floor(now.getTime() / 1000);
  if (typeof now === 'number') return Math.floor(now);
  return Math.floor(Date.now() / 1000);
}

/**
 * True when `header` is a valid signature of `rawBody` by one of the secrets (a list allows
 * zero-downtime rotation across two endpoints) within the tolerance. Never throws: a missing or
 * malformed header, a stale timestamp or a wrong signature is simply false. Compares in constant time.
 */
export function verifySignature(
  rawBody: RawBody,
  header: Header,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): boolean {
  try {
    const parsed = parseHeader(header);
    if (!parsed) return false;
    const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    if (Math.abs(nowSeconds(options.now) - parsed.timestamp) > tolerance) return false;
    const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
    const secrets = (typeof secret === 'string' ? [secret] : [...secret]).filter(
      (s) => typeof s === 'string' && s.length > 0,
    );
    let matched = false;
    for (const key of secrets) {
      const expected = createHmac('sha256', key).update(`${parsed.timestamp}.`).update(body).digest();
      for (const signature of parsed.signatures) {
        // Both are 32 bytes (the header's hex was checked), so timingSafeEqual cannot throw.
        if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) matched = true;
      }
    }
    return matched;
  } catch {
    return false;
  }
}

/** Verifies, then parses the body. Throws `WebhookVerificationError` when the signature does not hold. */
export function constructEvent<T = Record<string, unknown>>(
  rawBody: RawBody,
  header: Header,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent<T> {
  if (!verifySignature(rawBody, header, secret, options)) {
    throw new WebhookVerificationError('The webhook signature is missing, stale or does not match.');
  }
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('The webhook body is not JSON.');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { id?: unknown }).id !== 'string') {
    throw new WebhookVerificationError('The webhook body is not an event.');
  }
  return event as WebhookEvent<T>;
}
