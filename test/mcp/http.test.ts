import {
  Client as Client2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransport2,
} from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { HOUR } from '../../src/core/clock.ts';
import { TOOLS } from '../../src/domains/mcp/tools.ts';
import { useMcp } from './helpers.ts';

const f = useMcp();

const RESOURCE_METADATA = 'http://purser.test/.well-known/oauth-protected-resource/mcp';
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const WHOAMI = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function expectUnauthorized(response: Response, tokenPresented: boolean) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(
    `Bearer resource_metadata="${RESOURCE_METADATA}"${tokenPresented ? ', error="invalid_token"' : ''}`,
  );
  expect((await response.json()).error.code).toBe('unauthorized');
}

describe('authentication', () => {
  it('answers a JSON-RPC round for a connection token', async () => {
    const { accessToken, userId } = await f.connect();
    const response = await f.post(WHOAMI, bearer(accessToken));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 2,
      result: { structuredContent: { user: { id: userId } } },
    });
  });

  it('answers each of many POSTs in flight at once, two users interleaved, as its own user', async () => {
    const [ada, bob] = [await f.connect(), await f.connect()];
    const callers = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? ada : bob));
    const answers = await Promise.all(
      callers.map(async (caller) => (await f.post(WHOAMI, bearer(caller.accessToken))).json()),
    );
    answers.forEach((answer, i) => {
      expect(answer.result.structuredContent.user.id).toBe(callers[i]!.userId);
    });
  });

  it('refuses a missing bearer with the resource-metadata challenge, without invalid_token', async () => {
    await expectUnauthorized(await f.post(LIST), false);
  });

  it('refuses unknown, platform and API-key bearers with invalid_token', async () => {
    for (const token of ['cat_notatoken', f.sandbox, f.org.sandbox.api_key, f.org.sandbox.client_secret]) {
      await expectUnauthorized(await f.post(LIST, bearer(token)), true);
    }
    await expectUnauthorized(await f.post(LIST, { authorization: 'Basic Zm9vOmJhcg==' }), true);
  });

  it('refuses an expired token (the clock moved past its hour), and a refreshed one works again', async () => {
    const user = await f.connect();
    expect((await f.post(LIST, bearer(user.accessToken))).status).toBe(200);
    f.t.clock.advance(HOUR + 1000);
    try {
      await expectUnauthorized(await f.post(LIST, bearer(user.accessToken)), true);
      await f.renewTokens();
      const refreshed = await f.t.call('POST', '/api/v2/connect/refresh', {
        token: f.sandbox,
        body: { refresh_token: user.refreshToken },
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect((await f.post(LIST, bearer(refreshed.json().access_token))).status).toBe(200);
    } finally {
      await f.renewTokens();
    }
  });

  it('refuses a token whose family was revoked by refresh-token reuse', async () => {
    const user = await f.connect();
    const first = await f.t.call('POST', '/api/v2/connect/refresh', {
      token: f.sandbox,
      body: { refresh_token: user.refreshToken },
    });
    const next = first.json().access_token as string;
    expect((await f.post(LIST, bearer(next))).status).toBe(200);
    f.t.clock.advance(60_000); // past the retry grace: presenting the old token again is reuse
    await f.t.call('POST', '/api/v2/connect/refresh', {
      token: f.sandbox,
      body: { refresh_token: user.refreshToken },
    });
    await expectUnauthorized(await f.post(LIST, bearer(next)), true);
  });

  it('refuses the tokens of a suspended organization', async () => {
    const org = await f.t.createOrg('Suspended');
    const platform = await f.t.platformToken(org.sandbox);
    const user = await f.connect({ platformToken: platform });
    await f.t.ctx.orgs.updateOrganization(org.organization_id, { status: 'suspended' });
    const response = await f.post(LIST, bearer(user.accessToken));
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('access_denied');
  });
});

describe('Origin and CORS', () => {
  it('accepts no Origin and the service’s own origins, refusing any other with 403', async () => {
    const { accessToken } = await f.connect();
    const own = await f.post(LIST, { ...bearer(accessToken), origin: 'http://purser.test' });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe('http://purser.test');
    expect(own.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    for (const origin of ['https://evil.example', 'null', 'http://purser.test.evil.example', 'file://']) {
      const response = await f.post(LIST, { ...bearer(accessToken), origin });
      expect(response.status, origin).toBe(403);
      expect((await response.json()).error.code).toBe('origin_not_allowed');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    }
    // Refused before the token is even looked at.
    expect((await f.post(LIST, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('accepts loopback origins for test-mode tokens only', async () => {
    const sandbox = await f.connect();
    const live = await f.connect({ production: true });
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:5173', 'http://[::1]:3000']) {
      expect((await f.post(LIST, { ...bearer(sandbox.accessToken), origin })).status, origin).toBe(200);
      const refused = await f.post(LIST, { ...bearer(live.accessToken), origin });
      expect(refused.status, origin).toBe(403);
      expect((await refused.json()).error.code).toBe('origin_not_allowed');
    }
    expect((await f.post(LIST, { ...bearer(live.accessToken), origin: 'http://purser.test' })).status).toBe(
      200,
    );
  });

  it('exposes WWW-Authenticate on a 401 to an accepted origin', async () => {
    const response = await f.post(LIST, { origin: 'http://localhost:6274' });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version',
    );
  });

  it('answers the preflight without a token, allowing the MCP headers', async () => {
    const preflight = await fetch(f.endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://purser.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://purser.test');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'mcp-protocol-version',
        'mcp-session-id',
        'last-event-id',
      ]),
    );
    expect(preflight.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    const refused = await fetch(f.endpoint, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const originless = await fetch(f.endpoint, { method: 'OPTIONS' });
    expect(originless.status).toBe(204);
    expect(originless.headers.get('access-control-allow-origin')).toBeNull();
    expect(originless.headers.get('access-control-expose-headers')).toBe(
      'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version',
    );
  });
});

describe('the stateless transport', () => {
  it('answers GET and DELETE with 405', async () => {
    const { accessToken } = await f.connect();
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(f.endpoint, {
        method,
        headers: { ...bearer(accessToken), accept: 'text/event-stream' },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });

  it('gives no session id and needs none', async () => {
    const { accessToken } = await f.connect();
    const init = await f.post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      },
      bearer(accessToken),
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    const { result } = await init.json();
    expect(result.serverInfo.name).toBe('purser');
    // Stateless: no stream to announce a changed tool list on.
    expect(result.capabilities.tools).toEqual({ listChanged: false });
    // The instructions describe errors as toolError builds them.
    expect(result.instructions).toContain('_meta["purser/error"]');
    expect(
      (await f.post(WHOAMI, { ...bearer(accessToken), 'mcp-protocol-version': '2025-06-18' })).status,
    ).toBe(200);
  });

  it('answers JSON-RPC errors as the SDK does (a bad Accept is 406, an unknown method a JSON-RPC error)', async () => {
    const { accessToken } = await f.connect();
    const notAcceptable = await f.post(LIST, { ...bearer(accessToken), accept: 'application/json' });
    expect(notAcceptable.status).toBe(406);
    const unknown = await f.post({ jsonrpc: '2.0', id: 9, method: 'nope/nope' }, bearer(accessToken));
    expect((await unknown.json()).error.code).toBe(-32601);
    const notification = await f.post(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      bearer(accessToken),
    );
    expect(notification.status).toBe(202);
  });
});

describe('Streamable HTTP rules of a POST', () => {
  it('answers a batch with an array, one response per request, notifications unanswered', async () => {
    const { accessToken } = await f.connect();
    const batch = await f.post(
      [
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      ],
      bearer(accessToken),
    );
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as { id: string; result: Record<string, unknown> }[];
    expect(answers.map((a) => a.id)).toEqual(['a', 'b']);
    expect(answers[1]!.result.structuredContent).toBeDefined();
    // A batch of one request is answered with the object, as the SDK's transport does.
    const single = await f.post([{ jsonrpc: '2.0', id: 7, method: 'tools/list' }], bearer(accessToken));
    expect((await single.json()).id).toBe(7);
  });

  it('refuses oversized batches, a batched initialize, an unsupported protocol version and bad messages', async () => {
    const { accessToken } = await f.connect();
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
    const expectRpcError = async (response: Response, status: number, code: number) => {
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
    };
    await expectRpcError(await f.post(tooMany, bearer(accessToken)), 400, -32600);
    const initialize = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    await expectRpcError(await f.post([initialize, LIST], bearer(accessToken)), 400, -32600);
    await expectRpcError(
      await f.post(LIST, { ...bearer(accessToken), 'mcp-protocol-version': '1999-01-01' }),
      400,
      -32000,
    );
    // The version header is not checked on initialize itself (the version is negotiated there).
    expect(
      (await f.post(initialize, { ...bearer(accessToken), 'mcp-protocol-version': '1999-01-01' })).status,
    ).toBe(200);
    await expectRpcError(await f.post([LIST, { jsonrpc: '1.0', id: 1 }], bearer(accessToken)), 400, -32700);
    await expectRpcError(await f.post([], bearer(accessToken)), 400, -32600);
    const twice = [LIST, { ...WHOAMI, id: 1 }];
    await expectRpcError(await f.post(twice, bearer(accessToken)), 400, -32600);
  });

  it('answers bad params and unknown tools with -32602 (protocol errors), next to the other answers', async () => {
    const { accessToken } = await f.connect();
    const call = (params: unknown, id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const answers = (await (
      await f.post(
        [
          call({ nme: 'whoami' }, 1),
          call({ name: 'whoami', arguments: 'x' }, 2),
          call({ name: 'no_such_tool', arguments: {} }, 3),
          { jsonrpc: '2.0', id: 4, method: 'initialize' },
          { ...WHOAMI, id: 5 },
        ],
        bearer(accessToken),
      )
    ).json()) as { id: number; error?: { code: number; message: string }; result?: unknown }[];
    expect(answers.map((a) => [a.id, a.error?.code ?? 'result'])).toEqual([
      [1, -32602],
      [2, -32602],
      [3, -32602],
      [4, -32602],
      [5, 'result'],
    ]);
    expect(answers[0]!.error!.message).toBe(
      'Invalid params: params.name: Invalid input: expected string, received undefined',
    );
    expect(answers[2]!.error!.message).toBe('Unknown tool: no_such_tool');
  });

  it('answers a tools/call alone with the very bytes it gets in a batch of one: results, tool errors, refused arguments', async () => {
    const { accessToken } = await f.connect();
    const call = (id: number | string, params: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params,
    });
    const calls = [
      WHOAMI,
      call('who', { name: 'whoami' }),
      call(3, { name: 'get_wallet', arguments: {} }),
      // The input schema's defaults (limit 10) applied.
      call(4, { name: 'list_cards', arguments: {} }),
      // A tool error, with its code in _meta.
      call(5, { name: 'check_balance', arguments: { card_id: 'card_nope' } }),
      // Arguments the tool's input schema refuses: the SDK's error result.
      call(6, { name: 'check_balance', arguments: { card_id: 5 } }),
      // A client asking for progress (none is sent in JSON mode).
      call(7, { name: 'whoami', arguments: {}, _meta: { progressToken: 'p7' } }),
    ];
    for (const message of calls) {
      const alone = await f.post(message, bearer(accessToken));
      const batched = await f.post([message], bearer(accessToken));
      expect(alone.status).toBe(200);
      expect(batched.status).toBe(200);
      expect(alone.headers.get('content-type')).toBe(batched.headers.get('content-type'));
      const text = await alone.text();
      expect(text, JSON.stringify(message)).toBe(await batched.text());
      expect(JSON.parse(text).result.content.length).toBe(1);
    }
  });

  it('answers a batch whose request the same batch cancels, without waiting for a response that never comes', async () => {
    const { accessToken } = await f.connect();
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    const alone = await f.post([{ jsonrpc: '2.0', id: 1, method: 'ping' }, cancel], bearer(accessToken));
    expect(alone.status).toBe(202);
    const withOther = await f.post(
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }, cancel, WHOAMI],
      bearer(accessToken),
    );
    expect(withOther.status).toBe(200);
    expect((await withOther.json()).id).toBe(2);
  });
});

describe('the 2.x client (@modelcontextprotocol/client)', () => {
  it('lists the tools and calls whoami', async () => {
    const { accessToken, userId } = await f.connect();
    const client = new Client2({ name: 'purser-test-2x', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport2(f.endpoint, {
      requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('whoami');
      expect(tools).toHaveLength(TOOLS.length);
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect((result.structuredContent as { user: { id: string } }).user.id).toBe(userId);
    } finally {
      await client.close();
    }
  });
});

describe('edge answers', () => {
  it('refuses a body that is not JSON (400), another content type (415) and a non-JSON-RPC message (400)', async () => {
    const { accessToken } = await f.connect();
    const notJson = await fetch(f.endpoint, {
      method: 'POST',
      headers: {
        ...bearer(accessToken),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":',
    });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe('invalid_request');
    const text = await fetch(f.endpoint, {
      method: 'POST',
      headers: {
        ...bearer(accessToken),
        'content-type': 'text/plain',
        accept: 'application/json, text/event-stream',
      },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    const notRpc = await f.post({ hello: 'world' }, bearer(accessToken));
    expect(notRpc.status).toBe(400);
    expect((await notRpc.json()).error.code).toBe(-32700);
  });
});
