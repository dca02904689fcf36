import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

let t: TestApp;
let org: CreatedOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
});
afterAll(() => t.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST' as const,
  url: '/api/v2/oauth/token',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('POST /api/v2/oauth/token', () => {
  it('mints a bearer token from form-encoded client credentials, not cacheable', async () => {
    const res = await t.request(
      form({
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: org.sandbox.client_secret,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'api' });
    expect(body.access_token).toEqual(expect.any(String));
  });

  it('accepts a JSON body and HTTP Basic credentials', async () => {
    const json = await t.call('POST', '/api/v2/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: org.sandbox.client_secret,
      },
    });
    expect(json.statusCode).toBe(200);
    const viaBasic = await t.request({
      ...form({ grant_type: 'client_credentials' }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(org.sandbox.client_id, org.sandbox.client_secret),
      },
    });
    expect(viaBasic.statusCode).toBe(200);
    expect(viaBasic.json().token_type).toBe('Bearer');
  });

  it('answers unsupported_grant_type for any other grant', async () => {
    for (const grant of ['password', 'authorization_code', 'refresh_token', '']) {
      const res = await t.request(
        form({
          grant_type: grant,
          client_id: org.sandbox.client_id,
          client_secret: org.sandbox.client_secret,
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
    }
  });

  it('answers invalid_client (401) for an unknown client, a wrong secret or a missing secret', async () => {
    const cases: Record<string, string>[] = [
      { grant_type: 'client_credentials', client_id: 'cli_unknown', client_secret: 'x' },
      {
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: `${org.sandbox.client_secret}x`,
      },
      { grant_type: 'client_credentials', client_id: org.sandbox.client_id },
      {
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: org.production.client_secret,
      },
    ];
    for (const fields of cases) {
      const res = await t.request(form(fields));
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('invalid_client');
      // The Basic challenge answers only a client that tried HTTP Basic (RFC 6749 §5.2).
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('answers invalid_request (400) for a repeated parameter or two ways of authenticating', async () => {
    const repeated = await t.request({
      ...form({}),
      payload: 'grant_type=client_credentials&grant_type=client_credentials',
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json()).toEqual({
      error: 'invalid_request',
      error_description: 'grant_type is sent more than once.',
    });
    const both = await t.request({
      ...form({ grant_type: 'client_credentials', client_secret: org.sandbox.client_secret }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(org.sandbox.client_id, org.sandbox.client_secret),
      },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Send the client credentials either as HTTP Basic or in the body, not both.',
    });
  });

  it('challenges with Basic after failed HTTP Basic authentication', async () => {
    const res = await t.request({
      ...form({ grant_type: 'client_credentials' }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(org.sandbox.client_id, 'wrong'),
      },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('refuses a public client with unauthorized_client', async () => {
    const client = await t.ctx.orgs.createClient(org.organization_id, { mode: 'sandbox', type: 'public' });
    expect(client.client_secret).toBeNull();
    const res = await t.request(
      form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'anything' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('unauthorized_client');
  });

  it('spec §7: unauthorized_client (400) for every client that cannot use the grant, once authenticated', async () => {
    // A confidential client allowed only the user-facing grants.
    const limited = await t.ctx.orgs.createClient(org.organization_id, {
      mode: 'sandbox',
      type: 'confidential',
    });
    await t.ctx.db
      .updateTable('clients')
      .set({ grant_types: JSON.stringify(['authorization_code', 'refresh_token']) })
      .where('id', '=', limited.client_id)
      .execute();
    const cases: [string, Record<string, string>, number, string][] = [
      [
        'confidential client without the grant',
        { client_id: limited.client_id, client_secret: limited.client_secret! },
        400,
        'unauthorized_client',
      ],
      // The secret is checked first: a wrong one learns nothing about the client's grants.
      [
        'confidential client without the grant, wrong secret',
        { client_id: limited.client_id, client_secret: 'wrong' },
        401,
        'invalid_client',
      ],
    ];
    for (const [label, fields, status, error] of cases) {
      const res = await t.request(form({ grant_type: 'client_credentials', ...fields }));
      expect(res.statusCode, label).toBe(status);
      expect(res.json(), label).toEqual({ error, error_description: expect.any(String) });
    }
  });

  it('answers access_denied (403) while the organization is suspended, and works again after', async () => {
    const other = await t.createOrg('Suspended Co');
    await t.ctx.orgs.updateOrganization(other.organization_id, { status: 'suspended' });
    const fields = {
      grant_type: 'client_credentials',
      client_id: other.sandbox.client_id,
      client_secret: other.sandbox.client_secret,
    };
    const res = await t.request(form(fields));
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('access_denied');
    await t.ctx.orgs.updateOrganization(other.organization_id, { status: 'active' });
    expect((await t.request(form(fields))).statusCode).toBe(200);
  });

  it('stops accepting a rotated secret and a revoked client at once', async () => {
    const other = await t.createOrg('Rotating Co');
    const rotated = await t.ctx.orgs.rotateClientSecret(other.sandbox.client_id);
    const old = await t.request(
      form({
        grant_type: 'client_credentials',
        client_id: other.sandbox.client_id,
        client_secret: other.sandbox.client_secret,
      }),
    );
    expect(old.statusCode).toBe(401);
    const token = await t.platformToken({ ...other.sandbox, client_secret: rotated.client_secret });
    expect((await t.call('GET', '/api/v2', { token })).statusCode).toBe(200);
    await t.ctx.orgs.revokeClient(other.sandbox.client_id);
    expect((await t.call('GET', '/api/v2', { token })).statusCode).toBe(401);
  });

  it('stores client secrets and tokens only as digests', async () => {
    const token = await t.platformToken(org.sandbox);
    const clients = await t.ctx.db.selectFrom('clients').selectAll().execute();
    const tokens = await t.ctx.db.selectFrom('access_tokens').selectAll().execute();
    const dump = JSON.stringify([clients, tokens]);
    expect(dump).not.toContain(org.sandbox.client_secret);
    expect(dump).not.toContain(token);
  });
});

describe('token endpoint rate limit', () => {
  it('answers 429 with Retry-After past 30 requests per 5 minutes per IP, then recovers', async () => {
    const limited = await startTestApp({ TOKEN_RATE_LIMIT: '' });
    try {
      const o = await limited.createOrg();
      const fields = {
        grant_type: 'client_credentials',
        client_id: o.sandbox.client_id,
        client_secret: o.sandbox.client_secret,
      };
      for (let i = 0; i < 30; i++) {
        const ok = await limited.request({ ...form(fields), remoteAddress: '198.51.100.7' });
        expect(ok.statusCode).toBe(200);
      }
      const refused = await limited.request({ ...form(fields), remoteAddress: '198.51.100.7' });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(300);
      expect(refused.json().error).toEqual(expect.any(String));
      // Another address has its own budget.
      expect((await limited.request({ ...form(fields), remoteAddress: '198.51.100.8' })).statusCode).toBe(
        200,
      );
      limited.clock.advance(300_000);
      expect((await limited.request({ ...form(fields), remoteAddress: '198.51.100.7' })).statusCode).toBe(
        200,
      );
    } finally {
      await limited.close();
    }
  });
});

describe('GET /api/v2', () => {
  it('reports the organization and test mode of a sandbox token', async () => {
    const token = await t.platformToken(org.sandbox);
    const res = await t.call('GET', '/api/v2', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      object: 'api_v2',
      organization_id: org.organization_id,
      test_mode: true,
      mode: 'sandbox',
    });
  });

  it('reports production for a production token', async () => {
    const token = await t.platformToken(org.production);
    expect((await t.call('GET', '/api/v2', { token })).json()).toEqual({
      object: 'api_v2',
      organization_id: org.organization_id,
      test_mode: false,
      mode: 'production',
    });
  });

  it('answers 401 in the v2 error body with a Bearer challenge for a missing, unknown or expired token', async () => {
    const expired = await t.platformToken(org.sandbox);
    t.clock.advance(3600 * 1000);
    const attempts = [undefined, 'not-a-token', expired];
    for (const token of attempts) {
      const res = await t.call('GET', '/api/v2', token ? { token } : {});
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.json()).toEqual({
        error: {
          code: 'unauthorized',
          message: expect.any(String),
          docs: expect.any(String),
          field_errors: {},
          warnings: [],
        },
      });
    }
  });

  it('answers 403 access_denied to existing tokens once the organization is suspended', async () => {
    const other = await t.createOrg('Later suspended');
    const token = await t.platformToken(other.sandbox);
    expect((await t.call('GET', '/api/v2', { token })).statusCode).toBe(200);
    await t.ctx.orgs.updateOrganization(other.organization_id, { status: 'suspended' });
    const res = await t.call('GET', '/api/v2', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('access_denied');
  });

  it('sees a revocation made by another process within AUTH_CACHE_TTL_MS', async () => {
    const token = await t.platformToken(org.sandbox);
    expect((await t.call('GET', '/api/v2', { token })).statusCode).toBe(200);
    // Another process revokes it: straight in the database, so this process is not told.
    await t.ctx.db.updateTable('access_tokens').set({ revoked_at: t.clock.now() }).execute();
    t.clock.advance(1000);
    expect((await t.call('GET', '/api/v2', { token })).statusCode).toBe(401);
  });

  it('still accepts a token one second before it expires', async () => {
    const token = await t.platformToken(org.sandbox);
    t.clock.advance(3599 * 1000);
    expect((await t.call('GET', '/api/v2', { token })).statusCode).toBe(200);
  });

  it("reads each request's token on a keep-alive connection whose client changes tokens", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v2`;
    const other = await t.createOrg('One connection');
    const [first, second] = [await t.platformToken(org.sandbox), await t.platformToken(other.production)];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (authorization: string) =>
      new Promise<{ status: number; body: string; reused: boolean }>((resolve, reject) => {
        const request = http.get(url, { agent, headers: { authorization } }, (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body, reused: request.reusedSocket }),
          );
        });
        request.on('error', reject);
      });
    const answers = [];
    for (const authorization of [
      `Bearer ${first}`,
      `Bearer ${second}`,
      'Bearer pat_unknown',
      `Bearer ${first}`,
      `bearer  ${second}`,
    ])
      answers.push(await get(authorization));
    agent.destroy();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 401, 200, 200]);
    expect(answers.slice(1).map((answer) => answer.reused)).toEqual([true, true, true, true]);
    const owners = answers.map((answer) =>
      answer.status === 200 ? JSON.parse(answer.body).organization_id : null,
    );
    expect(owners).toEqual([
      org.organization_id,
      other.organization_id,
      null,
      org.organization_id,
      other.organization_id,
    ]);
  });

  it('refuses a token the moment it expires, also while this process remembers it', async () => {
    const token = await t.platformToken(org.sandbox);
    t.clock.advance(3599.5 * 1000);
    expect((await t.call('GET', '/api/v2', { token })).statusCode).toBe(200);
    // Within AUTH_CACHE_TTL_MS (1 s) of that lookup, at its expiry.
    t.clock.advance(500);
    const res = await t.call('GET', '/api/v2', { token });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="purser", error="invalid_token"');
  });
});
