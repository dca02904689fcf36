import { exchange } from '../../core/http/client.ts';
import type { ResolvedDestination } from '../../core/http/ssrf.ts';

/** Headers of every delivery besides its own (signature, ids, attempt). */
const WEBHOOK_HEADERS = { 'content-type': 'application/json', 'user-agent': 'Purser-Webhooks/1.0' };

/** How many bytes of a receiver's answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type SendResult =
  | { ok: boolean; statusCode: number; excerpt: string | null; durationMs: number; error: null }
  | { ok: false; statusCode: null; excerpt: null; durationMs: number; error: string };

/**
 * POSTs the body to the URL through the one outgoing client (core/http/client.ts), connecting to the
 * address the SSRF guard checked. Any 2xx is success; another status, a network error or no complete
 * answer within `timeoutMs` is a failure. The answer's first bytes are kept for the delivery log when
 * `keepBody` says so (see `DeliveryRunner`).
 */
export async function postWebhook(
  url: URL,
  destination: ResolvedDestination,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  keepBody: boolean,
): Promise<SendResult> {
  const started = performance.now();
  const result = await exchange(
    url,
    destination,
    {
      method: 'POST',
      // Not a spread with keys added: V8 builds that copy slowly, on every delivery.
      headers: Object.assign({}, headers, WEBHOOK_HEADERS),
      body,
    },
    { timeoutMs, read: { maxBytes: RESPONSE_EXCERPT_BYTES, beyond: 'keep' } },
  );
  const durationMs = Math.round(performance.now() - started);
  if (result.kind === 'failure')
    return { ok: false, statusCode: null, excerpt: null, durationMs, error: result.error };
  return {
    ok: result.status >= 200 && result.status < 300,
    statusCode: result.status,
    excerpt: keepBody ? result.body.toString('utf8') : null,
    durationMs,
    error: null,
  };
}
