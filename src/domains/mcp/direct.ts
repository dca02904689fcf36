import { getParseErrorMessage } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { type ExchangeAnswer, type ExchangeInput, lateResponse, MAX_WAIT_MS } from './exchange.ts';
import { runTool, type ToolContext } from './server.ts';
import { TOOLS, type ToolDefinition } from './tools.ts';

const TOOLS_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The members the SDK's JSON-RPC request schema allows (it is strict), and those of a plain call. */
const REQUEST_MEMBERS = ['jsonrpc', 'id', 'method', 'params'];
const PLAIN_PARAMS = ['name', 'arguments', '_meta'];
/** A client asking for progress sends its token; nothing else in `_meta` is plain (tasks are not). */
const PLAIN_META = ['progressToken'];

/** A `tools/call` the SDK would take without a word: its id, its tool and the arguments it parsed. */
export interface DirectCall {
  id: string | number;
  tool: ToolDefinition;
  args: unknown;
}

/**
 * The POST, if it is the common one answered directly (`answerDirectly`): one JSON-RPC request of
 * `tools/call`, its params only `name`, `arguments` and a `_meta` of only a progress token (no stream
 * carries progress in JSON mode, so the SDK sends none), naming one of our tools with arguments that
 * tool's input schema takes, with an Accept of JSON and SSE and a supported protocol version. Null
 * for anything else: a batch, a notification, another method, params the SDK reads more of (`task`,
 * a related task in `_meta`), and every POST answered with an error. Those go through the exchange
 * and the SDK, whose words their answers keep.
 *
 * Through the SDK one call's message is parsed by zod seven times (the exchange's message and params
 * checks, the SDK's three type guards, its handler's schema and its tools/call wrapper), gets an
 * `AbortController`, and its result is parsed once more: most of the tool server's own CPU per call
 * (docs/benchmarks.md, MCP). The checks here accept only what those schemas accept, and the input is
 * parsed as the SDK parses it, so what a call gets does not depend on the path it took
 * (test/mcp/http.test.ts compares the answers of both, byte for byte).
 */
export function directCall(
  input: Pick<ExchangeInput, 'accept' | 'protocolVersion' | 'body'>,
): DirectCall | null {
  const { accept, protocolVersion, body } = input;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) return null;
  if (!isObject(body) || !hasOnly(body, REQUEST_MEMBERS)) return null;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || method !== 'tools/call' || !isRequestId(id)) return null;
  if (!isObject(params) || !hasOnly(params, PLAIN_PARAMS) || typeof params.name !== 'string') return null;
  const tool = TOOLS_BY_NAME.get(params.name);
  if (!tool || !(params.arguments === undefined || isObject(params.arguments))) return null;
  if (!(params._meta === undefined || isPlainMeta(params._meta))) return null;
  const args = parsedInput(tool, params.arguments ?? {});
  return args === REFUSED ? null : { id, tool, args };
}

const REFUSED = Symbol('refused');

/**
 * The SDK's own parse of a tool's arguments (McpServer's `validateToolInput`), to the same data; a
 * refusal is the SDK's to word. A schema with asynchronous checks cannot be parsed here: the SDK's
 * path, which parses asynchronously, takes that call.
 */
function parsedInput(tool: ToolDefinition, args: Record<string, unknown>): unknown {
  try {
    const parsed = tool.input.safeParse(args);
    return parsed.success ? parsed.data : REFUSED;
  } catch {
    return REFUSED;
  }
}

const isPlainMeta = (meta: unknown): boolean =>
  isObject(meta) &&
  hasOnly(meta, PLAIN_META) &&
  (meta.progressToken === undefined || isRequestId(meta.progressToken));

/**
 * Runs a direct call and answers it as the SDK would have: the tool's structured content checked
 * against its output schema, the result's members in the order the SDK's result schema gives them,
 * the JSON-RPC response `{ result, jsonrpc, id }`, and a tool still running after `MAX_WAIT_MS`
 * answered as the exchange answers it.
 */
export async function answerDirectly(call: DirectCall, context: ToolContext): Promise<ExchangeAnswer> {
  const result = await withinWait(runTool(call.tool, context, call.args));
  if (result === LATE) return { status: 200, body: lateResponse(call.id) };
  return { status: 200, body: { result: checkedOutput(call.tool, result), jsonrpc: '2.0', id: call.id } };
}

const LATE = Symbol('late');

function withinWait<T>(work: Promise<T>): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), MAX_WAIT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * McpServer's `validateToolOutput`, with its words: structured content its tool's output schema
 * refuses becomes a tool error. No tool of ours should answer one; if one did, it fails the same way
 * on both paths.
 */
function checkedOutput(tool: ToolDefinition, result: CallToolResult): CallToolResult {
  if (result.isError) return result;
  const problem = !result.structuredContent
    ? `Output validation error: Tool ${tool.name} has an output schema but no structured content was provided`
    : outputProblem(tool, result.structuredContent);
  if (problem === null) return result;
  const message = new McpError(ErrorCode.InvalidParams, problem).message;
  return { content: [{ type: 'text', text: message }], isError: true };
}

function outputProblem(tool: ToolDefinition, structured: unknown): string | null {
  const parsed = tool.output.safeParse(structured);
  if (parsed.success) return null;
  return `Output validation error: Invalid structured content for tool ${tool.name}: ${getParseErrorMessage(parsed.error)}`;
}

/** A JSON-RPC request id (or progress token) as the SDK takes it: a string or a safe integer. */
const isRequestId = (id: unknown): id is string | number =>
  typeof id === 'string' || Number.isSafeInteger(id);

/** An object that is no array: the body is parsed JSON, so every such object is a plain one. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function hasOnly(value: Record<string, unknown>, members: readonly string[]): boolean {
  for (const key in value) if (!members.includes(key)) return false;
  return true;
}
