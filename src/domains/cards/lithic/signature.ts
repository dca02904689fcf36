import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a webhook's timestamp may be from our clock, either way (Standard Webhooks' default). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature` holds one or more
 * `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by the
 * base64 part of the `whsec_` secret. Checked against our clock, so a replay older than the
 * tolerance is refused even with a good signature.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  now: number,
): boolean {
  const id = single(headers['webhook-id']);
  const timestamp = single(headers['webhook-timestamp']);
  const signatures = single(headers['webhook-signature']);
  if (!id || !timestamp || !signatures || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp) * 1000) > SIGNATURE_TOLERANCE_MS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
