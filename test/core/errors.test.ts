import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: '4096' });
  token = await t.platformToken((await t.createOrg()).sandbox);
});
afterAll(() => t.close());

/** Every v2 error has exactly this body; nothing else (no stack, no internal name) leaks. */
function expectErrorBody(body: unknown, code: string) {
  expect(body).toEqual({
    error: {
      code,
      message: expect.any(String),
      docs: `http://purser.test/docs/errors#${code}`,
      field_errors: expect.any(Object),
      warnings: expect.any(Array),
    },
  });
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/FST_|at .*\.ts|node_modules|SyntaxError|stack/);
}

describe('the v2 error body', () => {
  it('answers unknown routes with 404 not_found', async () => {
    const res = await t.call('GET', '/api/v2/nothing-here', { token });
    expect(res.statusCode).toBe(404);
    expectErrorBody(res.json(), 'not_found');
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const res = await t.call('DELETE', '/api/v2/connect/start', { token });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expectErrorBody(res.json(), 'method_not_allowed');
    const get = await t.call('PUT', '/api/v2', { token, body: {} });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toContain('GET');
  });

  it('answers a wrong method on a token endpoint in the OAuth error body (RFC 6749 §5.2)', async () => {
    const res = await t.call('GET', '/api/v2/oauth/token');
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain('POST');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ error: 'method_not_allowed', error_description: expect.any(String) });
  });

  it('refuses a body with fields on an operation that takes none; no body or {} is none', async () => {
    const close = (payload?: unknown) =>
      t.call('POST', '/api/v2/cards/card_nope/close', {
        token,
        ...(payload === undefined ? {} : { body: payload }),
      });
    const extra = await close({ reason: 'lost' });
    expectErrorBody(extra.json(), 'invalid_request');
    expect(extra.json().error.field_errors).toEqual({ reason: 'is not a recognised field' });
    expect((await close([1])).json().error.field_errors).toEqual({
      body: 'must be empty: this operation takes none',
    });
    // Nothing to refuse: the card is looked up, and there is none.
    expect((await close({})).statusCode).toBe(404);
    expect((await close()).statusCode).toBe(404);
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v2/connect/start',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res.json(), 'invalid_request');
  });

  it('answers an unsupported media type with 415', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v2/connect/start',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        payload: 'email=a@b.test',
      });
      expect(res.statusCode, type).toBe(415);
      expectErrorBody(res.json(), 'unsupported_media_type');
    }
  });

  it('answers an oversize body with 413 and changes nothing', async () => {
    const res = await t.call('POST', '/api/v2/connect/start', {
      token,
      body: { email: 'big@example.com', external_user_id: 'x'.repeat(5000) },
    });
    expect(res.statusCode).toBe(413);
    expectErrorBody(res.json(), 'payload_too_large');
    const attempts = await t.ctx.db
      .selectFrom('connect_attempts')
      .selectAll()
      .where('email', '=', 'big@example.com')
      .execute();
    expect(attempts).toHaveLength(0);
  });

  it('names each bad field in field_errors', async () => {
    const res = await t.call('POST', '/api/v2/connect/verify', { token, body: { code: '1234567890123' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expectErrorBody(body, 'invalid_request');
    expect(Object.keys(body.error.field_errors).sort()).toEqual(['code', 'connect_id']);
    expect(body.error.field_errors.code).toMatch(/12/);
  });

  it('answers a body that is not an object with invalid_request', async () => {
    const res = await t.call('POST', '/api/v2/connect/verify', { token, body: ['x'] });
    expect(res.statusCode).toBe(400);
    expectErrorBody(res.json(), 'invalid_request');
  });

  it('validates a JSON body as sent (no type coercion), while query strings are read from text', async () => {
    // A number where the spec says string, a string where it says a list: 400, not converted.
    const res = await t.call('POST', '/api/v2/connect/verify', {
      token,
      body: { connect_id: 'cat_x', code: 111111 },
    });
    expectErrorBody(res.json(), 'invalid_request');
    expect(Object.keys(res.json().error.field_errors)).toEqual(['code']);
    const list = await t.call('PUT', '/api/v2/embed_origins', {
      token,
      body: { origins: 'https://a.example' },
    });
    expect(list.statusCode).toBe(400);
    expect(Object.keys(list.json().error.field_errors)).toEqual(['origins']);
    // `?limit=2` is a number and a single `?type=` a list of one.
    expect((await t.call('GET', '/api/v2/events?limit=2&type=card.*', { token })).statusCode).toBe(200);
  });

  it('checks authentication before the body', async () => {
    const res = await t.call('POST', '/api/v2/connect/verify', { body: {} });
    expect(res.statusCode).toBe(401);
    expectErrorBody(res.json(), 'unauthorized');
  });

  it('renders the token endpoint errors in the OAuth body, also for framework errors', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/api/v2/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"grant_type":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    const media = await t.request({
      method: 'POST',
      url: '/api/v2/oauth/token',
      headers: { 'content-type': 'text/plain' },
      payload: 'grant_type=client_credentials',
    });
    expect(media.statusCode).toBe(415);
    expect(media.json().error).toBe('unsupported_media_type');
    expect(media.json().error_description).toMatch(/x-www-form-urlencoded/);
  });

  it('echoes a request id on every response, honouring a sane incoming one', async () => {
    const own = await t.call('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(own.headers['x-request-id']).toBe('abc-123');
    const generated = await t.call('GET', '/healthz', { headers: { 'x-request-id': 'bad id\n' } });
    expect(generated.headers['x-request-id']).toMatch(/^req_/);
  });
});
