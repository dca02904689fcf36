import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedDestination } from '../../core/ssrf.ts';

/** How many bytes of a receiver's answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type SendResult =
  | { ok: boolean; statusCode: number; excerpt: string | null; durationMs: number; error: null }
  | { ok: false; statusCode: null; excerpt: null; durationMs: number; error: string };

// Keep-alive pools: a receiver taking thousands of deliveries is not paying a handshake for each.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * POSTs the body to the URL, connecting to the address the SSRF guard checked (never resolving the
 * name again), without following redirects. Any 2xx is success; another status, a network error or
 * no complete answer within `timeoutMs` is a failure. The answer's first bytes are kept for the
 * delivery log when `keepBody` says so (see `DeliveryRunner`).
 */
export function postWebhook(
  url: URL,
  destination: ResolvedDestination,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  keepBody: boolean,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Node may ask for every address (`all`, for happy eyeballs) or for one.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
  const secure = url.protocol === 'https:';
  const payload = Buffer.from(body, 'utf8');

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const fail = (error: string) =>
      finish({ ok: false, statusCode: null, excerpt: null, durationMs: elapsed(), error });

    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        lookup: pinned,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'Purser-Webhooks/1.0',
        },
      },
      (response) => {
        const statusCode = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () =>
          finish({
            ok: statusCode >= 200 && statusCode < 300,
            statusCode,
            excerpt: keepBody ? Buffer.concat(chunks).toString('utf8') : null,
            durationMs: elapsed(),
            error: null,
          });
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_EXCERPT_BYTES) {
            const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept);
            chunks.push(part);
            kept += part.length;
          }
          // Enough to log; the rest of a large answer is not worth reading.
          if (kept >= RESPONSE_EXCERPT_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', () => done());
      },
    );
    const timer = setTimeout(() => {
      fail(`timeout: no answer within ${timeoutMs} ms`);
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      fail(`network error: ${error.code ?? error.message}`),
    );
    request.end(payload);
  });
}

export type FetchedDocument =
  | { ok: true; statusCode: number; contentType: string; cacheControl: string; body: string }
  | { ok: false; error: string };

/**
 * GETs a small document (a Client ID Metadata Document) from the address the SSRF guard checked,
 * like `postWebhook`: pinned address, no redirects followed, at most `maxBytes` read and a whole
 * answer within `timeoutMs`, else a failure. `ca` adds trusted authorities (private PKI).
 */
export function getDocument(
  url: URL,
  destination: ResolvedDestination,
  limits: { timeoutMs: number; maxBytes: number; ca?: string | undefined },
): Promise<FetchedDocument> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: FetchedDocument) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (secure ? https : http).request(
      url,
      {
        method: 'GET',
        // A private CA needs its own agent; otherwise the shared pool.
        ...(limits.ca ? { ca: limits.ca, agent: false } : { agent: secure ? agents.https : agents.http }),
        lookup: pinned,
        headers: { accept: 'application/json', 'user-agent': 'Purser-OAuth/1.0' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            finish({ ok: false, error: `larger than ${limits.maxBytes} bytes` });
            response.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish({
            ok: true,
            statusCode: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            cacheControl: String(response.headers['cache-control'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', (error) => finish({ ok: false, error: `network error: ${error.message}` }));
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, error: `timeout: no answer within ${limits.timeoutMs} ms` });
      request.destroy();
    }, limits.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, error: `network error: ${error.code ?? error.message}` }),
    );
    request.end();
  });
}
