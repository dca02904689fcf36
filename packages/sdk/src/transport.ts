import { randomUUID } from 'node:crypto';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). 0 turns retrying off. */
  retries?: number;
  /** The first backoff; each retry doubles it, with jitter (default 250 ms). */
  minDelayMs?: number;
  /** The longest wait; a `Retry-After` beyond it is not waited for: the answer is returned (default 5 s). */
  maxDelayMs?: number;
}

/** RFC 9110 §9.2.1: the methods that may act. The service honours `Idempotency-Key` on each of them. */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Answers worth another attempt: rate limited, the service unavailable or failing (a 5xx is never
 * kept with an idempotency key: the retry acts anew, once), or the same key still running.
 */
async function retryable(response: Response): Promise<boolean> {
  if (response.status === 429 || (response.status >= 500 && response.status !== 501)) return true;
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: { code?: string } } | null;
  return body?.error?.code === 'idempotency_key_in_use';
}

/** RFC 9110 §10.2.3: seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(response: Response | null): number | null {
  const value = response?.headers.get('retry-after');
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * A fetch that makes every call safe to retry and retries it: an unsafe request gets an
 * `Idempotency-Key` (unless the caller set one) before its first attempt, and every attempt sends the
 * same key, so the service acts at most once however many attempts reach it. Network errors, 429 and
 * 5xx are retried with exponential backoff and full jitter, honouring `Retry-After`.
 */
export function retryingFetch(
  base: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const minDelay = options.minDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5_000;
  return async (request) => {
    if (UNSAFE_METHODS.has(request.method) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', randomUUID());
    }
    for (let attempt = 0; ; attempt++) {
      let response: Response | null = null;
      let failure: unknown = null;
      try {
        // A clone per attempt: a body can be read once, and the next attempt sends it again.
        response = await base(request.clone());
      } catch (error) {
        failure = error;
      }
      const again = attempt < retries && (response === null || (await retryable(response)));
      if (!again) {
        if (response) return response;
        throw failure;
      }
      const backoff = Math.random() * Math.min(maxDelay, minDelay * 2 ** attempt);
      const asked = retryAfterMs(response);
      if (asked !== null && asked > maxDelay && response) return response;
      await response?.body?.cancel().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, asked ?? backoff));
    }
  };
}
