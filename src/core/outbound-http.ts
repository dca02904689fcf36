import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type DestinationPolicy, DestinationRefused, type HostResolver, resolveDestination } from './ssrf.ts';

/** An answer larger than this is not an answer (a checkout session, a chat completion: a few kB). */
export const MAX_ANSWER_BYTES = 1_000_000;

export type OutboundAnswer =
  /** The destination answered: a status and the JSON body (null when empty or not JSON). */
  | { kind: 'answer'; status: number; body: unknown; headers: http.IncomingHttpHeaders }
  /**
   * No answer. `sent`: the request may have reached the destination (a timeout or a connection
   * lost after the request was written), so it may have acted; false when it surely did not
   * (refused destination, DNS failure, connection refused).
   */
  | { kind: 'failure'; sent: boolean; error: string };

/** Where a client may go and how it finds the address: what a client of a configured service keeps. */
export interface OutboundGuard {
  /** Where the destination may be: the outbound policy (core/outbound.ts), checked by core/ssrf.ts. */
  policy: DestinationPolicy;
  resolveHost?: HostResolver;
}

export interface OutboundOptions extends OutboundGuard {
  timeoutMs: number;
  /** Ends the call early (a caller's own deadline); it then fails as a timeout does. */
  signal?: AbortSignal;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * The outgoing HTTP client of every call to a merchant or a provider (the webhook sender,
 * events/sender.ts, works the same way): the host is resolved and checked by the SSRF guard under
 * the outbound policy, the connection goes to that checked address only, redirects are not followed,
 * and a whole answer must arrive within `timeoutMs`. Plain http is used only to a private address the
 * operator allowed (a service inside its network): keys, cards and messages never cross the internet
 * in clear.
 */
export async function guardedRequest(
  url: URL,
  request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  options: OutboundOptions,
): Promise<OutboundAnswer> {
  let destination: Awaited<ReturnType<typeof resolveDestination>>;
  try {
    destination = await resolveDestination(url, options.policy, options.resolveHost);
  } catch (error) {
    if (error instanceof DestinationRefused) return { kind: 'failure', sent: false, error: error.message };
    throw error;
  }
  const secure = url.protocol === 'https:';
  if (!secure && destination.kind === 'public') {
    return { kind: 'failure', sent: false, error: 'a public destination must be reached over https' };
  }
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
  const payload = request.body === undefined ? null : Buffer.from(request.body, 'utf8');

  return new Promise((resolve) => {
    let settled = false;
    let written = false;
    const finish = (answer: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', timeUp);
      resolve(answer);
    };
    const outgoing = (secure ? https : http).request(
      url,
      {
        method: request.method,
        agent: secure ? agents.https : agents.http,
        lookup: pinned,
        headers: {
          ...request.headers,
          accept: 'application/json',
          ...(payload ? { 'content-length': String(payload.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            finish({ kind: 'failure', sent: true, error: `answer larger than ${MAX_ANSWER_BYTES} bytes` });
            response.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = null;
          try {
            body = text === '' ? null : JSON.parse(text);
          } catch {
            body = null;
          }
          finish({ kind: 'answer', status: response.statusCode ?? 0, body, headers: response.headers });
        });
        response.on('error', (error) => finish({ kind: 'failure', sent: true, error: error.message }));
      },
    );
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
      // Refused or unreachable before a byte left: the merchant cannot have acted on it.
      const notSent =
        !written && ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH'].includes(error.code ?? '');
      finish({ kind: 'failure', sent: !notSent, error: `network error: ${error.code ?? error.message}` });
    });
    outgoing.end(payload ?? undefined);
  });
}
