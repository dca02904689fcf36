import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type OAuthServer, signInAndDecide, startOAuthServer } from './helpers.ts';

/**
 * An independent client library, panva's oauth4webapi, with its default (strict) checks: issuer
 * match on discovery, PKCE, RFC 9207 `iss` on the authorization response, token response shape.
 * `allowInsecureRequests` only because the test server is plain http on loopback.
 */
let s: OAuthServer;
let as: oauth.AuthorizationServer;
const REDIRECT = 'http://127.0.0.1:9/callback';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

beforeAll(async () => {
  s = await startOAuthServer();
  const issuer = new URL(s.issuer);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
});
afterAll(() => s.close());

/** Authorization code flow up to the token response, for this client and its authentication. */
async function codeFlow(client: oauth.Client, auth: oauth.ClientAuth) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    resource: s.resource,
    scope: 'purser:tools',
    state,
  }).toString();
  const callback = await signInAndDecide(url);
  // RFC 9207: validateAuthResponse insists on `iss` because the metadata announces it.
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const exchange = () =>
    oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT, verifier, {
      additionalParameters: { resource: s.resource },
      ...insecure,
    });
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange());
  return { tokens, exchange };
}

describe('oauth4webapi against the authorization server', () => {
  it('discovers the metadata the issue asks for', () => {
    expect(as).toMatchObject({
      issuer: s.issuer,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining([
        'none',
        'client_secret_post',
        'client_secret_basic',
      ]),
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      registration_endpoint: `${s.issuer}/register`,
      revocation_endpoint: `${s.issuer}/revoke`,
      scopes_supported: ['purser:tools', 'purser:spend'],
    });
    expect(as.scopes_supported).not.toContain('openid');
  });

  it('runs the code flow for a public client: tokens, refresh rotation, reuse revokes the grant', async () => {
    const created = await createClient(s, { type: 'public', redirectUri: REDIRECT });
    const client: oauth.Client = { client_id: created.client_id, token_endpoint_auth_method: 'none' };
    const { tokens } = await codeFlow(client, oauth.None());
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'purser:tools' });
    const whoami = await s.t.ctx.auth.authenticate(tokens.access_token);
    expect(whoami).toMatchObject({ kind: 'connection', clientId: created.client_id, audience: s.resource });

    const refresh = (token: string) =>
      oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, {
        additionalParameters: { resource: s.resource },
        ...insecure,
      });
    const rotated = await oauth.processRefreshTokenResponse(as, client, await refresh(tokens.refresh_token!));
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(await s.t.ctx.auth.authenticate(rotated.access_token)).not.toBeNull();

    // Within the retry grace, the rotated-out token is a retry of the latest rotation only: once its
    // successor was used, it is replay, and the grant is revoked.
    const again = await oauth.processRefreshTokenResponse(as, client, await refresh(rotated.refresh_token!));
    await expect(
      oauth.processRefreshTokenResponse(as, client, await refresh(tokens.refresh_token!)),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await s.t.ctx.auth.authenticate(again.access_token)).toBeNull();
    await expect(
      oauth.processRefreshTokenResponse(as, client, await refresh(again.refresh_token!)),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('after the retry grace, a rotated-out token is theft: the grant is revoked', async () => {
    const created = await createClient(s, { type: 'public', redirectUri: REDIRECT });
    const client: oauth.Client = { client_id: created.client_id, token_endpoint_auth_method: 'none' };
    const { tokens } = await codeFlow(client, oauth.None());
    const refresh = (token: string) =>
      oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, {
        additionalParameters: { resource: s.resource },
        ...insecure,
      });
    const rotated = await oauth.processRefreshTokenResponse(as, client, await refresh(tokens.refresh_token!));
    // After the retry grace, the rotated-out token presented again is theft: the grant is revoked.
    s.t.clock.advance(11_000);
    await expect(
      oauth.processRefreshTokenResponse(as, client, await refresh(tokens.refresh_token!)),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await s.t.ctx.auth.authenticate(rotated.access_token)).toBeNull();
    await expect(
      oauth.processRefreshTokenResponse(as, client, await refresh(rotated.refresh_token!)),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('runs the code flow for a confidential client with client_secret_post and client_secret_basic', async () => {
    for (const method of ['client_secret_post', 'client_secret_basic'] as const) {
      const created = await createClient(s, { type: 'confidential', redirectUri: REDIRECT });
      const client: oauth.Client = { client_id: created.client_id, token_endpoint_auth_method: method };
      const secret = created.client_secret!;
      const auth =
        method === 'client_secret_post' ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret);
      const { tokens } = await codeFlow(client, auth);
      expect(tokens.access_token).toMatch(/^cat_/);

      const wrong =
        method === 'client_secret_post' ? oauth.ClientSecretPost('nope') : oauth.ClientSecretBasic('nope');
      const refused = await oauth.refreshTokenGrantRequest(as, client, wrong, tokens.refresh_token!, {
        additionalParameters: { resource: s.resource },
        ...insecure,
      });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('refuses a replayed code and revokes the tokens issued from it', async () => {
    const created = await createClient(s, { type: 'public', redirectUri: REDIRECT });
    const client: oauth.Client = { client_id: created.client_id, token_endpoint_auth_method: 'none' };
    const { tokens, exchange } = await codeFlow(client, oauth.None());
    await expect(oauth.processAuthorizationCodeResponse(as, client, await exchange())).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await s.t.ctx.auth.authenticate(tokens.access_token)).toBeNull();
  });

  it('revokes a grant with RFC 7009: both tokens stop', async () => {
    const created = await createClient(s, { type: 'public', redirectUri: REDIRECT });
    const client: oauth.Client = { client_id: created.client_id, token_endpoint_auth_method: 'none' };
    const { tokens } = await codeFlow(client, oauth.None());
    const response = await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    await oauth.processRevocationResponse(response);
    expect(await s.t.ctx.auth.authenticate(tokens.access_token)).toBeNull();
    const refresh = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, {
      additionalParameters: { resource: s.resource },
      ...insecure,
    });
    expect((await refresh.json()).error).toBe('invalid_grant');
  });

  it("revokes a grant by its access token too, and only the presenting client's (RFC 7009 §2.1)", async () => {
    const created = await createClient(s, { type: 'public', redirectUri: REDIRECT });
    const client: oauth.Client = { client_id: created.client_id, token_endpoint_auth_method: 'none' };
    const other = await createClient(s, { type: 'public', redirectUri: REDIRECT });
    const otherClient: oauth.Client = { client_id: other.client_id, token_endpoint_auth_method: 'none' };
    const { tokens } = await codeFlow(client, oauth.None());
    // Another client's revocation of the token is answered 200 and changes nothing (§2.2).
    const foreign = await oauth.revocationRequest(
      as,
      otherClient,
      oauth.None(),
      tokens.access_token,
      insecure,
    );
    await oauth.processRevocationResponse(foreign);
    expect(await s.t.ctx.auth.authenticate(tokens.access_token)).not.toBeNull();
    const response = await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure);
    await oauth.processRevocationResponse(response);
    expect(await s.t.ctx.auth.authenticate(tokens.access_token)).toBeNull();
    const refresh = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, {
      additionalParameters: { resource: s.resource },
      ...insecure,
    });
    expect((await refresh.json()).error).toBe('invalid_grant');
  });
});
