import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppProvider, type OAuthServer, signInAndDecide, startOAuthServer, uniqueEmail } from './helpers.ts';

/**
 * The whole path an MCP client takes, with the SDK's own client and transport and nothing of ours
 * on the client side: a tool call without a token is refused (401 and its resource metadata), the
 * transport discovers the authorization server, registers, and sends the user to sign in; the code
 * comes back, tools are listed and called; an hour later the call is refused, the transport
 * refreshes by itself and the call goes through.
 */
const REDIRECT = 'http://127.0.0.1:9/callback';

let s: OAuthServer;
beforeAll(async () => {
  s = await startOAuthServer();
});
afterAll(async () => {
  await s.close();
});

it('401 → metadata → registration → sign-in → code → tools/list → whoami → expiry → refresh → whoami', async () => {
  const provider = new AppProvider(REDIRECT);
  const url = new URL(s.resource);
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const unauthorized = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(client.connect(unauthorized)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client?.client_id).toMatch(/^cli_/);
  expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(s.resource);

  const email = uniqueEmail('e2e');
  const callback = await signInAndDecide(provider.authorizationUrl!, { email });
  await unauthorized.finishAuth(callback.searchParams.get('code')!);
  await unauthorized.close();

  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await client.connect(transport);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(
    expect.arrayContaining(['whoami', 'list_cards', 'fund_wallet']),
  );
  const who = await client.callTool({ name: 'whoami', arguments: {} });
  expect(who.isError).toBeFalsy();
  expect(who.structuredContent).toMatchObject({
    user: { email },
    client_id: provider.client?.client_id,
    organization_id: s.org.organization_id,
    test_mode: true,
  });

  const first = provider.saved!;
  s.t.clock.advance(3_601_000);
  const again = await client.callTool({ name: 'whoami', arguments: {} });
  expect(again.isError).toBeFalsy();
  expect(again.structuredContent).toMatchObject({ user: { email } });
  expect(provider.saved!.access_token).not.toBe(first.access_token);
  expect(provider.saved!.refresh_token).not.toBe(first.refresh_token);
  await client.close();
});
