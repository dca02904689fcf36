import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOAuthConfig } from '../../src/domains/oauth/config.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { createClient, type OAuthServer, signInAndDecide, startOAuthServer, uniqueEmail } from './helpers.ts';

/** The authorization server's rules, each refused case a test (issue 10, acceptance). */
let s: OAuthServer;
beforeAll(async () => {
  s = await startOAuthServer();
});
afterAll(() => s.close());

const REDIRECT = 'http://127.0.0.1:9/callback';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(clientId: string, params: Record<string, string | null> = {}) {
  const url = new URL(`${s.issuer}/authorize`);
  const all: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge_method: 'S256',
    resource: s.resource,
    state: 'st-123',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) if (value !== null) url.searchParams.set(name, value);
  return url;
}

function token(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${s.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
}

async function expectOAuthError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = await response.json();
  expect(body).toEqual({ error, error_description: expect.any(String) });
  return body.error_description as string;
}

/** A public client's approved code with its verifier. */
async function approvedCode(clientId: string, options: { email?: string; redirect?: string } = {}) {
  const { verifier, challenge } = pkce();
  const callback = await signInAndDecide(
    authorizeUrl(clientId, {
      code_challenge: challenge,
      ...(options.redirect ? { redirect_uri: options.redirect } : {}),
    }),
    options.email ? { email: options.email } : {},
  );
  return { code: callback.searchParams.get('code')!, verifier, callback };
}

async function publicClient(redirectUri = REDIRECT) {
  return (await createClient(s, { type: 'public', redirectUri })).client_id;
}

/** The body of a code exchange as the client registered it; `fields` adds or overrides. */
const exchangeBody = (clientId: string, code: string, fields: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  client_id: clientId,
  code,
  redirect_uri: REDIRECT,
  resource: s.resource,
  ...fields,
});

async function tokensFor(clientId: string, options: { email?: string } = {}) {
  const { code, verifier } = await approvedCode(clientId, options);
  const response = await token(exchangeBody(clientId, code, { code_verifier: verifier }));
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string; refresh_token: string };
}

const refresh = (clientId: string, refreshToken: string, extra: Record<string, string> = {}) =>
  token({
    grant_type: 'refresh_token',
    client_id: clientId,
    refresh_token: refreshToken,
    resource: s.resource,
    ...extra,
  });

describe('authorize', () => {
  it('redirects with code, the unchanged state and iss after approval', async () => {
    const clientId = await publicClient();
    const { callback } = await approvedCode(clientId);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe('st-123');
    expect(callback.searchParams.get('iss')).toBe(s.issuer);
    expect(callback.searchParams.get('code')).toMatch(/^oac_/);
  });

  it('answers access_denied when the user denies', async () => {
    const clientId = await publicClient();
    const callback = await signInAndDecide(authorizeUrl(clientId, { code_challenge: pkce().challenge }), {
      decision: 'deny',
    });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('st-123');
    expect(callback.searchParams.has('code')).toBe(false);
  });

  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect', async () => {
    const clientId = await publicClient();
    for (const url of [
      authorizeUrl('cli_unknown', { code_challenge: pkce().challenge }),
      authorizeUrl(clientId, { code_challenge: pkce().challenge, redirect_uri: 'https://evil.example/cb' }),
      authorizeUrl(clientId, { code_challenge: pkce().challenge, redirect_uri: null }),
    ]) {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status, url.toString()).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('id="oauth-error"');
    }
  });

  it('accepts a loopback redirect on any port (RFC 8252 §7.3), but not another path', async () => {
    const clientId = await publicClient('http://127.0.0.1/callback');
    const ok = await fetch(
      authorizeUrl(clientId, {
        code_challenge: pkce().challenge,
        redirect_uri: 'http://127.0.0.1:53111/callback',
      }),
      {
        redirect: 'manual',
      },
    );
    expect(ok.status).toBe(200);
    const other = await fetch(
      authorizeUrl(clientId, {
        code_challenge: pkce().challenge,
        redirect_uri: 'http://127.0.0.1:53111/other',
      }),
      {
        redirect: 'manual',
      },
    );
    expect(other.status).toBe(400);
  });

  const errorRedirect = async (params: Record<string, string | null>) => {
    const clientId = await publicClient();
    const response = await fetch(authorizeUrl(clientId, params), { redirect: 'manual' });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(s.issuer);
    return location.searchParams.get('error');
  };

  it('redirects invalid_request for a parameter sent twice; a repeated client or redirect stays on the page', async () => {
    const clientId = await publicClient();
    for (const name of ['resource', 'code_challenge', 'scope']) {
      const url = authorizeUrl(clientId, { code_challenge: pkce().challenge, scope: 'purser:tools' });
      url.searchParams.append(name, url.searchParams.get(name) as string);
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status, name).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toContain(name);
      expect(location.searchParams.get('state')).toBe('st-123');
    }
    const twiceState = authorizeUrl(clientId, { code_challenge: pkce().challenge });
    twiceState.searchParams.append('state', 'other');
    const stateResponse = await fetch(twiceState, { redirect: 'manual' });
    expect(stateResponse.status).toBe(302);
    const location = new URL(stateResponse.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBeNull(); // which one would it be?
    for (const name of ['client_id', 'redirect_uri']) {
      const url = authorizeUrl(clientId, { code_challenge: pkce().challenge });
      url.searchParams.append(name, url.searchParams.get(name) as string);
      expect((await fetch(url, { redirect: 'manual' })).status, name).toBe(400);
    }
  });

  it('takes a state of up to 1024 characters (its cookie stays under 4 KB) and redirects invalid_request for longer', async () => {
    const clientId = await publicClient();
    const longest = await fetch(
      authorizeUrl(clientId, { code_challenge: pkce().challenge, state: 's'.repeat(1024) }),
      {
        redirect: 'manual',
      },
    );
    expect(longest.status).toBe(200);
    expect(longest.headers.get('set-cookie')!.split(';')[0]!.length).toBeLessThan(4096);
    const over = await fetch(
      authorizeUrl(clientId, { code_challenge: pkce().challenge, state: 's'.repeat(1025) }),
      {
        redirect: 'manual',
      },
    );
    expect(over.status).toBe(302);
    const location = new URL(over.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBeNull();
  });

  it('refuses a missing PKCE challenge', async () => {
    expect(await errorRedirect({ code_challenge_method: null })).toBe('invalid_request');
  });

  it('refuses the plain PKCE method', async () => {
    const { verifier } = pkce();
    expect(await errorRedirect({ code_challenge: verifier, code_challenge_method: 'plain' })).toBe(
      'invalid_request',
    );
  });

  it('refuses a missing resource and another resource', async () => {
    expect(await errorRedirect({ code_challenge: pkce().challenge, resource: null })).toBe('invalid_request');
    expect(await errorRedirect({ code_challenge: pkce().challenge, resource: `${s.issuer}/other` })).toBe(
      'invalid_target',
    );
  });

  it('refuses an unknown scope and another response type; a missing one is invalid_request', async () => {
    expect(await errorRedirect({ code_challenge: pkce().challenge, scope: 'openid' })).toBe('invalid_scope');
    expect(await errorRedirect({ code_challenge: pkce().challenge, response_type: 'token' })).toBe(
      'unsupported_response_type',
    );
    expect(await errorRedirect({ code_challenge: pkce().challenge, response_type: null })).toBe(
      'invalid_request',
    );
    // offline_access (asked by clients written for OpenID providers) is ignored, not refused.
    const signIn = await fetch(
      authorizeUrl(await publicClient(), {
        code_challenge: pkce().challenge,
        scope: 'purser:tools offline_access',
      }),
      { redirect: 'manual' },
    );
    expect(signIn.status).toBe(200);
  });

  it('puts frame-ancestors none on the sign-in page and no CORS on authorize', async () => {
    const clientId = await publicClient();
    const response = await fetch(authorizeUrl(clientId, { code_challenge: pkce().challenge }), {
      redirect: 'manual',
    });
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('refuses a decision without the browser cookie that started the request', async () => {
    const clientId = await publicClient();
    const opened = await fetch(authorizeUrl(clientId, { code_challenge: pkce().challenge }), {
      redirect: 'manual',
    });
    const flow = /name="flow" value="([^"]+)"/.exec(await opened.text())![1]!;
    const response = await fetch(`${s.issuer}/authorize/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ flow, decision: 'approve' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  /** A browser on the sign-in page: posts its forms with the cookie, keeps the last page. */
  async function openSignIn(url: URL) {
    const opened = await fetch(url, { redirect: 'manual' });
    let cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    const browser = { html: await opened.text(), status: opened.status };
    const post = async (path: string, fields: Record<string, string>) => {
      const flow = /name="flow" value="([^"]+)"/.exec(browser.html)![1]!;
      const response = await fetch(`${s.issuer}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ flow, ...fields }),
      });
      cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
      browser.status = response.status;
      browser.html = await response.text();
    };
    return { browser, post };
  }

  it('refuses a wrong sign-in code, and after five tries asks for a new code', async () => {
    const clientId = await publicClient();
    const { browser, post } = await openSignIn(authorizeUrl(clientId, { code_challenge: pkce().challenge }));
    await post('/authorize/code', { destination: uniqueEmail('wrong') });
    for (let i = 0; i < 4; i++) {
      await post('/authorize/verify', { code: '000000' });
      expect(browser.status).toBe(401);
      expect(browser.html).toContain('id="enter-code"');
    }
    await post('/authorize/verify', { code: '000000' });
    // The attempt is spent (connect's limit of five checks): even the right code no longer works.
    await post('/authorize/verify', { code: '111111' });
    expect(browser.html).toContain('id="sign-in"');
    expect(browser.html).not.toContain('id="consent"');
  });

  it("throttles sign-in codes with connect's limits (resend cooldown, where codes reach real inboxes)", async () => {
    const clientId = await publicClient();
    const signIn = async (email: string) => {
      const { browser, post } = await openSignIn(
        authorizeUrl(clientId, { code_challenge: pkce().challenge }),
      );
      await post('/authorize/code', { destination: email });
      return browser;
    };
    // A sandbox client's codes go to the local outbox: nobody's inbox to protect.
    const outboxOnly = uniqueEmail('outbox');
    expect((await signIn(outboxOnly)).status).toBe(200);
    expect((await signIn(outboxOnly)).status).toBe(200);
    const config = s.t.ctx.config;
    config.sandboxRealDelivery = true;
    try {
      const email = uniqueEmail('cooldown');
      expect((await signIn(email)).status).toBe(200);
      const again = await signIn(email);
      expect(again.status).toBe(429);
      expect(again.html).toContain('id="sign-in"');
    } finally {
      config.sandboxRealDelivery = false;
    }
  });
});

describe('token', () => {
  it('exchanges a code once, with no-store, for a token pair bound to the tool server', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await approvedCode(clientId);
    const response = await token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      // RFC 8707: a trailing slash is tolerated (docs/oauth-mcp.md).
      resource: `${s.resource}/`,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = await response.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^cat_/),
      refresh_token: expect.stringMatching(/^crt_/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'purser:tools',
    });
    const principal = await s.t.ctx.auth.authenticate(body.access_token);
    expect(principal).toMatchObject({ kind: 'connection', audience: s.resource, livemode: false });
  });

  it('refuses a wrong code verifier and a missing one', async () => {
    const clientId = await publicClient();
    const { code } = await approvedCode(clientId);
    const base = exchangeBody(clientId, code);
    await expectOAuthError(await token({ ...base, code_verifier: pkce().verifier }), 400, 'invalid_grant');
    await expectOAuthError(await token(base), 400, 'invalid_grant');
  });

  it('refuses a missing or wrong resource on the code exchange and the refresh', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await approvedCode(clientId);
    const base = {
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    };
    await expectOAuthError(await token(base), 400, 'invalid_request');
    await expectOAuthError(await token({ ...base, resource: `${s.issuer}/api` }), 400, 'invalid_target');
    const pair = await tokensFor(clientId);
    await expectOAuthError(
      await refresh(clientId, pair.refresh_token, { resource: 'https://other.example/mcp' }),
      400,
      'invalid_target',
    );
    // RFC 6749 §6: no scope beyond the grant's; the refused refresh spent nothing.
    await expectOAuthError(
      await refresh(clientId, pair.refresh_token, { scope: 'admin' }),
      400,
      'invalid_scope',
    );
    const narrowed = await refresh(clientId, pair.refresh_token, { scope: 'purser:tools' });
    expect(narrowed.status).toBe(200);
    expect((await narrowed.json()).scope).toBe('purser:tools');
  });

  it('refuses another redirect_uri than the authorization request had', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await approvedCode(clientId);
    const response = await token(
      exchangeBody(clientId, code, { code_verifier: verifier, redirect_uri: 'http://127.0.0.1:9/other' }),
    );
    await expectOAuthError(response, 400, 'invalid_grant');
  });

  it('refuses an expired code (60 seconds)', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await approvedCode(clientId);
    s.t.clock.advance(61_000);
    const response = await token(exchangeBody(clientId, code, { code_verifier: verifier }));
    expect(await expectOAuthError(response, 400, 'invalid_grant')).toMatch(/expired/);
  });

  it("refuses a code or refresh token of another organization's or mode's client", async () => {
    const clientId = await publicClient();
    const other = await s.t.createOrg('Other');
    const foreign = await s.t.ctx.orgs.createClient(other.organization_id, {
      mode: 'sandbox',
      type: 'public',
      redirectUris: [REDIRECT],
    });
    const production = await createClient(s, { type: 'public', redirectUri: REDIRECT, mode: 'production' });
    await s.t.ctx.orgs.updateOrganization(s.org.organization_id, { subscription: 'active' });
    try {
      const { code, verifier } = await approvedCode(clientId);
      for (const intruder of [foreign.client_id, production.client_id]) {
        const response = await token(exchangeBody(intruder, code, { code_verifier: verifier }));
        await expectOAuthError(response, 400, 'invalid_grant');
      }
      const pair = await tokensFor(clientId);
      for (const intruder of [foreign.client_id, production.client_id])
        await expectOAuthError(await refresh(intruder, pair.refresh_token), 400, 'invalid_grant');
    } finally {
      await s.t.ctx.orgs.updateOrganization(s.org.organization_id, { subscription: 'none' });
    }
  });

  it('needs an active subscription for a production client (invalid_client, with the reason)', async () => {
    const production = await createClient(s, { type: 'public', redirectUri: REDIRECT, mode: 'production' });
    const refused = await refresh(production.client_id, 'crt_whatever');
    expect(await expectOAuthError(refused, 401, 'invalid_client')).toMatch(/subscription/);
    const page = await fetch(authorizeUrl(production.client_id, { code_challenge: pkce().challenge }), {
      redirect: 'manual',
    });
    expect(new URL(page.headers.get('location')!).searchParams.get('error')).toBe('unauthorized_client');
  });

  it("answers a suspended organization's client 403 access_denied, as the platform token endpoint does", async () => {
    const clientId = await publicClient();
    const pair = await tokensFor(clientId);
    await s.t.ctx.orgs.updateOrganization(s.org.organization_id, { status: 'suspended' });
    try {
      await expectOAuthError(await refresh(clientId, pair.refresh_token), 403, 'access_denied');
      const page = await fetch(authorizeUrl(clientId, { code_challenge: pkce().challenge }), {
        redirect: 'manual',
      });
      expect(new URL(page.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
    } finally {
      await s.t.ctx.orgs.updateOrganization(s.org.organization_id, { status: 'active' });
    }
    expect((await refresh(clientId, pair.refresh_token)).status).toBe(200);
  });

  it('expires access tokens after an hour; a refresh gives a working one', async () => {
    const clientId = await publicClient();
    const pair = await tokensFor(clientId);
    s.t.clock.advance(3_601_000);
    expect(await s.t.ctx.auth.authenticate(pair.access_token)).toBeNull();
    const renewed = await refresh(clientId, pair.refresh_token);
    expect(renewed.status).toBe(200);
    expect(await s.t.ctx.auth.authenticate((await renewed.json()).access_token)).not.toBeNull();
  });

  it('authenticates confidential clients and refuses a secret from a public one', async () => {
    const confidential = await createClient(s, { type: 'confidential', redirectUri: REDIRECT });
    const inBody = await refresh(confidential.client_id, 'crt_x');
    // The Basic challenge answers only a client that tried HTTP Basic (RFC 6749 §5.2).
    expect(inBody.headers.get('www-authenticate')).toBeNull();
    await expectOAuthError(inBody, 401, 'invalid_client');
    const basic = await refresh(confidential.client_id, 'crt_x', {});
    expect(basic.status).toBe(401);
    const withBasic = await token(
      { grant_type: 'refresh_token', refresh_token: 'crt_x', resource: s.resource },
      { authorization: `Basic ${Buffer.from(`${confidential.client_id}:wrong`).toString('base64')}` },
    );
    expect(withBasic.status).toBe(401);
    expect(withBasic.headers.get('www-authenticate')).toMatch(/^Basic/);
    const clientId = await publicClient();
    await expectOAuthError(await refresh(clientId, 'crt_x', { client_secret: 'x' }), 401, 'invalid_client');
  });

  it('spec §5.6: enforces PKCE for confidential clients too, and needs their secret on the exchange and the refresh', async () => {
    const confidential = await createClient(s, { type: 'confidential', redirectUri: REDIRECT });
    const clientId = confidential.client_id;
    const secret = confidential.client_secret!;
    // No challenge at /authorize: refused as for a public client.
    const response = await fetch(authorizeUrl(clientId, { code_challenge_method: null }), {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const { code } = await approvedCode(clientId);
    const base = exchangeBody(clientId, code);
    // The secret does not stand in for the verifier, and the verifier not for the secret.
    await expectOAuthError(await token({ ...base, client_secret: secret }), 400, 'invalid_grant');
    await expectOAuthError(
      await token({ ...base, client_secret: secret, code_verifier: pkce().verifier }),
      400,
      'invalid_grant',
    );
    const { code: second, verifier: secondVerifier } = await approvedCode(clientId);
    await expectOAuthError(
      await token({ ...base, code: second, code_verifier: secondVerifier }),
      401,
      'invalid_client',
    );
    const { code: third, verifier: thirdVerifier } = await approvedCode(clientId);
    const exchanged = await token({
      ...base,
      code: third,
      code_verifier: thirdVerifier,
      client_secret: secret,
    });
    expect(exchanged.status).toBe(200);
    const pair = (await exchanged.json()) as { access_token: string; refresh_token: string };
    expect(Object.keys(pair).sort()).toEqual(
      ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type'].sort(),
    );
    // Refresh: without the secret refused; with it, a new pair, and the old refresh token stops.
    await expectOAuthError(await refresh(clientId, pair.refresh_token), 401, 'invalid_client');
    const renewed = await refresh(clientId, pair.refresh_token, { client_secret: secret });
    expect(renewed.status).toBe(200);
    const next = (await renewed.json()) as { refresh_token: string };
    expect(next.refresh_token).not.toBe(pair.refresh_token);
  });

  it('answers unsupported_grant_type and invalid_request in the OAuth body', async () => {
    await expectOAuthError(
      await token({ grant_type: 'password', client_id: 'x' }),
      400,
      'unsupported_grant_type',
    );
    await expectOAuthError(await token({ client_id: 'x' }), 400, 'invalid_request');
  });

  it('answers unauthorized_client (400) to a client asking for a grant it was not given', async () => {
    const clientId = await publicClient();
    await s.t.ctx.db
      .updateTable('clients')
      .set({ grant_types: JSON.stringify(['authorization_code']) })
      .where('id', '=', clientId)
      .execute();
    const description = await expectOAuthError(await refresh(clientId, 'crt_x'), 400, 'unauthorized_client');
    expect(description).toBe('This client may not use the refresh_token grant.');
  });

  it('refuses NUL in a parameter at the edge, in the OAuth body', async () => {
    const response = await token({
      grant_type: 'refresh_token',
      client_id: 'cli_\u0000x',
      refresh_token: 'x',
    });
    await expectOAuthError(response, 400, 'invalid_request');
    const revoke = await fetch(`${s.issuer}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'a\u0000b', client_id: 'x' }),
    });
    await expectOAuthError(revoke, 400, 'invalid_request');
  });
});

describe('connected apps', () => {
  it('lists the apps of the user and disconnects one: both tokens stop at once', async () => {
    const email = uniqueEmail('apps');
    const clientId = await publicClient();
    const pair = await tokensFor(clientId, { email });
    // The page is reached from the sign-in page, signing in with the same code.
    const opened = await fetch(`${s.issuer}/apps?client_id=${clientId}`, { redirect: 'manual' });
    let cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
    let html = await opened.text();
    expect(opened.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const post = async (path: string, fields: Record<string, string>) => {
      const flow = /name="flow" value="([^"]+)"/.exec(html)![1]!;
      const response = await fetch(`${s.issuer}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ flow, ...fields }),
      });
      cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
      html = await response.text();
      return response;
    };
    await post('/apps/code', { destination: email });
    expect((await post('/apps/verify', { code: '111111' })).status).toBe(200);
    expect(html).toContain('Test assistant');
    const connectionId = /data-connection="([^"]+)"/.exec(html)![1]!;
    await post('/apps/disconnect', { connection_id: connectionId });
    expect(html).toContain('id="no-apps"');

    expect(await s.t.ctx.auth.authenticate(pair.access_token)).toBeNull();
    await expectOAuthError(await refresh(clientId, pair.refresh_token), 400, 'invalid_grant');
  });
});

describe('metadata and registration', () => {
  it('serves protected-resource metadata at both well-known names, with CORS', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const response = await fetch(`${s.issuer}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toMatchObject({
        resource: s.resource,
        authorization_servers: [s.issuer],
        scopes_supported: ['purser:tools', 'purser:spend'],
        bearer_methods_supported: ['header'],
      });
    }
    const preflight = await fetch(`${s.issuer}/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const get = await fetch(`${s.issuer}/token`);
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ error: 'method_not_allowed', error_description: expect.any(String) });
  });

  it('registers public clients (RFC 7591) and refuses bad redirect URIs', async () => {
    const register = (body: unknown) =>
      fetch(`${s.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await register({
      redirect_uris: [REDIRECT],
      client_name: 'Assistant',
      token_endpoint_auth_method: 'client_secret_post',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    const client = await created.json();
    expect(client).toMatchObject({
      client_name: 'Assistant',
      token_endpoint_auth_method: 'none',
      redirect_uris: [REDIRECT],
    });
    expect(client).not.toHaveProperty('client_secret');
    await tokensFor(client.client_id);
    for (const uri of ['http://example.com/cb', 'https://x.example/cb#frag', 'javascript:alert(1)']) {
      await expectOAuthError(await register({ redirect_uris: [uri] }), 400, 'invalid_redirect_uri');
    }
    await expectOAuthError(
      await register({ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }),
      400,
      'invalid_client_metadata',
    );
  });
});

describe('registration out of the box', () => {
  const metadataOf = async (t: TestApp) =>
    (await t.request({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).json();
  const register = (t: TestApp) =>
    t.request({
      method: 'POST',
      url: '/register',
      headers: { 'content-type': 'application/json' },
      payload: { redirect_uris: [REDIRECT], client_name: 'Assistant' },
    });

  it("without OAUTH_REGISTRATION, outside production, registers into the oldest organization's sandbox", async () => {
    const t = await startTestApp();
    try {
      expect(await metadataOf(t)).toMatchObject({
        registration_endpoint: 'http://purser.test/register',
        client_id_metadata_document_supported: true,
      });
      const none = await register(t);
      expect(none.statusCode).toBe(403);
      expect(none.json().error_description).toMatch(/No organization exists yet/);
      const oldest = await t.createOrg('First');
      await t.createOrg('Second');
      const created = await register(t);
      expect(created.statusCode).toBe(201);
      const client = await t.ctx.orgs.findClient(created.json().client_id);
      expect(client).toMatchObject({ organization_id: oldest.organization_id, livemode: 0, type: 'public' });
    } finally {
      await t.close();
    }
  });

  it('is off with OAUTH_REGISTRATION=off, and in production unless it names an organization', async () => {
    const t = await startTestApp({ OAUTH_REGISTRATION: 'off' });
    try {
      await t.createOrg('First');
      const metadata = await metadataOf(t);
      expect(metadata).not.toHaveProperty('registration_endpoint');
      expect(metadata.client_id_metadata_document_supported).toBe(false);
      const refused = await register(t);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('access_denied');
    } finally {
      await t.close();
    }
    expect(loadOAuthConfig({ NODE_ENV: 'production' }).registration).toBeNull();
    expect(
      loadOAuthConfig({ NODE_ENV: 'production', OAUTH_REGISTRATION: 'org_abc:production' }).registration,
    ).toEqual({
      organizationId: 'org_abc',
      livemode: true,
    });
    expect(() => loadOAuthConfig({ OAUTH_REGISTRATION: 'yes' })).toThrow(/OAUTH_REGISTRATION/);
  });
});

describe('MCP_URL with a path', () => {
  it('mounts the server under the path and serves the path-inserted metadata', async () => {
    const other = await startOAuthServer({ mcpPath: '/oauth-mcp' });
    try {
      for (const path of [
        '/oauth-mcp/.well-known/oauth-authorization-server',
        '/.well-known/oauth-authorization-server/oauth-mcp',
      ]) {
        const response = await fetch(`${new URL(other.issuer).origin}${path}`);
        expect(response.status, path).toBe(200);
        expect(await response.json()).toMatchObject({
          issuer: other.issuer,
          token_endpoint: `${other.issuer}/token`,
        });
      }
      const resource = await fetch(
        `${new URL(other.issuer).origin}/.well-known/oauth-protected-resource/oauth-mcp/mcp`,
      );
      expect((await resource.json()).resource).toBe(other.resource);
    } finally {
      await other.close();
    }
  });
});

describe('races', () => {
  it('lets exactly one of two parallel exchanges of a code win, and then revokes what it got', async () => {
    const clientId = await publicClient();
    const { code, verifier } = await approvedCode(clientId);
    const exchange = () => token(exchangeBody(clientId, code, { code_verifier: verifier }));
    const answers = await Promise.all([exchange(), exchange()]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = answers.find((answer) => answer.status === 200)!;
    // A second use of a code is a replay, however close in time: the tokens from it are revoked.
    expect(await s.t.ctx.auth.authenticate((await winner.json()).access_token)).toBeNull();
  });

  it('forgets expired codes in the worker sweep', async () => {
    const clientId = await publicClient();
    await approvedCode(clientId);
    s.t.clock.advance(121_000);
    expect(await s.t.ctx.oauth.sweepExpiredCodes()).toBeGreaterThan(0);
  });
});
