import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok' });
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

  it('has no /metrics on the public port when METRICS_TOKEN is unset', async () => {
    const other = await startTestApp();
    try {
      const res = await other.call('GET', '/metrics');
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    } finally {
      await other.close();
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
    ]) {
      expect(errors.body).toContain(`id="${code}"`);
    }
  });
});
