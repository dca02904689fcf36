import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPurser, PurserError, unwrap } from '../src/index.ts';
import { retryingFetch } from '../src/transport.ts';

/** How the flaky server answers the next request: a status (with headers and body), or a cut connection. */
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'cut';

const seen: { method: string; key: string | undefined; body: string }[] = [];
let script: Answer[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method as string,
        key: req.headers['idempotency-key'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = script.shift() ?? { status: 200, body: { ok: true } };
      if (answer === 'cut') return req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  script = [];
});

const send = retryingFetch((request) => fetch(request), { retries: 3, minDelayMs: 1, maxDelayMs: 50 });
const post = (headers: Record<string, string> = {}) =>
  send(
    new Request(`${base}/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{"amount_cents":100}',
    }),
  );
const busy = (code: string) => ({ status: 409, body: { error: { code } } });

describe('retries with one Idempotency-Key', () => {
  it('retries a 503, a 429, a cut connection and a key in use, sending the same key and body each time', async () => {
    script = [
      { status: 503 },
      { status: 429, headers: { 'retry-after': '0' } },
      'cut',
      busy('idempotency_key_in_use'),
    ];
    // Four failures: one attempt more than the retries allow, so it gives up on the fourth.
    expect((await post()).status).toBe(409);
    script = [{ status: 503 }, { status: 429, headers: { 'retry-after': '0' } }, 'cut', { status: 201 }];
    seen.length = 0;
    const response = await post();
    expect(response.status).toBe(201);
    expect(seen).toHaveLength(4);
    const key = seen[0]?.key;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    for (const request of seen)
      expect(request).toEqual({ method: 'POST', key, body: '{"amount_cents":100}' });
  });

  it("keeps the caller's own key", async () => {
    script = [{ status: 502 }];
    await post({ 'idempotency-key': 'order-4711' });
    expect(seen.map((r) => r.key)).toEqual(['order-4711', 'order-4711']);
  });

  it('answers at once what a retry cannot change: a 4xx, another 409, or a Retry-After beyond the longest wait', async () => {
    script = [{ status: 400 }];
    expect((await post()).status).toBe(400);
    script = [busy('card_closed')];
    expect((await post()).status).toBe(409);
    script = [{ status: 503, headers: { 'retry-after': '120' } }];
    expect((await post()).status).toBe(503);
    expect(seen).toHaveLength(3);
  });

  it('sends no key on a GET, and retries it too', async () => {
    script = ['cut'];
    expect((await send(new Request(`${base}/x`))).status).toBe(200);
    expect(seen.map((r) => [r.method, r.key])).toEqual([
      ['GET', undefined],
      ['GET', undefined],
    ]);
  });

  it('throws the network error once the retries are spent', async () => {
    script = ['cut', 'cut', 'cut', 'cut'];
    await expect(post()).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(4);
  });
});

describe('the client over the transport', () => {
  it('gives up after its retries with a PurserError carrying the last answer', async () => {
    const purser = createPurser({ baseUrl: base, retry: { retries: 1, minDelayMs: 1 } }).forUser('bt_user');
    const failure = {
      error: { code: 'unavailable', message: 'Down.', docs: 'd', field_errors: {}, warnings: [] },
    };
    script = [
      { status: 503, body: failure },
      { status: 503, body: failure },
    ];
    const error = await unwrap(purser.POST('/buy', { body: { ask: 'a latte' } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PurserError);
    expect(error).toMatchObject({ status: 503, code: 'unavailable', message: 'Down.' });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.key).toBe(seen[1]?.key);
  });
});
