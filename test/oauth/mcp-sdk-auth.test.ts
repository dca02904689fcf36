import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auth as clientAuth } from '@modelcontextprotocol/client';
import { auth as sdkAuth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppProvider, type OAuthServer, signInAndDecide, startOAuthServer } from './helpers.ts';

/**
 * The MCP SDK's own OAuth client, `auth()`, from the tool server's URL: protected-resource metadata,
 * authorization server metadata, registration (dynamic, or a Client ID Metadata Document), the
 * authorization (the sign-in form filled by plain HTTP requests), the code exchange, and a refresh
 * after the access token expired. Run with the 1.x SDK and the 2.x client.
 *
 * The metadata document must be https (draft §3), so it is served by a local TLS server whose
 * self-signed certificate the authorization server trusts through OAUTH_CLIENT_DOCUMENT_CA_FILE;
 * its loopback address is reachable because sandbox follows the webhook SSRF policy, which allows
 * private destinations in sandbox when BASE_URL is loopback (a developer's machine).
 */
const REDIRECT = 'http://127.0.0.1:9/callback';

let s: OAuthServer;
let dir: string;
let documentServer: https.Server;
let documentUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'purser-cimd-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  documentServer = https.createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      if (req.url === '/impostor.json') {
        // A document that names another client_id: refused (the draft's §4.1 check).
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ client_id: documentUrl, redirect_uris: [REDIRECT] }));
      }
      if (req.url === '/large.json') return res.writeHead(200).end(' '.repeat(10_000));
      if (req.url !== '/client.json') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(
        JSON.stringify({
          client_id: documentUrl,
          client_name: 'Document Assistant',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
    },
  );
  await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
  documentUrl = `https://127.0.0.1:${(documentServer.address() as AddressInfo).port}/client.json`;
  s = await startOAuthServer({ env: { OAUTH_CLIENT_DOCUMENT_CA_FILE: join(dir, 'cert.pem') } });
});
afterAll(async () => {
  await s.close();
  await new Promise<void>((resolve) => documentServer.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const libraries = [
  ['@modelcontextprotocol/sdk 1.x', sdkAuth],
  ['@modelcontextprotocol/client 2.x', clientAuth as unknown as typeof sdkAuth],
] as const;

describe.each(libraries)('%s auth()', (_name, auth) => {
  async function connect(provider: AppProvider) {
    const serverUrl = s.resource;
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('resource')).toBe(s.resource);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await signInAndDecide(authorizationUrl);
    expect(callback.searchParams.get('state')).toBe('sdk-state');
    expect(callback.searchParams.get('iss')).toBe(s.issuer);
    const code = callback.searchParams.get('code')!;
    // The 2.x client checks `iss` against the issuer it discovered (RFC 9207 §2.4).
    const iss = callback.searchParams.get('iss')!;
    expect(await auth(provider, { serverUrl, authorizationCode: code, iss } as never)).toBe('AUTHORIZED');
    const first = provider.saved!;
    expect(await s.t.ctx.auth.authenticate(first.access_token)).toMatchObject({
      kind: 'connection',
      audience: s.resource,
    });

    // The hour passes: the access token is refused, a refresh gets a working pair.
    s.t.clock.advance(3_601_000);
    expect(await s.t.ctx.auth.authenticate(first.access_token)).toBeNull();
    expect(await auth(provider, { serverUrl })).toBe('AUTHORIZED');
    const second = provider.saved!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await s.t.ctx.auth.authenticate(second.access_token)).not.toBeNull();

    // The tokens are the tool server's: the SDK's client lists the tools and calls one with them.
    const client = new Client({ name: 'sdk-assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.resource), { authProvider: provider }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('whoami');
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.isError).toBeFalsy();
    expect(who.structuredContent).toMatchObject({ client_id: provider.client?.client_id, test_mode: true });
    await client.close();
    return provider;
  }

  it('registers dynamically, authorizes, exchanges the code and refreshes', async () => {
    const provider = await connect(new AppProvider(REDIRECT));
    expect(provider.client?.client_id).toMatch(/^cli_/);
  });

  it('uses a Client ID Metadata Document instead of registering', async () => {
    const provider = await connect(new AppProvider(REDIRECT, documentUrl));
    expect(provider.client?.client_id).toBe(documentUrl);
    const client = await s.t.ctx.orgs.findClient(documentUrl);
    expect(client).toMatchObject({ name: 'Document Assistant', type: 'public' });
  });
});

describe('Client ID Metadata Documents that are refused', () => {
  it('shows the error page for a document naming another client, too large, missing, or at a metadata address', async () => {
    const origin = new URL(documentUrl).origin;
    for (const clientId of [
      `${origin}/impostor.json`,
      `${origin}/large.json`,
      `${origin}/missing.json`,
      'https://169.254.169.254/latest/client.json',
      `${origin}/a/../client.json`,
    ]) {
      const url = new URL(`${s.issuer}/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        resource: s.resource,
      }).toString();
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status, clientId).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
    expect(await s.t.ctx.orgs.findClient(`${new URL(documentUrl).origin}/impostor.json`)).toBeUndefined();
  });
});
