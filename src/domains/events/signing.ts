import { createHmac, randomBytes } from 'node:crypto';
import { hmacSha256Hex } from '../../core/crypto.ts';
import { isLivemode } from '../../core/tenant.ts';

/** Header names of a delivery (spec §6). */
export const SIGNATURE_HEADER = 'Service-Signature';
export const LEGACY_SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_ID_HEADER = 'Service-Event-Id';
export const DELIVERY_ID_HEADER = 'Service-Delivery-Id';
export const ATTEMPT_HEADER = 'Service-Delivery-Attempt';

/** How an endpoint's deliveries are signed: the spec's own, or Standard Webhooks (standardwebhooks.com). */
export const SIGNATURE_SCHEMES = ['purser', 'standard_webhooks'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/**
 * A new signing secret: `whsec_` and the base64 of 32 random bytes. The spec's scheme keys its HMAC
 * with the whole string, so any form works there; Standard Webhooks keys with the decoded bytes and
 * its libraries read the part after `whsec_` as base64, so every secret is minted in that form.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The key Standard Webhooks signs with: the secret's base64 part decoded (24 to 64 bytes), or null
 * for a secret minted before secrets took that form (43 characters of base62 text: not padded
 * base64, which libraries that decode strictly refuse): such an endpoint rolls its secret first.
 */
export function standardWebhooksKey(secret: string): Buffer | null {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

/**
 * Spec §6 "Signature": `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the whole
 * `whsec_…` secret, and the legacy `sha256=<hex HMAC of the body>` (no timestamp).
 */
export function signatureHeaders(secret: string, body: string, timestampSeconds: number) {
  return {
    [SIGNATURE_HEADER]: `t=${timestampSeconds},v1=${hmacSha256Hex(secret, `${timestampSeconds}.${body}`)}`,
    [LEGACY_SIGNATURE_HEADER]: `sha256=${hmacSha256Hex(secret, body)}`,
  };
}

/**
 * Standard Webhooks (spec "Signature scheme"): `webhook-id` the message id, the same on every
 * attempt (the event id: receivers dedupe on it), `webhook-timestamp` Unix seconds, and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the secret's
 * decoded bytes.
 */
export function standardWebhooksHeaders(
  key: Buffer,
  messageId: string,
  body: string,
  timestampSeconds: number,
) {
  const signature = createHmac('sha256', key)
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}

/** The signature headers of one attempt, as the endpoint's scheme asks. */
export function signedHeaders(
  scheme: SignatureScheme,
  secret: string,
  event: { id: string; body: string },
  timestampSeconds: number,
): Record<string, string> {
  if (scheme === 'purser') return signatureHeaders(secret, event.body, timestampSeconds);
  const key = standardWebhooksKey(secret);
  // The API refuses the scheme for a secret it cannot use: reaching here is a bug, not a receiver's fault.
  if (!key) throw new Error('the endpoint secret is not a Standard Webhooks secret');
  return standardWebhooksHeaders(key, event.id, event.body, timestampSeconds);
}

/** The delivered body: the spec's envelope, built from the stored `data` text without re-serializing it. */
export function envelopeJson(event: {
  id: string;
  type: string;
  created_at: number;
  livemode: number;
  data: string;
}): string {
  return (
    `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},` +
    `"created":${Math.floor(event.created_at / 1000)},"livemode":${isLivemode(event.livemode)},"data":${event.data}}`
  );
}
