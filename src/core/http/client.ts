import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  type DestinationPolicy,
  DestinationRefused,
  type HostResolver,
  type ResolvedDestination,
  resolveDestination,
} from './ssrf.ts';

/**
 * The one outgoing HTTP client. Every call Purser makes goes through `exchange` (webhook deliveries,
 * events/sender.ts) or `guardedRequest` (merchants, their account linking, the messaging provider,
 * the SMS API, the identity-review provider, the language model, Client ID Metadata Documents): the
 * connection goes to the address the SSRF guard checked (ssrf.ts, under the policy of policy.ts) and
 * nowhere else, redirects are not followed, and a whole answer must arrive within the timeout.
 */

/** An answer larger than this is not an answer (a checkout session, a chat completion: a few kB). */
export const MAX_ANSWER_BYTES = 1_000_000;

export type OutboundAnswer =
  /**
   * The destination answered: a status, the JSON body (null when empty or not JSON) and the body's
   * text as received.
   */
  | { kind: 'answer'; status: number; body: unknown; text: string; headers: http.IncomingHttpHeaders }
  /**
   * No answer. `sent`: the request may have reached the destination (a timeout or a connection
   * lost after the request was written), so it may have acted; false when it surely did not
   * (refused destination, DNS failure, connection refused).
   */
  | { kind: 'failure'; sent: boolean; error: string };

/** Where a client may go and how it finds the address: what a client of a configured service keeps. */
export interface OutboundGuard {
  /** Where the destination may be: the outbound policy (core/http/policy.ts), checked by ssrf.ts. */
  policy: DestinationPolicy;
  resolveHost?: HostResolver;
}

export interface OutboundOptions extends OutboundGuard {
  timeoutMs: number;
  /** Ends the call early (a caller's own deadline); it then fails as a timeout does. */
  signal?: AbortSignal | undefined;
  /** The largest answer read; a larger one is a failure. `MAX_ANSWER_BYTES` unless given. */
  maxBytes?: number;
  /** Authorities trusted besides the system's (a private PKI), in PEM. */
  ca?: string | undefined;
}

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** What `exchange` reads of an answer: at most `maxBytes`, then a failure, or (`keep`) the first bytes only. */
export interface ReadLimit {
  maxBytes: number;
  /** `fail`: a larger answer is no answer. `keep`: keep the first `maxBytes` and stop reading. */
  beyond: 'fail' | 'keep';
}

export type Exchange =
  /** `complete`: false when the connection broke after the status (the body may be cut). */
  | { kind: 'answer'; status: number; headers: http.IncomingHttpHeaders; body: Buffer; complete: boolean }
  | { kind: 'failure'; sent: boolean; error: string };

// Keep-alive pools: a receiver taking thousands of deliveries is not paying a handshake for each.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/** Errors raised before a byte left: the destination cannot have acted on the request. */
const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH'];

/**
 * One request to the address the SSRF guard resolved and checked (never resolving the name again),
 * without following redirects, within `timeoutMs` (or until `signal` aborts).
 */
export function exchange(
  url: URL,
  destination: ResolvedDestination,
  request: OutboundRequest,
  options: { timeoutMs: number; read: ReadLimit; signal?: AbortSignal | undefined; ca?: string | undefined },
): Promise<Exchange> {
  // Node may ask for every address (`all`, for happy eyeballs) or for one.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
  const secure = url.protocol === 'https:';
  const payload = request.body === undefined ? null : Buffer.from(request.body, 'utf8');
  const { maxBytes, beyond } = options.read;

  return new Promise((resolve) => {
    let settled = false;
    let written = false;
    const finish = (result: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', timeUp);
      resolve(result);
    };
    // Built without spreads: V8 copies a spread object and then adds keys to it slowly, and this runs
    // for every webhook delivery.
    const headers = Object.assign({}, request.headers);
    if (payload) headers['content-length'] = String(payload.length);
    const requestOptions: https.RequestOptions = { method: request.method, lookup: pinned, headers };
    // A private CA needs its own agent; otherwise the shared pool.
    if (options.ca) {
      requestOptions.ca = options.ca;
      requestOptions.agent = false;
    } else {
      requestOptions.agent = secure ? agents.https : agents.http;
    }
    const outgoing = (secure ? https : http).request(url, requestOptions, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (complete: boolean) =>
        finish({
          kind: 'answer',
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
          complete,
        });
      response.on('data', (chunk: Buffer) => {
        if (size + chunk.length > maxBytes) {
          if (beyond === 'fail') {
            finish({ kind: 'failure', sent: true, error: `answer larger than ${maxBytes} bytes` });
          } else {
            // Enough to keep; the rest of a large answer is not worth reading.
            chunks.push(chunk.subarray(0, maxBytes - size));
            size = maxBytes;
            answer(true);
          }
          response.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => answer(true));
      response.on('error', () => answer(false));
    });
    outgoing.on('finish', () => {
      written = true;
    });
    const timeUp = () => {
      finish({ kind: 'failure', sent: true, error: `timeout: no answer within ${options.timeoutMs} ms` });
      outgoing.destroy();
    };
    const timer = setTimeout(timeUp, options.timeoutMs);
    options.signal?.addEventListener('abort', timeUp, { once: true });
    if (options.signal?.aborted) timeUp();
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const notSent = !written && NOT_SENT.includes(error.code ?? '');
      finish({ kind: 'failure', sent: !notSent, error: `network error: ${error.code ?? error.message}` });
    });
    outgoing.end(payload ?? undefined);
  });
}

/**
 * A JSON call to a merchant, a provider or a published document: the host is resolved and checked
 * under `options.policy` first. Plain http is used only to a private address the policy allowed (a
 * service inside the operator's network): keys, cards and messages never cross the internet in clear.
 */
export async function guardedRequest(
  url: URL,
  request: OutboundRequest,
  options: OutboundOptions,
): Promise<OutboundAnswer> {
  let destination: ResolvedDestination;
  try {
    destination = await resolveDestination(url, options.policy, options.resolveHost);
  } catch (error) {
    if (error instanceof DestinationRefused) return { kind: 'failure', sent: false, error: error.message };
    throw error;
  }
  if (url.protocol !== 'https:' && destination.kind === 'public') {
    return { kind: 'failure', sent: false, error: 'a public destination must be reached over https' };
  }
  const result = await exchange(
    url,
    destination,
    { ...request, headers: { ...request.headers, accept: 'application/json' } },
    {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      ca: options.ca,
      read: { maxBytes: options.maxBytes ?? MAX_ANSWER_BYTES, beyond: 'fail' },
    },
  );
  if (result.kind === 'failure') return result;
  if (!result.complete) return { kind: 'failure', sent: true, error: 'network error: the answer was cut' };
  const text = result.body.toString('utf8');
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { kind: 'answer', status: result.status, body, text, headers: result.headers };
}
