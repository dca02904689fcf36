import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ClientRequestSchema,
  ErrorCode,
  isInitializeRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';

/** The most messages one POST may carry (the SDK's transport limit). */
export const MAX_BATCH_SIZE = 100;

/** The longest a POST waits for the server's responses before answering the rest as failed. */
export const MAX_WAIT_MS = 60_000;

/** The schema of each request method the SDK knows, to tell bad params from an unknown method. */
const REQUEST_SCHEMAS = new Map(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema]),
);

/** What the HTTP layer answers: a status and, unless 202, a JSON body. */
export interface ExchangeAnswer {
  status: number;
  body?: unknown;
  /**
   * Nothing of this POST is left in the server: every request it delivered was answered in time,
   * none was cancelled and none was `initialize` (see `McpServers`).
   */
  clean?: boolean;
}

/** One POST, as the HTTP layer hands it over. */
export interface ExchangeInput {
  accept: string | undefined;
  protocolVersion: string | undefined;
  body: unknown;
  extra: MessageExtraInfo;
  tools: ReadonlySet<string>;
}

type RequestId = string | number;

const rpcError = (status: number, code: number, message: string): ExchangeAnswer => ({
  status,
  body: { jsonrpc: '2.0', error: { code, message }, id: null },
});

const errorResponse = (id: RequestId, code: number, message: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

/** The answer of a request still running after `MAX_WAIT_MS`. */
export const lateResponse = (id: RequestId): JSONRPCMessage =>
  errorResponse(id, ErrorCode.InternalError, 'The request did not complete in time.');

/**
 * The protocol error a request gets before it reaches the server, if any (JSON-RPC 2.0 §5.1; MCP
 * Tools, "Error Handling"): params its method's schema refuses are `-32602 Invalid params`, and so
 * is a call of a tool the server does not have. The SDK would answer the first `-32603` with its
 * validator's dump, and the second as a tool result.
 */
function refusal(message: JSONRPCMessage, tools: ReadonlySet<string>): string | null {
  const { method } = message as { method: string };
  const schema = REQUEST_SCHEMAS.get(method);
  if (!schema) return null; // an unknown method: the SDK's -32601
  const parsed = schema.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `Invalid params: ${issue?.path.join('.') || 'params'}: ${issue?.message ?? 'invalid'}`;
  }
  if (method === 'tools/call') {
    const { name } = (parsed.data as { params: { name: string } }).params;
    if (!tools.has(name)) return `Unknown tool: ${name}`;
  }
  return null;
}

/**
 * One POST of MCP's Streamable HTTP transport, stateless, answered as JSON: the rules of the SDK's
 * `WebStandardStreamableHTTPServerTransport` with `sessionIdGenerator: undefined` and
 * `enableJsonResponse: true`, applied to the body Fastify already parsed. It exists because that
 * transport builds a web `Request`, a `Response` and its stream, and abort signals for every call,
 * which cost more than the MCP server itself (bench/mcp, docs/mcp-tools.md "Performance"). The
 * JSON-RPC itself (dispatch, schemas, errors) stays the SDK's: this is only the Transport.
 *
 * MCP 2025-06-18 §Transports, Streamable HTTP, "Sending messages to the server":
 * - the client MUST accept both `application/json` and `text/event-stream` (else 406);
 * - the body is one JSON-RPC message or a batch (at most 100 here, as in the SDK); any invalid one
 *   fails the whole POST (400, JSON-RPC -32700);
 * - only notifications and responses: 202 Accepted, no body;
 * - requests: the responses, as one JSON object (an array when there are several);
 * - `MCP-Protocol-Version`, when sent after initialization, must be one the server supports (400).
 * Beyond the SDK: two requests of one POST with the same id are `-32600` (their answers could not
 * be told apart); a request the same POST cancels (`notifications/cancelled`) gets no response, as
 * the SDK sends none; and a POST waits at most `MAX_WAIT_MS` for its responses.
 */
export class HttpExchange implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** Stateless: no session, ever. */
  readonly sessionId = undefined;

  private readonly responses = new Map<RequestId, JSONRPCMessage>();
  private awaited: RequestId[] = [];
  private answer: ((responses: JSONRPCMessage[]) => void) | null = null;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /**
   * The server's messages for this POST. Responses are collected until every request has one; a
   * request or notification from the server (progress, logging) has no stream to go to in JSON
   * mode and is dropped, as the SDK's transport drops it.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message || message.id === undefined) return;
    this.responses.set(message.id as RequestId, message);
    this.settleIfAnswered();
  }

  /** Answers the POST once every awaited request has its response. */
  private settleIfAnswered(): void {
    if (this.answer && this.awaited.every((id) => this.responses.has(id))) {
      this.answer(this.awaited.map((id) => this.responses.get(id) as JSONRPCMessage));
      this.answer = null;
    }
  }

  /**
   * Runs one POST through the connected server, whose tools are `tools`. An exchange (and its
   * server) takes one POST at a time; it starts each with nothing of the last.
   */
  async handle(input: ExchangeInput): Promise<ExchangeAnswer> {
    this.responses.clear();
    this.awaited = [];
    this.answer = null;
    const { accept, protocolVersion, body } = input;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      return rpcError(
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    }
    // JSON-RPC 2.0 §6: an empty array is not a batch but an invalid request.
    if (Array.isArray(body) && body.length === 0)
      return rpcError(400, -32600, 'Invalid Request: empty batch');
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
      return rpcError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    const batch = Array.isArray(body);
    const messages: JSONRPCMessage[] = [];
    for (const raw of batch ? body : [body]) {
      const parsed = JSONRPCMessageSchema.safeParse(raw);
      if (!parsed.success) return rpcError(400, -32700, 'Parse error: Invalid JSON-RPC message');
      messages.push(parsed.data);
    }
    const initialization = messages.some(
      (m) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m),
    );
    if (initialization && messages.length > 1) {
      return rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
    }
    if (
      !initialization &&
      protocolVersion !== undefined &&
      !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)
    ) {
      return rpcError(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${protocolVersion} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    // A request has a method and an id; a notification has no id; a response has no method.
    const ids = messages.flatMap((m) => ('method' in m && 'id' in m ? [m.id as RequestId] : []));
    if (new Set(ids).size < ids.length)
      return rpcError(400, -32600, 'Invalid Request: two requests of one batch have the same id');
    const cancelled = new Set(
      messages.flatMap((m) =>
        'method' in m && m.method === 'notifications/cancelled' && !('id' in m)
          ? [(m.params as { requestId?: RequestId } | undefined)?.requestId]
          : [],
      ),
    );
    const delivered = messages.filter((m) => {
      if (!('method' in m && 'id' in m)) return true;
      const problem = refusal(m, input.tools);
      if (problem)
        this.responses.set(
          m.id as RequestId,
          errorResponse(m.id as RequestId, ErrorCode.InvalidParams, problem),
        );
      return problem === null;
    });
    this.awaited = ids.filter((id) => !cancelled.has(id) || this.responses.has(id));
    // Refused requests never reach the server; one cancelled may still be running in it.
    const clean = cancelled.size === 0 && !initialization;
    if (this.awaited.length === 0) {
      for (const message of delivered) this.onmessage?.(message, input.extra);
      return { status: 202, clean };
    }
    let timer: NodeJS.Timeout | undefined;
    let late = false;
    const responses = new Promise<JSONRPCMessage[]>((resolve) => {
      this.answer = resolve;
      timer = setTimeout(() => {
        late = true;
        this.answer = null;
        resolve(this.awaited.map((id) => this.responses.get(id) ?? lateResponse(id)));
      }, MAX_WAIT_MS);
    });
    for (const message of delivered) this.onmessage?.(message, input.extra);
    // Every request refused above, or answered at once: nothing to wait for.
    this.settleIfAnswered();
    const answered = await responses;
    clearTimeout(timer);
    // As the SDK answers: one response as an object, several as an array.
    return { status: 200, body: answered.length === 1 ? answered[0] : answered, clean: clean && !late };
  }
}
