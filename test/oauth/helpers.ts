import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { SANDBOX_CODE, uniqueEmail } from '../helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

export { SANDBOX_CODE, uniqueEmail };

/** A port free right now, for an app whose MCP_URL must name the address it will listen on. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface OAuthServer {
  t: TestApp;
  org: CreatedOrganization;
  /** `MCP_URL` (= issuer), e.g. http://127.0.0.1:PORT or with a path. */
  issuer: string;
  /** The tool server resource, `{issuer}/mcp`. */
  resource: string;
  close(): Promise<void>;
}

/**
 * The app listening on a real port (client libraries speak HTTP to it), with one organization whose
 * sandbox takes dynamically registered and metadata-document clients. `mcpPath` mounts the
 * authorization server under a path of MCP_URL.
 */
export async function startOAuthServer(
  options: {
    env?: Record<string, string>;
    mcpPath?: string;
    registration?: 'sandbox' | 'production';
    /** `localhost` for a browser's WebAuthn, which never takes an IP address. */
    host?: '127.0.0.1' | 'localhost';
  } = {},
): Promise<OAuthServer> {
  const port = await freePort();
  const host = options.host ?? '127.0.0.1';
  const base = `http://${host}:${port}`;
  const issuer = `${base}${options.mcpPath ?? ''}`;
  const t = await startTestApp({ BASE_URL: base, MCP_URL: issuer, ...options.env });
  const org = await t.createOrg('Acme Wallet');
  // OAUTH_REGISTRATION names an organization, which a fresh database has only now.
  t.ctx.config.oauth.registration = {
    organizationId: org.organization_id,
    livemode: options.registration === 'production',
  };
  await t.app.listen({ port, host });
  return { t, org, issuer, resource: `${issuer}/mcp`, close: () => t.close() };
}

/** A client app's callback on loopback: records the query of each request it is sent. */
export async function callbackServer(): Promise<{ server: Server; url: string; hits: URL[] }> {
  const hits: URL[] = [];
  const server = createServer((req, res) => {
    hits.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><h1 id="back">Back in the app</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, hits };
}

/** A client made as `npx purser client create ORG --mode M [--public] --redirect-uri U` makes it. */
export async function createClient(
  s: OAuthServer,
  options: {
    type: 'public' | 'confidential';
    redirectUri: string;
    mode?: 'sandbox' | 'production';
    name?: string;
  },
) {
  return s.t.ctx.orgs.createClient(s.org.organization_id, {
    mode: options.mode ?? 'sandbox',
    type: options.type,
    name: options.name ?? 'Test assistant',
    redirectUris: [options.redirectUri],
  });
}

function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  expect(match, html).not.toBeNull();
  return match![1]!.replaceAll('&amp;', '&');
}

function flowOf(html: string): string {
  const match = /name="flow" value="([^"]+)"/.exec(html);
  expect(match, html).not.toBeNull();
  return match![1]!;
}

/**
 * A browser, as plain HTTP requests: opens the authorization URL, signs in with the one-time code
 * (the sandbox constant unless `code` is given) and approves or denies. Returns the redirect target.
 */
export async function signInAndDecide(
  authorizationUrl: string | URL,
  options: { email?: string; code?: string; decision?: 'approve' | 'deny' } = {},
): Promise<URL> {
  const origin = new URL(authorizationUrl).origin;
  let response = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(response.status, `authorize: ${response.headers.get('location')}`).toBe(200);
  let cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  let html = await response.text();
  const submit = async (fields: Record<string, string>) => {
    response = await fetch(`${origin}${formAction(html)}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ flow: flowOf(html), ...fields }),
    });
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    if (response.status !== 303) html = await response.text();
  };
  await submit({ destination: options.email ?? uniqueEmail('oauth') });
  expect(response.status, html).toBe(200);
  await submit({ code: options.code ?? SANDBOX_CODE });
  expect(response.status, html).toBe(200);
  expect(html).toContain('id="consent"');
  await submit({ decision: options.decision ?? 'approve' });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!);
}

/** A local server standing for a client app: it serves what `routes` says (a metadata document). */
export async function startLocalServer(
  routes: Record<string, () => { status: number; body: string; headers?: Record<string, string> }>,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (!route) return res.writeHead(404).end();
    const answer = route();
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What an MCP client application keeps (SDK `OAuthClientProvider`): its registration, tokens and PKCE verifier. */
export class AppProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(
    private readonly redirect: string,
    readonly clientMetadataUrl?: string,
  ) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: 'SDK Assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'sdk-state';
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  discovery: unknown;
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
}
