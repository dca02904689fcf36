import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  type DestinationPolicy,
  DestinationRefused,
  type HostResolver,
  resolveDestination,
} from '../../../events/ssrf.ts';

/** A merchant's answer larger than this is not an answer (a checkout session is a few kB). */
export const MAX_ANSWER_BYTES = 1_000_000;

export type AcpAnswer =
  /** The merchant answered: a status and the JSON body (null when empty or not JSON). */
  | { kind: 'answer'; status: number; body: unknown; headers: http.IncomingHttpHeaders }
  /**
   * No answer. `sent`: the request may have reached the merchant (a timeout or a connection lost
   * after the request was written), so it may have acted; false when it surely did not (refused
   * destination, DNS failure, connection refused).
   */
  | { kind: 'failure'; sent: boolean; error: string };

export interface AcpHttpOptions {
  /** Where the merchant may be: the SSRF guard's policy (events/ssrf.ts). */
  policy: DestinationPolicy;
  resolveHost?: HostResolver;
  timeoutMs: number;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/**
 * One request to a merchant, like the webhook sender (events/sender.ts): the host is resolved and
 * checked by the SSRF guard, the connection goes to that checked address only, redirects are not
 * followed, and a whole answer must arrive within `timeoutMs`. A plain-http merchant is reached
 * only at a private address the operator allowed (a local merchant): the API key and the card
 * never cross the internet in clear.
 */
export async function acpRequest(
  url: URL,
  request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  options: AcpHttpOptions,
): Promise<AcpAnswer> {
  let destination: Awaited<ReturnType<typeof resolveDestination>>;
  try {
    destination = await resolveDestination(url, options.policy, options.resolveHost);
  } catch (error) {
    if (error instanceof DestinationRefused) return { kind: 'failure', sent: false, error: error.message };
    throw error;
  }
  const secure = url.protocol === 'https:';
  if (!secure && destination.kind === 'public') {
    return { kind: 'failure', sent: false, error: 'a public merchant must be reached over https' };
  }
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
  const payload = request.body === undefined ? null : Buffer.from(request.body, 'utf8');

  return new Promise((resolve) => {
    let settled = false;
    let written = false;
    const finish = (answer: AcpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
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
    const timer = setTimeout(() => {
      finish({ kind: 'failure', sent: true, error: `timeout: no answer within ${options.timeoutMs} ms` });
      outgoing.destroy();
    }, options.timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // Refused or unreachable before a byte left: the merchant cannot have acted on it.
      const notSent =
        !written && ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH'].includes(error.code ?? '');
      finish({ kind: 'failure', sent: !notSent, error: `network error: ${error.code ?? error.message}` });
    });
    outgoing.end(payload ?? undefined);
  });
}
