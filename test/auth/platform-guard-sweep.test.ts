import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { connectUser, uniqueEmail } from '../connect/helpers.ts';
import { routes } from '../core/edge-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

/*
 * Spec §7 (Connect): "401 Missing or bad platform token on any v2 platform call", swept over every
 * `/api/v2` route the app registers, so a route added later cannot forget its guard. A connection
 * token where a platform token belongs is `400 client_credentials_required` (docs/decisions.md).
 */

/** The `/api/v2` routes that take no platform token, each for its reason. */
const PUBLIC = new Map([
  ['/api/v2/openapi.json', 'the interface description is public'],
  ['/api/v2/oauth/token', 'it mints the platform token (client credentials, OAuth error body)'],
  ['/api/v2/provider/oauth/callback', "the messaging provider's browser redirect, bound by state"],
]);

let t: TestApp;
let org: CreatedOrganization;
let connection: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
  const platform = await t.platformToken(org.sandbox);
  connection = (await connectUser(t, platform, { email: uniqueEmail() })).accessToken;
});
afterAll(() => t.close());

function platformRoutes() {
  return routes(t.app).filter(
    ({ method, url }) => url.startsWith('/api/v2') && method !== 'HEAD' && !PUBLIC.has(url),
  );
}

async function send(method: string, url: string, authorization?: string) {
  return t.request({
    method: method as 'GET',
    url: url.replace(/:(\w+)/g, 'x1'),
    headers: {
      ...(authorization !== undefined ? { authorization } : {}),
      ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
    },
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: '{}' }),
  });
}

describe('every v2 platform route', () => {
  it('is found, and the public ones still exist', () => {
    const all = routes(t.app).map((r) => r.url);
    for (const url of PUBLIC.keys()) expect(all, url).toContain(url);
    expect(platformRoutes().length).toBeGreaterThan(40);
  });

  it('answers 401 unauthorized in the v2 body with a Bearer challenge for a missing or bad platform token', async () => {
    const bad: (string | undefined)[] = [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Bearer pat_unknown0123456789',
      `Bearer ${org.sandbox.client_secret}`,
      `Basic ${Buffer.from(`${org.sandbox.client_id}:${org.sandbox.client_secret}`).toString('base64')}`,
      // A v1 API key is not a v2 bearer (spec §5.7: API keys are for v1).
      `Bearer ${org.sandbox.api_key}`,
    ];
    for (const { method, url } of platformRoutes()) {
      for (const authorization of bad) {
        const res = await send(method, url, authorization);
        const where = `${method} ${url} with ${JSON.stringify(authorization)}`;
        expect(res.statusCode, `${where}: ${res.body}`).toBe(401);
        expect(res.headers['www-authenticate'], where).toMatch(/^Bearer\b/);
        expect(res.json(), where).toEqual({
          error: {
            code: 'unauthorized',
            message: expect.any(String),
            docs: expect.stringMatching(/^http:\/\/purser\.test\/docs\/errors#unauthorized$/),
            field_errors: {},
            warnings: [],
          },
        });
      }
    }
  });

  it('answers 400 client_credentials_required to a connection access token', async () => {
    for (const { method, url } of platformRoutes()) {
      const res = await send(method, url, `Bearer ${connection}`);
      const where = `${method} ${url}`;
      expect(res.statusCode, `${where}: ${res.body}`).toBe(400);
      expect(res.json().error.code, where).toBe('client_credentials_required');
    }
  });
});
