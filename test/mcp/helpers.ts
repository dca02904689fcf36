import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { ERROR_META_KEY } from '../../src/domains/mcp/server.ts';
import { type CardsFixture, startCards } from '../cards/helpers.ts';
import { connectUser, uniqueEmail } from '../helpers/fixtures.ts';

/** The cards fixture, listening on a real loopback socket, with MCP steps. */
export interface McpFixture extends CardsFixture {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** `{origin}/mcp`. */
  endpoint: URL;
  /** A user connected through the sandbox client (or `platformToken`'s): their id and connection token. */
  connect(options?: { platformToken?: string; email?: string; production?: boolean }): Promise<{
    userId: string;
    accessToken: string;
    refreshToken: string;
  }>;
  /** The SDK client (`@modelcontextprotocol/sdk`), connected with this connection token. */
  client(accessToken: string): Promise<Client>;
  /** A raw JSON-RPC POST to the tool server. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export async function startMcp(
  env: Record<string, string> = {},
  target = {} as McpFixture,
): Promise<McpFixture> {
  const fixture = await startCards(env, target);
  await fixture.t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = fixture.t.app.server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const clients: Client[] = [];
  const close = fixture.close;
  return Object.assign(fixture, {
    origin,
    endpoint: new URL(`${origin}/mcp`),
    async connect(options: { platformToken?: string; email?: string; production?: boolean } = {}) {
      const token = options.platformToken ?? (options.production ? fixture.production : fixture.sandbox);
      const connected = await connectUser(
        fixture.t,
        token,
        { email: options.email ?? uniqueEmail('mcp') },
        { production: options.production ?? false },
      );
      return {
        userId: connected.userId,
        accessToken: connected.accessToken,
        refreshToken: connected.refreshToken,
      };
    },
    async client(accessToken: string) {
      const client = await mcpClient(origin, accessToken);
      clients.push(client);
      return client;
    },
    post(body: unknown, headers: Record<string, string> = {}) {
      return fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      const closing = close();
      // The tests' own fetch calls keep their sockets alive: a socket busy when the server began to
      // close would hold it open until its keep-alive timeout (72 s).
      fixture.t.app.server.closeAllConnections();
      await closing;
    },
  });
}

/** The SDK client (`@modelcontextprotocol/sdk`) of Purser at `origin`, connected with this connection token. */
export async function mcpClient(origin: string, accessToken: string): Promise<Client> {
  const client = new Client({ name: 'purser-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
  });
  await client.connect(transport);
  return client;
}

/**
 * The MCP app of a whole test file: started before its tests, closed after them once the ledger
 * proved its invariants (the tools move money).
 */
export function useMcp(env: Record<string, string> = {}): McpFixture {
  const fixture = {} as McpFixture;
  beforeAll(() => startMcp(env, fixture));
  afterAll(async () => {
    await fixture.expectSound();
    await fixture.close();
  });
  return fixture;
}

/** Calls a tool that must succeed; its structured content. */
export async function callOk(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; data: Record<string, unknown> }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, `${name}: ${JSON.stringify(result.content)}`).toBe(false);
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  expect(text.length, name).toBeGreaterThan(0);
  return { text, data: result.structuredContent as Record<string, unknown> };
}

/** Calls a tool that must fail as a tool error with this code; the message. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name}: ${JSON.stringify(result)}`).toBe(true);
  const meta = result._meta?.[ERROR_META_KEY] as { code: string; message: string } | undefined;
  expect(meta?.code, JSON.stringify(result)).toBe(code);
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  expect(text).toBe(`${code}: ${meta?.message}`);
  return meta?.message ?? '';
}
