import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { expectError } from '../connect/helpers.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

let t: TestApp;
let org: CreatedOrganization;
let sandbox: string;
let production: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
  sandbox = await t.platformToken(org.sandbox);
  production = await t.platformToken(org.production);
});
afterAll(async () => {
  await t.close();
});

const put = (token: string, body: unknown) => t.call('PUT', '/api/v2/embed_origins', { token, body });
const get = (token: string) => t.call('GET', '/api/v2/embed_origins', { token });

describe('PUT /api/v2/embed_origins', () => {
  it('replaces the whole list, canonical and without duplicates, and GET reads it back', async () => {
    expect((await get(sandbox)).json()).toEqual({ object: 'embed_origins', origins: [] });
    const res = await put(sandbox, {
      origins: [
        'https://App.Example.com',
        'https://app.example.com:443/',
        'https://shop.example.com:8443',
        'http://localhost:5173',
        'http://127.0.0.1:8080',
        'http://[::1]:3000',
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      object: 'embed_origins',
      origins: [
        'https://app.example.com',
        'https://shop.example.com:8443',
        'http://localhost:5173',
        'http://127.0.0.1:8080',
        'http://[::1]:3000',
      ],
    };
    expect(res.json()).toEqual(expected);
    expect((await get(sandbox)).json()).toEqual(expected);

    // A second PUT replaces, it does not merge; an empty list clears.
    expect((await put(sandbox, { origins: ['https://other.example'] })).json().origins).toEqual([
      'https://other.example',
    ]);
    expect((await put(sandbox, { origins: [] })).json().origins).toEqual([]);
  });

  it('answers 400 invalid_origin naming the refused value, and changes nothing', async () => {
    await put(sandbox, { origins: ['https://kept.example'] });
    for (const bad of [
      'http://app.example.com',
      'https://app.example.com/path',
      'https://app.example.com/?q=1',
      'https://user:pass@app.example.com',
      'ftp://files.example.com',
      'https://*.example.com',
      'not a url',
    ]) {
      const res = await put(sandbox, { origins: ['https://fine.example', bad] });
      const error = expectError(res, 400, 'invalid_origin');
      expect(error.message).toContain(bad);
      expect(error.field_errors).toHaveProperty('origins[1]');
    }
    expect((await get(sandbox)).json().origins).toEqual(['https://kept.example']);
  });

  it('answers 400 invalid_request past 50 origins, without origins, or with a non-list', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `https://s${i}.example.com`);
    expect(
      expectError(await put(sandbox, { origins: many }), 400, 'invalid_request').field_errors,
    ).toHaveProperty('origins');
    expect((await put(sandbox, { origins: many.slice(0, 50) })).statusCode).toBe(200);
    expectError(await put(sandbox, {}), 400, 'invalid_request');
    expectError(await put(sandbox, { origins: 'https://a.example' }), 400, 'invalid_request');
    expectError(await put(sandbox, { origins: [42] }), 400, 'invalid_request');
  });

  it('keeps one list per mode and per organization; needs a platform token', async () => {
    await put(sandbox, { origins: ['https://test.example'] });
    await put(production, { origins: ['https://live.example'] });
    expect((await get(sandbox)).json().origins).toEqual(['https://test.example']);
    expect((await get(production)).json().origins).toEqual(['https://live.example']);
    const other = await t.createOrg('Other');
    expect((await get(await t.platformToken(other.sandbox))).json().origins).toEqual([]);
    expectError(await t.call('GET', '/api/v2/embed_origins'), 401, 'unauthorized');
    expectError(await put('nope', { origins: [] }), 401, 'unauthorized');
  });
});
