import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { edgeCredentials, expectRefusal, routes } from './edge-helpers.ts';

let t: TestApp;
let headers: (url: string) => Record<string, string>;
const REVIEWER = 'reviewer-token-0123456789abcdefghij';
const METRICS = 'metrics-token-0123456789';

beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: '4096', KYC_REVIEWER_TOKEN: REVIEWER, METRICS_TOKEN: METRICS });
  headers = await edgeCredentials(t, { reviewer: REVIEWER, metrics: METRICS });
});
afterAll(() => t.close());

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('malformed requests on every route answer in the one error body', () => {
  it('bad bodies, media types, charsets, sizes, long ids and methods', async () => {
    for (const { method, url } of routes(t.app)) {
      const path = url.replace(/:(\w+)/g, 'x1');
      const send = (extra: Record<string, unknown>) =>
        t.request({ method: method as 'GET', url: path, ...extra });
      if (url.includes(':')) {
        const long = await send({ url: url.replace(/:(\w+)/g, 'x'.repeat(500)), headers: headers(url) });
        expect(long.statusCode, url).toBe(414);
        if (method !== 'HEAD') expectRefusal(url, long);
        if (method !== 'HEAD') expect(long.json().error.code).toBe('uri_too_long');
      }
      const duplicate = await send({
        url: `${path}?limit=1&limit=2&user_id=a&user_id=b`,
        headers: headers(url),
      });
      expect(duplicate.statusCode, url).toBeLessThan(500);
      // Hosted pages answer a malformed query with an HTML page, for the person in the browser.
      const page =
        url.startsWith('/kyc/verify/:') ||
        url.startsWith('/wallet/:') ||
        url.startsWith('/vault/:') ||
        url.startsWith('/passkeys/reset/:') ||
        url.startsWith('/onboarding/:') ||
        url.startsWith('/platform-connect/:') ||
        url.startsWith('/dashboard') ||
        url.startsWith('/approve/:') ||
        url.startsWith('/mandates/:') ||
        url.startsWith('/merchant-accounts/') ||
        url === '/authorize' ||
        url.startsWith('/authorize/') ||
        url === '/apps';
      if (duplicate.statusCode >= 400 && method !== 'HEAD' && !page) expectRefusal(url, duplicate);
      if (!WITH_BODY.has(method)) continue;
      const cases: [string, string | undefined, string, number[]][] = [
        ['bad JSON', 'application/json', '{"a": ', [400]],
        ['JSON with trailing text', 'application/json', '{"a": 1} x', [400]],
        ['plain text', 'text/plain', 'a=b', [415]],
        ['XML', 'application/xml', '<a/>', [415]],
        ['no content type', undefined, '{"a":1}', [415]],
        ['latin-1 JSON', 'application/json; charset=iso-8859-1', '{"a":"\u00e9"}', [415]],
        ['UTF-16 JSON', 'application/json; charset="utf-16"', '{}', [415]],
        ['too large', 'application/json', JSON.stringify({ a: 'x'.repeat(20_000_000) }), [413]],
      ];
      // An empty body sent as JSON is refused where the route takes a body; elsewhere it is no body.
      const empty = await send({
        headers: { ...headers(url), 'content-type': 'application/json' },
        payload: '',
      });
      if (empty.statusCode !== 400) {
        const none = await send({ headers: headers(url) });
        expect(empty.statusCode, `${method} ${url} empty JSON`).toBe(none.statusCode);
      }
      if (empty.statusCode >= 400 && !page) expectRefusal(url, empty);
      for (const [name, type, payload, statuses] of cases) {
        const res = await send({
          headers: { ...headers(url), ...(type ? { 'content-type': type } : {}) },
          payload,
        });
        // The token endpoint also parses forms; others read JSON only.
        if (url === '/api/v2/oauth/token' && name === 'no content type') continue;
        expect(statuses, `${method} ${url} ${name}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(
          res.statusCode,
        );
        expectRefusal(url, res);
      }
    }
  }, 180_000);

  it('answers a known path with an unknown method 405 with Allow, and HEAD like GET without a body', async () => {
    const options = await t.call('OPTIONS', '/api/v2/events', { headers: headers('/api/v2/events') });
    expect(options.statusCode).toBe(405);
    expect(options.headers.allow).toBe('GET, HEAD');
    expectRefusal('/api/v2/events', options);
    const head = await t.call('HEAD', '/api/v2/events', { headers: headers('/api/v2/events') });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const headUnauth = await t.call('HEAD', '/api/v2/events');
    expect(headUnauth.statusCode).toBe(401);
  });

  it('checks the text of a request no route matches as a route would: a bad query is a 400, not a 404', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.call(method, '/api/v2/nowhere?note=%zz');
      expect(res.statusCode, method).toBe(400);
      expect(res.json().error.field_errors).toEqual({ note: 'is not valid percent-encoded UTF-8' });
    }
    expect((await t.call('GET', '/api/v2/nowhere?note=ok')).statusCode).toBe(404);
  });
});

describe('what Node answers before the app sees the request', () => {
  async function raw(request: string): Promise<string> {
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const socket = connect(port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk;
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(request);
    await new Promise((resolve) => socket.once('close', resolve));
    return response;
  }

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

  it('headers over 16 KiB: 431 in the error body', async () => {
    const response = await raw(`GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(response).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(response).error.code).toBe('request_header_fields_too_large');
  });

  it('a malformed request or a NUL in a header: 400 in the error body', async () => {
    for (const request of [
      'BREW /\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: a\r\nIdempotency-Key: a\u0000b\r\n\r\n',
    ]) {
      const response = await raw(request);
      expect(response).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(response).error).toMatchObject({
        code: 'invalid_request',
        field_errors: {},
        warnings: [],
      });
    }
  });

  it('a request id is kept only when it is a short safe token', async () => {
    const kept = await t.call('GET', '/healthz', { headers: { 'x-request-id': 'abc-123.X_9' } });
    expect(kept.headers['x-request-id']).toBe('abc-123.X_9');
    for (const hostile of ['a'.repeat(65), 'two words', 'caf\u00e9', 'a\tb', '', '../../etc', 'a;b', '<x>']) {
      const res = await t.call('GET', '/healthz', { headers: { 'x-request-id': hostile } });
      expect(res.headers['x-request-id'], hostile).toMatch(/^req_[0-9a-f]{32}$/);
    }
    // CRLF never reaches a header: Node refuses the request line itself.
    const response = await raw('GET /healthz HTTP/1.1\r\nHost: a\r\nX-Request-Id: a\rInjected: 1\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(response).not.toMatch(/Injected/);
  });
});
