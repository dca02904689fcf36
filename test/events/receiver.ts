import { createHmac, randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers the next request: a status, after an optional delay (or never). */
export type Answer =
  | { status: number; delayMs?: number; body?: string; headers?: Record<string, string> }
  | 'hang';

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as told. */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received) => Answer = () => ({ status: 200, body: 'ok' });
  private server!: http.Server;
  private readonly waiters: { count: number; resolve: () => void }[] = [];

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    receiver.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = {
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        receiver.received.push(request);
        for (const w of receiver.waiters.filter((w) => receiver.received.length >= w.count)) w.resolve();
        const answer = receiver.answer(request);
        if (answer === 'hang') return;
        setTimeout(
          () => res.writeHead(answer.status, answer.headers).end(answer.body ?? ''),
          answer.delayMs ?? 0,
        );
      });
    });
    receiver.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  eventIds(): string[] {
    return this.received.map((r) => JSON.parse(r.body).id as string);
  }

  waitFor(count: number, timeoutMs = 20_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`receiver saw ${this.received.length} of ${count}`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** An independent check of spec §6 "Signature", written from the spec, not from our signer. */
export function expectedSignatures(secret: string, body: string, t: number) {
  const hex = (message: string) => createHmac('sha256', secret).update(message).digest('hex');
  return { current: `t=${t},v1=${hex(`${t}.${body}`)}`, legacy: `sha256=${hex(body)}` };
}

export const testEncryptionKey = () => randomBytes(32).toString('base64');
