import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake provider received. */
export interface SmsRequest {
  method: string;
  path: string;
  /** HTTP Basic credentials, decoded; null when the request had none. */
  basic: { username: string; password: string } | null;
  contentType: string | undefined;
  form: Record<string, string>;
}

export interface FakeSms {
  /** Base URL to use as `SMS_API_URL`. */
  url: string;
  requests: SmsRequest[];
  /** The status every following request is answered with (201 by default). */
  respondWith(status: number): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/**
 * A local Twilio-style SMS API: records `POST /2010-04-01/Accounts/{sid}/Messages.json` form bodies
 * and Basic credentials, and answers with a configurable status.
 */
export async function startFakeSms(): Promise<FakeSms> {
  const requests: SmsRequest[] = [];
  let status = 201;
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const header = request.headers.authorization;
    let basic: SmsRequest['basic'] = null;
    if (header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      basic = { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
    }
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      basic,
      contentType: request.headers['content-type'],
      form: Object.fromEntries(new URLSearchParams(body)),
    });
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(status < 300 ? { sid: 'SM0001', status: 'queued' } : { code: status, message: 'boom' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
