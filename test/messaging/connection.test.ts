import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/fixtures.ts';
import { startTestApp } from '../helpers/harness.ts';
import { callback, connectProvider, consent, startOAuth, useMessagingApp } from './helpers.ts';

const { f, provider } = useMessagingApp({ each: 'organization' });

const connection = (token: string) => f.t.call('GET', '/api/v2/provider/connection', { token });
const disconnect = (token: string) => f.t.call('DELETE', '/api/v2/provider/connection', { token });

describe('connecting the messaging provider (OAuth 2.0 authorization code + PKCE)', () => {
  it('start → consent at the provider → callback → GET connection', async () => {
    const started = await startOAuth(f, f.production);
    expect(Object.keys(started)).toEqual(['object', 'url', 'state', 'expires_at']);
    const url = new URL(started.url);
    expect(url.origin + url.pathname).toBe(`${provider().url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: provider().clientId,
      redirect_uri: 'http://purser.test/api/v2/provider/oauth/callback',
      scope: 'messages:send',
      state: started.state,
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(Date.parse(started.expires_at) - f.t.clock.now()).toBe(600_000);

    const redirect = await consent(started.url);
    expect(redirect.searchParams.get('state')).toBe(started.state);
    const page = await callback(f, redirect);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Messaging provider connected');

    // The code went to the token endpoint with the verifier whose S256 is the challenge (RFC 7636).
    const exchange = provider().tokenRequests.at(-1)!;
    expect(exchange.grant_type).toBe('authorization_code');
    expect(createHash('sha256').update(exchange.code_verifier!).digest('base64url')).toBe(
      url.searchParams.get('code_challenge'),
    );

    const read = await connection(f.production);
    expect(read.statusCode, read.body).toBe(200);
    const body = read.json();
    expect(body).toEqual({
      object: 'messaging_connection',
      connected: true,
      provider_organization_ids: ['porg_fake1'],
      scopes: ['messages:send'],
      token_expires_at: new Date(f.t.clock.now() + 3600_000).toISOString(),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // Another mode, another organization: not theirs (404, never 403).
    expectError(await connection(f.sandbox), 404, 'not_found');
    const other = await f.t.createOrg('Other');
    expectError(await connection(await f.t.platformToken(other.production)), 404, 'not_found');
  });

  it('keeps the provider tokens sealed at rest and out of the log', async () => {
    const started = await startOAuth(f, f.sandbox);
    const redirect = await consent(started.url);
    expect((await callback(f, redirect)).statusCode).toBe(200);
    const { accessToken, refreshToken } = provider().issued.at(-1)!;
    const rows = await f.t.ctx.db
      .selectFrom('messaging_connections')
      .selectAll()
      .where('organization_id', '=', f.org.organization_id)
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.access_token).toMatch(/^v1\./);
    expect(row.refresh_token).toMatch(/^v1\./);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(accessToken);
    expect(stored).not.toContain(refreshToken);
    const states = JSON.stringify(
      await f.t.ctx.db.selectFrom('messaging_oauth_states').selectAll().execute(),
    );
    const verifier = provider().tokenRequests.at(-1)!.code_verifier!;
    expect(states).not.toContain(verifier);
    const code = redirect.searchParams.get('code')!;
    for (const secret of [accessToken, refreshToken, verifier, provider().clientSecret, code, started.state])
      expect(f.t.logs.text).not.toContain(secret);
    // The sealed values open only for their own organization and mode.
    expect(() =>
      f.t.ctx.sealer.open(row.access_token!, `messaging.access_token|org_other|${row.livemode}`),
    ).toThrow();
  });

  it('refuses a replayed, unknown or expired state: an error page, nothing stored', async () => {
    const started = await startOAuth(f, f.sandbox);
    const redirect = await consent(started.url);
    expect((await callback(f, redirect)).statusCode).toBe(200);
    const exchanges = provider().tokenRequests.length;

    // The same redirect again (a replay): refused before any exchange.
    const replay = await callback(f, redirect);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('does not work');
    expect(provider().tokenRequests.length).toBe(exchanges);

    const forged = new URL(redirect);
    forged.searchParams.set('state', 'not-a-state');
    expect((await callback(f, forged)).statusCode).toBe(400);
    forged.searchParams.delete('state');
    expect((await callback(f, forged)).statusCode).toBe(400);

    // A state past its ten minutes.
    const late = await startOAuth(f, f.production);
    const lateRedirect = await consent(late.url);
    f.t.clock.advance(600_001);
    const expired = await callback(f, lateRedirect, 'application/json');
    expectError(expired, 400, 'invalid_state');
    expect(provider().tokenRequests.length).toBe(exchanges);
    expectError(await connection(await f.t.platformToken(f.org.production)), 404, 'not_found');
  });

  it('the provider enforces PKCE: the code without the right verifier is refused', async () => {
    const started = await startOAuth(f, f.sandbox);
    const redirect = await consent(started.url);
    const code = redirect.searchParams.get('code')!;
    const basic = Buffer.from(`${provider().clientId}:${provider().clientSecret}`).toString('base64');
    const stolen = await fetch(`${provider().url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://purser.test/api/v2/provider/oauth/callback',
        code_verifier: 'a'.repeat(43),
      }),
    });
    expect(stolen.status).toBe(400);
    expect((await stolen.json()).error).toBe('invalid_grant');
    // The code is spent; Purser's own callback then fails cleanly and stores nothing.
    const page = await callback(f, redirect);
    expect(page.statusCode).toBe(502);
    expect(page.body).toContain('invalid_grant');
    expectError(await connection(f.sandbox), 404, 'not_found');
  });

  it('a consent declined at the provider shows a page saying so, and connects nothing', async () => {
    provider().deny(true);
    try {
      const started = await startOAuth(f, f.sandbox);
      const redirect = await consent(started.url);
      expect(redirect.searchParams.get('error')).toBe('access_denied');
      const page = await callback(f, redirect);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('declined');
      expectError(await connection(f.sandbox), 404, 'not_found');
      // The state was spent by the answer.
      expect((await callback(f, redirect)).statusCode).toBe(400);
    } finally {
      provider().deny(false);
    }
  });

  it('answers JSON to a client that asks only for JSON', async () => {
    const started = await startOAuth(f, f.sandbox);
    const response = await callback(f, await consent(started.url), 'application/json');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ object: 'messaging_connection', connected: true });
  });

  it('DELETE revokes the grant at the provider (RFC 7009) and forgets the tokens', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const { accessToken, refreshToken } = provider().issued.at(-1)!;
    expect(provider().accepts(accessToken)).toBe(true);

    provider().failRevocations(503);
    try {
      expectError(await disconnect(f.sandbox), 502, 'messaging_provider_error');
      expect((await connection(f.sandbox)).statusCode).toBe(200);
    } finally {
      provider().failRevocations(null);
    }

    const deleted = await disconnect(f.sandbox);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ object: 'messaging_connection', deleted: true });
    expect(provider().revoked).toEqual(expect.arrayContaining([refreshToken]));
    expect(provider().accepts(accessToken)).toBe(false);
    expectError(await connection(f.sandbox), 404, 'not_found');
    expect(
      await f.t.ctx.db
        .selectFrom('messaging_connections')
        .select('id')
        .where('organization_id', '=', f.org.organization_id)
        .execute(),
    ).toEqual([]);
    expectError(await disconnect(f.sandbox), 404, 'not_found');
  });

  it('a reconnect replaces the connection and revokes the replaced grant', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const first = provider().issued.at(-1)!;
    const created = (await connection(f.sandbox)).json().created_at;
    f.t.clock.advance(1000);
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    expect(provider().revoked).toContain(first.refreshToken);
    const read = (await connection(f.sandbox)).json();
    expect(read.created_at).toBe(created);
    expect(read.updated_at).not.toBe(created);
  });

  it('needs a platform token', async () => {
    expectError(await f.t.call('POST', '/api/v2/provider/oauth/start'), 401, 'unauthorized');
    expectError(await f.t.call('GET', '/api/v2/provider/connection'), 401, 'unauthorized');
    expectError(await f.t.call('DELETE', '/api/v2/provider/connection'), 401, 'unauthorized');
  });
});

it('without MESSAGING_* the routes answer 404 messaging_not_configured', async () => {
  const t = await startTestApp();
  try {
    const org = await t.createOrg();
    const token = await t.platformToken(org.sandbox);
    expectError(
      await t.call('POST', '/api/v2/provider/oauth/start', { token }),
      404,
      'messaging_not_configured',
    );
    expectError(await t.call('GET', '/api/v2/provider/connection', { token }), 404, 'not_found');
  } finally {
    await t.close();
  }
});
