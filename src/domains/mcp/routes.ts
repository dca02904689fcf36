import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { bearerGuard, organizationSuspended } from '../../core/bearer.ts';
import type { Clock } from '../../core/clock.ts';
import { ApiError } from '../../core/errors.ts';
import { errorResponse, errorResponses, type RoutesApp, withExample } from '../../core/schemas.ts';
import type { AuthService } from '../auth/index.ts';
import { answerDirectly, directCall } from './direct.ts';
import { originVerdict, ownOrigins } from './origin.ts';
import { RecentUsers } from './recent-users.ts';
import { McpServers } from './server.ts';
import { type ConnectionPrincipal, TOOLS, type ToolServices } from './tools.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tool server's caller, set by its `authenticate` (not `principal`: the request log's). */
    connectionPrincipal: ConnectionPrincipal | null;
  }
}

/** Every tool the server has, by name: a call of any other is a protocol error (exchange.ts). */
const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));

/** The request headers a browser client may send (CORS preflight), per MCP Streamable HTTP. */
const ALLOWED_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
/** The response headers a browser client must be able to read: the 401 challenge and the session id. */
const EXPOSED_HEADERS = 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version';

/** Where the tool server lives under `MCP_URL` (its path, if any, then `/mcp`). */
export function mcpPaths(mcpUrl: string) {
  const prefix = new URL(mcpUrl).pathname.replace(/\/+$/, '');
  return {
    path: `${prefix}/mcp`,
    /** RFC 8707 resource indicator of the tool server: the audience its tokens must carry. */
    resource: `${mcpUrl}/mcp`,
    /** RFC 9728 §3: the protected-resource metadata of `{mcp_url}/mcp`. */
    resourceMetadata: `${mcpUrl}/.well-known/oauth-protected-resource/mcp`,
  };
}

/** RFC 8707 §2: the token's audience must be this resource; a trailing slash is tolerated. */
export function audienceMatches(audience: string | null | undefined, resource: string): boolean {
  if (audience === null || audience === undefined) return true; // connect-verify tokens: this resource
  return audience.replace(/\/$/, '') === resource;
}

export interface McpRoutesOptions {
  auth: AuthService;
  /** What the tools call (and `connect`, which finds the user a token is for). */
  tools: ToolServices;
  clock: Clock;
  mcpUrl: string;
  baseUrl: string;
  /** How long a user read for a token is reused (AUTH_CACHE_TTL_MS). */
  authCacheTtlMs: number;
}

/**
 * The MCP tool server at `POST {mcp_url}/mcp`: stateless Streamable HTTP, an MCP server and its
 * exchange (exchange.ts) lent to each request by `McpServers`, acting for the connection token's user only. JSON answers
 * (no SSE stream): every tool answers at once. GET and DELETE answer 405, as a stateless server does
 * (no stream to resume, no session to end).
 */
export async function mcpRoutes(
  app: RoutesApp,
  { auth, tools, clock, mcpUrl, baseUrl, authCacheTtlMs }: McpRoutesOptions,
): Promise<void> {
  const { path, resource, resourceMetadata } = mcpPaths(mcpUrl);
  const own = ownOrigins(mcpUrl, baseUrl);
  app.decorateRequest('connectionPrincipal', null);
  const servers = new McpServers();
  const users = new RecentUsers(
    (organizationId, livemode, userId) => tools.connect.findUser(organizationId, livemode, userId),
    clock,
    authCacheTtlMs,
  );

  const challenge = (tokenPresented: boolean) =>
    // RFC 6750 §3 with RFC 9728 §5.1: where the client learns how to get a token for this resource.
    `Bearer resource_metadata="${resourceMetadata}"${tokenPresented ? ', error="invalid_token"' : ''}`;
  const required = 'A valid connection token for this tool server is required (connect verify or OAuth).';
  const holderOf = bearerGuard({
    authenticate: (token) => auth.authenticate(token),
    required,
    challenge,
  });
  const unauthorized = (tokenPresented: boolean) =>
    new ApiError(401, 'unauthorized', required, {
      headers: { 'www-authenticate': challenge(tokenPresented) },
    });
  const originRefused = () =>
    new ApiError(403, 'origin_not_allowed', 'Requests from this Origin are not accepted by the tool server.');

  /** CORS for the origins the rule may accept; the rule itself runs in `authenticate`. */
  const corsHeaders = (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin === undefined || originVerdict(origin, own) === 'refused') return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    reply.header('vary', 'Origin');
  };

  /** Runs before the body is read: the Origin rule, then the bearer (docs/mcp-tools.md). */
  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    corsHeaders(request, reply);
    const verdict = originVerdict(request.headers.origin, own);
    if (verdict === 'refused') throw originRefused();
    const principal = await holderOf(request);
    // Platform tokens and API keys are not user tokens; an OAuth token for another resource is not ours.
    if (
      principal.kind !== 'connection' ||
      principal.userId === null ||
      principal.connectionId === null ||
      !audienceMatches('audience' in principal ? (principal.audience as string | null) : null, resource)
    ) {
      throw unauthorized(true);
    }
    if (!principal.organizationActive) throw organizationSuspended();
    // Loopback pages are for developing against test mode only.
    if (verdict === 'loopback' && principal.livemode) throw originRefused();
    // On the request, not in a WeakMap keyed by it: at thousands of requests a second such a map
    // grows between collections, and every set and get pays for it.
    request.connectionPrincipal = principal as ConnectionPrincipal;
  }

  const methodNotAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    corsHeaders(request, reply);
    if (originVerdict(request.headers.origin, own) === 'refused') throw originRefused();
    throw new ApiError(
      405,
      'method_not_allowed',
      'This tool server is stateless: POST JSON-RPC messages; there is no stream to open or session to end.',
      { headers: { allow: 'POST, OPTIONS' } },
    );
  };
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({ method, url: path, schema: { hide: true } as object, handler: methodNotAllowed });
  }

  // CORS preflight: no token (browsers never send one here). Without an Origin it is no browser's
  // preflight, and nothing is allowed to a page; it still answers what the server takes.
  app.options(path, { schema: { hide: true } as object }, async (request, reply) => {
    if (originVerdict(request.headers.origin, own) === 'refused') throw originRefused();
    corsHeaders(request, reply);
    return reply
      .header('access-control-expose-headers', EXPOSED_HEADERS)
      .code(204)
      .header('access-control-allow-methods', 'POST, GET, DELETE, OPTIONS')
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', '600')
      .send();
  });

  app.post(
    path,
    {
      onRequest: authenticate,
      // JSON-RPC is validated by the MCP SDK (its error answers are JSON-RPC); the schema documents it.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['MCP'],
        operationId: 'mcpMessage',
        security: [{ mcpToken: [] }],
        summary: 'MCP tool server (Streamable HTTP, stateless)',
        description:
          'JSON-RPC 2.0 messages of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`, …), ' +
          'answered as `application/json`. Bearer: a connection access token (connect verify) or an OAuth ' +
          `access token for the resource \`${resource}\`. Send \`Accept: application/json, text/event-stream\` ` +
          '(else `406`); a body that is not JSON-RPC is `400`; both answer a JSON-RPC error. Tool failures ' +
          'are tool results with `isError: true`. See ' +
          'docs/mcp-tools.md for the tools.',
        body: withExample(
          Type.Object(
            {
              jsonrpc: Type.Literal('2.0'),
              id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
              method: Type.String(),
              params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
            },
            { description: 'A JSON-RPC request or notification (or a batch of them).' },
          ),
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
        ),
        response: {
          200: withExample(
            Type.Object(
              {
                jsonrpc: Type.Literal('2.0'),
                id: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
                result: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
                error: Type.Optional(
                  Type.Object({
                    code: Type.Integer(),
                    message: Type.String(),
                    data: Type.Optional(Type.Unknown()),
                  }),
                ),
              },
              { description: 'The JSON-RPC response.' },
            ),
            {
              jsonrpc: '2.0',
              id: 1,
              result: {
                content: [
                  { type: 'text', text: 'Connected as user usr_3Fk9LmN2pQr7StUv (ada@example.com).' },
                ],
                structuredContent: { user: { id: 'usr_3Fk9LmN2pQr7StUv' } },
              },
            },
          ),
          202: Type.Null({ description: 'Notifications and responses only: accepted, no body.' }),
          ...errorResponses(401, 503, {
            401:
              'No bearer, or not a live connection/OAuth token for this resource (`unauthorized`); the ' +
              '`WWW-Authenticate` challenge names the protected-resource metadata.',
          }),
          403: errorResponse(
            403,
            'The Origin is not accepted (`origin_not_allowed`), or the organization is suspended (`access_denied`).',
            {
              code: 'origin_not_allowed',
              message: 'Requests from this Origin are not accepted by the tool server.',
            },
          ),
        },
      } as object,
    },
    async (request, reply) => {
      const principal = request.connectionPrincipal as ConnectionPrincipal;
      const context = { call: { services: tools, principal, users }, log: request.log };
      const post = {
        accept: request.headers.accept,
        protocolVersion: header(request, 'mcp-protocol-version'),
        body: request.body,
      };
      // The common call straight to its tool; anything else through the SDK (direct.ts).
      const direct = directCall(post);
      const answer = direct
        ? await answerDirectly(direct, context)
        : await servers.answer(context, {
            ...post,
            extra: { requestInfo: { headers: transportHeaders(request) } },
            tools: TOOL_NAMES,
          });
      if (answer.body === undefined) return reply.code(answer.status).send();
      return reply.code(answer.status).type('application/json').send(JSON.stringify(answer.body));
    },
  );
}

/** The request headers MCP handlers may read (`extra.requestInfo`); credentials stay here. */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
];

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function transportHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of TRANSPORT_HEADERS) {
    const value = header(request, name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
