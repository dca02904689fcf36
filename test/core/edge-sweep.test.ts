import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { edgeCredentials, expectRefusal, isOAuth, routes } from './edge-helpers.ts';

let t: TestApp;
let headers: (url: string) => Record<string, string>;

const REVIEWER = 'reviewer-token-0123456789abcdefghij';

beforeAll(async () => {
  t = await startTestApp({ KYC_REVIEWER_TOKEN: REVIEWER, METRICS_TOKEN: 'metrics-token-0123456789' });
  headers = await edgeCredentials(t, { reviewer: REVIEWER, metrics: 'metrics-token-0123456789' });
});
afterAll(() => t.close());

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  // On PostgreSQL the test's own schema only (introspection lists every schema's tables).
  const schema = t.ctx.config.databaseUrl.startsWith('postgres')
    ? new URL(t.ctx.config.databaseUrl).searchParams.get('schema')
    : undefined;
  // Left out: rate-limit logs (a refused request still counts against its sender's limit; on
  // PostgreSQL they are rows, one per limiter and address) and the API request log (it records
  // every request, refused ones too, by design).
  const logs = new Set(['rate_limit_logs', 'api_requests']);
  const tables = (await t.ctx.db.introspection.getTables()).filter(
    (table) => (!schema || table.schema === schema) && !logs.has(table.name),
  );
  expect(tables.length).toBeGreaterThan(5);
  for (const table of tables) {
    const row = await t.ctx.db
      .selectFrom(table.name as never)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table.name] = Number(row.n);
  }
  return counts;
}

// NUL, lone high and low surrogates, a reversed pair; as JSON escapes and percent-encoded.
const BAD_JSON = ['a\u0000b', 'a\ud800b', '\udc00', '\udc00\ud800'];
const BAD_PERCENT = ['a%00b', '%00'];
const BAD_UTF8 = ['%ED%A0%80', '%ED%B0%80', '%C3', '%zz', '%'];

describe('the edge refuses NUL and lone surrogates on every route, from every source', () => {
  it('finds the routes', () => {
    expect(routes(t.app).length).toBeGreaterThan(30);
    expect(routes(t.app)).toContainEqual({ method: 'POST', url: '/api/v2/oauth/token' });
    expect(routes(t.app)).toContainEqual({ method: 'GET', url: '/kyc/verify/:token' });
  });

  it('in path parameters, query strings, JSON and form bodies and data headers; nothing changes', async () => {
    const before = await rowCounts();
    for (const { method, url } of routes(t.app)) {
      const params = [...url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
      const fill = (bad?: [string, string]) =>
        url.replace(/:(\w+)/g, (_, name) => (bad && bad[0] === name ? bad[1] : 'x1'));
      const send = (path: string, extra: Record<string, unknown> = {}) =>
        t.request({ method: method as 'GET', url: path, headers: headers(url), ...extra });
      const head = method === 'HEAD';

      for (const name of params) {
        for (const value of BAD_PERCENT) {
          const res = await send(fill([name, value]));
          if (head) expect(res.statusCode, url).toBe(400);
          else expectRefusal(url, res, name);
        }
        for (const value of BAD_UTF8) {
          const res = await send(fill([name, value]));
          if (head) expect(res.statusCode, url).toBe(400);
          else expectRefusal(url, res);
        }
      }
      for (const value of BAD_PERCENT) {
        const res = await send(`${fill()}?user_id=${value}`);
        if (head) expect(res.statusCode, url).toBe(400);
        else expectRefusal(url, res, 'user_id');
        const key = await send(`${fill()}?a${value}=1`);
        if (!head) expectRefusal(url, key);
        expect(key.statusCode, url).toBe(400);
      }
      for (const value of BAD_UTF8) {
        const res = await send(`${fill()}?user_id=${value}`);
        if (head) expect(res.statusCode, url).toBe(400);
        else expectRefusal(url, res, 'user_id');
      }
      if (!head) {
        const res = await send(fill(), { headers: { ...headers(url), 'idempotency-key': 'k\u0000' } });
        // Node refuses a NUL in a header before the app; injected requests reach the edge check.
        expectRefusal(url, res);
      }
      if (method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE') {
        for (const value of BAD_JSON) {
          const json = (body: unknown) =>
            send(fill(), {
              headers: { ...headers(url), 'content-type': 'application/json' },
              payload: JSON.stringify(body),
            });
          expectRefusal(url, await json({ client_id: value }), 'client_id');
          expectRefusal(url, await json({ [`k${value}`]: 'v' }));
          expectRefusal(url, await json({ fields: { name: value } }), 'fields.name');
          expectRefusal(url, await json({ origins: ['https://a.test', value] }), 'origins.1');
        }
        if (isOAuth(url)) {
          // Escapes that do not decode to UTF-8 are refused too, where a lenient parser reads them literally.
          for (const value of [...BAD_PERCENT, ...BAD_UTF8]) {
            const res = await send(url, {
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: `grant_type=client_credentials&client_id=${value}&client_secret=s`,
            });
            expect(res.statusCode).toBe(400);
            expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
            expect(res.json().error_description).toContain('client_id');
          }
        }
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses JSON nested thousands deep on every route that takes a body, never a 5xx', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepObject = `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`;
    let swept = 0;
    for (const { method, url } of routes(t.app)) {
      if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') continue;
      for (const payload of [deep, deepObject]) {
        const res = await t.request({
          method: method as 'POST',
          url: url.replace(/:(\w+)/g, 'x1'),
          headers: { ...headers(url), 'content-type': 'application/json' },
          payload,
        });
        expectRefusal(url, res);
      }
      swept++;
    }
    expect(swept).toBeGreaterThan(30);
    const res = await t.call('POST', '/api/v2/connect/start', {
      headers: headers('/api/v2/connect/start'),
      body: JSON.parse(deepObject),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.field_errors).toEqual({
      ['a.'.repeat(63).concat('a')]: 'is nested more than 64 levels deep',
    });
  });

  it('answers a path id too long to be one (up to the 414 length) 404 on every route that reads one', async () => {
    let swept = 0;
    for (const { method, url } of routes(t.app)) {
      if (method !== 'GET' || !url.includes(':')) continue;
      for (const id of ['x'.repeat(65), 'x'.repeat(100)]) {
        const path = url.replace(/:(\w+)/g, id);
        const res = await t.request({ method: 'GET', url: path, headers: headers(url) });
        expect(res.statusCode, path).toBe(404);
      }
      swept++;
    }
    expect(swept).toBeGreaterThan(10);
  });

  it('in form bodies on every route: a route that reads forms names the field, the others refuse the media type', async () => {
    const before = await rowCounts();
    let readsForms = 0;
    for (const { method, url } of routes(t.app)) {
      if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      const path = url.replace(/:(\w+)/g, 'x1');
      for (const [payload, field] of [
        ['state=a%00b', 'state'],
        ['state=ok&client_id=%ED%A0%80', 'client_id'],
        ['client_id=%F0%9F%98', 'client_id'],
        ['code=%zz', 'code'],
      ] as const) {
        const res = await t.request({
          method: method as 'POST',
          url: path,
          headers: { ...headers(url), 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });
        if (res.statusCode === 415) {
          expectRefusal(url, res);
          continue;
        }
        readsForms += 1;
        expectRefusal(url, res, isOAuth(url) ? undefined : field);
        if (isOAuth(url)) expect(res.json().error_description, url).toContain(field);
      }
    }
    // The token endpoints, the consent and sign-in forms and the hosted pages all read forms.
    expect(readsForms).toBeGreaterThan(40);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a form body whose raw bytes are not UTF-8, and still reads good forms (repeated names too)', async () => {
    const form = (payload: string | Buffer) =>
      t.request({
        method: 'POST',
        url: '/api/v2/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const raw = Buffer.concat([
      Buffer.from('grant_type=client_credentials&client_id=a'),
      Buffer.from([0xff]),
      Buffer.from('&client_secret=s'),
    ]);
    const refused = await form(raw);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'invalid_request', error_description: 'body is not UTF-8.' });
    // A well-formed escape of a real character is read as that character (and the client is unknown).
    const unknown = await form('grant_type=client_credentials&client_id=caf%C3%A9+x&client_secret=s');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('invalid_client');
    // A repeated parameter is an array, which the schema refuses (RFC 6749 §3.1: sent at most once).
    const repeated = await form(
      'grant_type=client_credentials&grant_type=client_credentials&client_id=c&client_secret=s',
    );
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().error).toBe('invalid_request');
  });

  it('names a bad Basic credential on the token endpoint in the OAuth body', async () => {
    for (const credentials of ['a\u0000b:secret', 'cli_x:s%00']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v2/oauth/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        },
        payload: 'grant_type=client_credentials',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    }
  });

  it('still accepts well-formed text outside the BMP and ordinary escapes', async () => {
    expect((await t.call('GET', '/healthz?note=%F0%9F%98%80+a%20b&x')).statusCode).toBe(200);
    const paired = await t.request({
      method: 'POST',
      url: '/api/v2/connect/start',
      headers: { ...headers('/api/v2/connect/start'), 'content-type': 'application/json' },
      payload: '{"email":"a@b.test","external_user_id":"\\ud83d\\ude00 ok"}',
    });
    expect(paired.statusCode).toBe(201);
  });
});
