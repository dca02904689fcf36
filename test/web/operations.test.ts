import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalStatusList } from '../../src/core/refusal.ts';
import { ERROR_CATALOG } from '../../src/web/error-catalog.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

let t: TestApp;
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN });
});
afterAll(() => t.close());

describe('operations', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.call('GET', '/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.call('GET', '/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'off' });
  });

  it('counts requests by route and status in Prometheus format, with a latency histogram', async () => {
    await t.call('GET', '/api/v2');
    await t.call('GET', '/api/v2/unknown');
    const res = await t.call('GET', '/metrics', { token: METRICS_TOKEN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/purser_http_requests_total\{route="\/api\/v2",method="GET",status="401"\} 1/);
    expect(res.body).toMatch(/purser_http_requests_total\{route="unmatched",method="GET",status="404"\} 1/);
    expect(res.body).toMatch(
      /purser_http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/v2",method="GET"\}/,
    );
  });

  it('serves /metrics only to the holder of METRICS_TOKEN', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${METRICS_TOKEN}x`,
      `Basic ${METRICS_TOKEN}`,
    ]) {
      const res = await t.call('GET', '/metrics', { headers: authorization ? { authorization } : {} });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json().error.code).toBe('unauthorized');
      expect(res.body).not.toContain('purser_');
    }
  });

  it('without METRICS_TOKEN: open outside production, and no /metrics on a production public port', async () => {
    const open = await startTestApp();
    try {
      const res = await open.call('GET', '/metrics');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('purser_http_requests_total');
    } finally {
      await open.close();
    }
    const production = await startTestApp({
      NODE_ENV: 'production',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    try {
      const res = await production.call('GET', '/metrics');
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    } finally {
      await production.close();
    }
  });

  it('reports not ready when the database is gone', async () => {
    const other = await startTestApp();
    await other.ctx.db.destroy();
    const res = await other.call('GET', '/readyz');
    expect(res.statusCode).toBe(503);
    await other.app.close();
  });
});

describe('documentation', () => {
  it('serves a valid OpenAPI 3.1 document generated from the route schemas', async () => {
    const res = await t.call('GET', '/api/v2/openapi.json');
    expect(res.statusCode).toBe(200);
    const spec = res.json();
    expect(spec.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(spec);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    for (const path of [
      '/api/v2/oauth/token',
      '/api/v2',
      '/api/v2/connect/start',
      '/api/v2/connect/verify',
      '/authorize',
      '/token',
      '/register',
      '/revoke',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      expect(Object.keys(spec.paths)).toContain(path);
    }
    const start = spec.paths['/api/v2/connect/start'].post;
    expect(start.requestBody.content['application/json'].schema.properties.external_user_id.maxLength).toBe(
      255,
    );
    expect(Object.keys(start.responses)).toContain('201');
    expect(spec.paths['/healthz']).toBeUndefined();
  });

  it('serves a readable reference at /docs and the error catalogue at /docs/errors', async () => {
    const docs = await t.call('GET', '/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    const errors = await t.call('GET', '/docs/errors');
    expect(errors.statusCode).toBe(200);
    for (const code of [
      'invalid_connect_attempt',
      'invalid_code',
      'client_credentials_required',
      'unsupported_grant_type',
      'invalid_grant',
      'invalid_target',
    ]) {
      expect(errors.body).toContain(`id="${code}"`);
    }
  });

  it('documents 400 on every operation that takes a body or an Idempotency-Key', async () => {
    const spec = (await t.call('GET', '/api/v2/openapi.json')).json();
    const missing: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, { responses: object }>>(spec.paths))
      for (const [method, operation] of Object.entries(operations))
        if (['post', 'put', 'patch', 'delete'].includes(method) && !('400' in operation.responses))
          missing.push(`${method} ${path}`);
    expect(missing).toEqual([]);
  });

  it('lists every error code the service answers with at /docs/errors (each `docs` link lands)', async () => {
    const errors = (await t.call('GET', '/docs/errors')).body;
    const codes = new Set<string>();
    for (const file of readdirSync('src', { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const source = readFileSync(join('src', file), 'utf8');
      for (const match of source.matchAll(/ApiError\(\s*[\w.]+,\s*'(\w+)'/g)) codes.add(match[1] as string);
      for (const match of source.matchAll(/\bnew Refusal(?:<\w+>)?\(\s*'(\w+)'/g))
        codes.add(match[1] as string);
      for (const match of source.matchAll(/\[\d{3}, '(\w+)', '/g)) codes.add(match[1] as string);
    }
    expect(codes.size).toBeGreaterThan(40);
    expect([...codes].filter((code) => !errors.includes(`id="${code}"`))).toEqual([]);
  });

  it("lists every code of the domains' refusal tables in the catalog, with the status the table gives it", () => {
    // The app is built, so every domain's routes module has declared its table.
    const tables = refusalStatusList();
    expect(tables.length).toBeGreaterThan(40);
    const catalog = new Map(ERROR_CATALOG.map((entry) => [entry.code, entry.status]));
    const disagreeing = tables.filter(({ code, status }) => catalog.get(code) !== status);
    expect(
      disagreeing.map(
        ({ code, status }) => `${code}: table ${status}, catalog ${catalog.get(code) ?? 'missing'}`,
      ),
    ).toEqual([]);
  });
});

interface Operation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}
interface MediaType {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

/** Every operation of the served document: new routes are checked as soon as they are documented. */
async function documentedOperations() {
  const spec = (await t.call('GET', '/api/v2/openapi.json')).json();
  const operations: { method: string; path: string; operation: Operation; name: string }[] = [];
  for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      operations.push({ method, path, operation, name: `${method.toUpperCase()} ${path}` });
    }
  }
  return { spec, operations };
}

const examplesOf = (media: MediaType) => [
  ...(media.example !== undefined ? [media.example] : []),
  ...Object.values(media.examples ?? {}).map((e) => e.value),
];

/**
 * Authenticated POST, PUT, PATCH and DELETE take Idempotency-Key (src/core/idempotency.ts): the
 * document must say so. The MCP tool server's JSON-RPC does not.
 */
const acceptsIdempotencyKey = (method: string, operation: Operation) =>
  ['post', 'put', 'patch', 'delete'].includes(method) &&
  (operation.security ?? []).length > 0 &&
  !(operation.security ?? []).some((requirement) => 'mcpToken' in (requirement as object));

describe('the OpenAPI document describes every operation', () => {
  it('gives each a unique camelCase operationId and a summary', async () => {
    const { operations } = await documentedOperations();
    expect(operations.length).toBeGreaterThan(20);
    const ids = new Map<string, string>();
    for (const { operation, name } of operations) {
      expect(operation.operationId, name).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      expect(ids.get(operation.operationId!), `${name} reuses an operationId`).toBeUndefined();
      ids.set(operation.operationId!, name);
      expect(operation.summary?.trim(), name).toBeTruthy();
    }
  });

  it('describes every response, and gives an example of the request body and of every answer', async () => {
    const { operations } = await documentedOperations();
    for (const { operation, name } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(response.description?.trim(), `${name} ${status}`).toBeTruthy();
        expect(response.description, `${name} ${status}`).not.toBe('Default Response');
      }
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        expect(examplesOf(media).length, `${name} request ${type}`).toBeGreaterThan(0);
      }
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect(success.length, name).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const media of Object.values(response.content ?? {})) {
          expect(examplesOf(media).length, `${name} ${status}`).toBeGreaterThan(0);
        }
      }
    }
  });

  it('refers every error response to the shared error body (the OAuth body on the token endpoint)', async () => {
    const { spec, operations } = await documentedOperations();
    expect(Object.keys(spec.components.schemas)).toEqual(
      expect.arrayContaining(['ErrorBody', 'OAuthErrorBody']),
    );
    for (const { path, operation, name } of operations) {
      // The token endpoints (platform and user-facing) answer in the OAuth body (RFC 6749 §5.2).
      const oauthBody =
        path.startsWith('/api/v2/oauth/') || ['/token', '/register', '/revoke'].includes(path);
      const errorSchema = oauthBody ? 'OAuthErrorBody' : 'ErrorBody';
      const errors = Object.entries(operation.responses).filter(([status]) => /^[45]/.test(status));
      expect(errors.length, name).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        const media = response.content?.['application/json'];
        expect(media?.schema?.$ref, `${name} ${status}`).toBe(`#/components/schemas/${errorSchema}`);
      }
    }
  });

  it('declares Idempotency-Key, as one shared parameter, on exactly the operations that accept it', async () => {
    const { spec, operations } = await documentedOperations();
    expect(spec.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
    });
    let accepting = 0;
    for (const { method, operation, name } of operations) {
      const declared = (operation.parameters ?? []).filter(
        (p) =>
          p.$ref === '#/components/parameters/IdempotencyKey' || p.name?.toLowerCase() === 'idempotency-key',
      );
      if (acceptsIdempotencyKey(method, operation)) {
        accepting++;
        expect(declared, name).toEqual([{ $ref: '#/components/parameters/IdempotencyKey' }]);
        expect(Object.keys(operation.responses), `${name}: idempotency_key_in_use`).toContain('409');
        expect(Object.keys(operation.responses), `${name}: idempotency_key_reused`).toContain('422');
      } else {
        expect(declared, name).toEqual([]);
      }
    }
    expect(accepting).toBeGreaterThan(5);
  });

  it('states the security of every operation, [] for public ones, by a declared scheme', async () => {
    const { spec, operations } = await documentedOperations();
    const schemes = Object.keys(spec.components.securitySchemes);
    const unstated = operations.filter(({ operation }) => !Array.isArray(operation.security));
    expect(unstated.map(({ name }) => name)).toEqual([]);
    for (const { operation, name } of operations)
      for (const requirement of operation.security ?? [])
        expect(schemes, name).toEqual(expect.arrayContaining(Object.keys(requirement as object)));
    expect(spec.paths['/mcp'].post.security).toEqual([{ mcpToken: [] }]);
  });

  it('declares security only where the route demands a credential (the rule Idempotency-Key follows)', async () => {
    const { operations } = await documentedOperations();
    for (const { method, path, operation, name } of operations) {
      if ((operation.security ?? []).length === 0) continue;
      const url = path.replace(/\{[^}]+\}/g, 'x_1');
      const res = await t.call(method.toUpperCase(), url, method === 'get' ? {} : { body: {} });
      expect(res.statusCode, name).toBe(401);
    }
  });

  it('shares the reused objects as components, and every reference resolves', async () => {
    const { spec } = await documentedOperations();
    const schemas = spec.components.schemas as Record<string, unknown>;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'ErrorBody',
        'OAuthErrorBody',
        'TokenResponse',
        'Introspection',
        'ConnectAttempt',
        'Connection',
        'Consent',
        'EmbedOrigins',
        'Event',
        'EventList',
        'WebhookEndpoint',
        'WebhookEndpointList',
        'WebhookDelivery',
        'WebhookDeliveryList',
        'KycState',
      ]),
    );
    expect(Object.keys(schemas).filter((name) => /^def-\d+$/.test(name))).toEqual([]);
    const refs = JSON.stringify(spec).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) {
      const [, kind, name] = /"#\/components\/(schemas|parameters)\/([^"]+)"/.exec(ref) ?? [];
      expect(kind && spec.components[kind][name as string], ref).toBeTruthy();
    }
  });

  it('gives examples that match their schemas', async () => {
    const { spec, operations } = await documentedOperations();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: spec.components });
    const check = (schema: unknown, example: unknown, where: string) => {
      const validate = ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')),
      );
      expect(validate(example), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    };
    for (const { operation, name } of operations) {
      const media = [
        ...Object.entries(operation.requestBody?.content ?? {}).map(
          ([type, m]) => [`request ${type}`, m] as const,
        ),
        ...Object.entries(operation.responses).flatMap(([status, r]) =>
          Object.values(r.content ?? {}).map((m) => [status, m] as const),
        ),
      ];
      for (const [where, m] of media) {
        for (const example of examplesOf(m)) check(m.schema, example, `${name} ${where}`);
      }
    }
  });
});
