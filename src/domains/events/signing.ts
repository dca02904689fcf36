import { hmacSha256Hex } from '../../core/crypto.ts';

/** Header names of a delivery (spec §6). */
export const SIGNATURE_HEADER = 'Service-Signature';
export const LEGACY_SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_ID_HEADER = 'Service-Event-Id';
export const DELIVERY_ID_HEADER = 'Service-Delivery-Id';
export const ATTEMPT_HEADER = 'Service-Delivery-Attempt';

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
    `"created":${Math.floor(event.created_at / 1000)},"livemode":${event.livemode === 1},"data":${event.data}}`
  );
}
