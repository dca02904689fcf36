import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastifyBaseLogger } from 'fastify';
import { isRefusal } from '../../core/refusal.ts';
import { type ExchangeAnswer, type ExchangeInput, HttpExchange } from './exchange.ts';
import { TOOLS, type ToolCall, type ToolDefinition } from './tools.ts';

export const SERVER_INFO = { name: 'purser', version: '0.1.0' } as const;

/**
 * The SDK builds an Ajv instance per server unless given one (it is used only for elicitation
 * schemas); building it per request cost more than the request itself (bench/mcp).
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

const INSTRUCTIONS =
  "Purser acts for one user through this app's connection: identity verification, the wallet, and the " +
  'prepaid cards this app created. Amounts are integer cents (USD). Errors come back as tool results with ' +
  '`isError: true`, their text `code: message`, and the code and message in `_meta["purser/error"]`.';

/** Where a tool error's code and message are repeated for programs (`_meta`, MCP §Tools). */
export const ERROR_META_KEY = 'purser/error';

/**
 * A tool error result (MCP tools/call: `isError: true`), never a protocol error: the text is
 * `code: message` with the v2 API's code, for the model to read and act on; `_meta` repeats both.
 * No `structuredContent`: clients check it against the tool's output schema even on errors.
 */
export function toolError(error: { code: string; message: string }): CallToolResult {
  // In the order the SDK's result schema puts them, which `answerDirectly` keeps (direct.ts).
  return {
    _meta: { [ERROR_META_KEY]: { code: error.code, message: error.message } },
    content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
    isError: true,
  };
}

/** What a server's tools act for: the POST it is answering now (see `McpServers`). */
export interface ToolContext {
  call: ToolCall;
  log: FastifyBaseLogger;
}

/**
 * Runs `tool` for the POST `context` answers, with arguments its input schema took: its result, or a
 * tool error (never a throw). Unexpected failures are logged and answered as `internal_error` without
 * their details.
 */
export async function runTool(
  tool: ToolDefinition,
  { call, log }: ToolContext,
  args: unknown,
): Promise<CallToolResult> {
  try {
    const answer = await tool.run(call, args as never);
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data };
  } catch (error) {
    // A refusal in the tool's words: its code and message, whatever status the API would give it.
    if (isRefusal(error)) return toolError(error);
    log.error({ err: error, tool: tool.name }, 'mcp tool failed');
    return toolError({
      code: 'internal_error',
      message: 'Something went wrong on our side. Try again.',
    });
  }
}

/**
 * An MCP server with every tool, acting for whatever POST `current()` names when a tool starts
 * (stateless: `McpServers` gives a server to one POST at a time), each through `runTool`.
 */
export function buildMcpServer(current: () => ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: SHARED_VALIDATOR,
  });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
      },
      (args: unknown) => runTool(tool, current(), args),
    );
  }
  // Registering a tool announces `listChanged`; a stateless server has no stream to send it on.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/** Idle servers kept for the next POSTs; more in flight at once are built and then dropped. */
const IDLE_SERVERS_MAX = 64;

interface Pooled {
  server: McpServer;
  exchange: HttpExchange;
  current: ToolContext | null;
}

/**
 * The servers of the stateless tool server, each connected once to its own exchange and lent to one
 * POST at a time: building a server and registering the tools (their schemas converted and checked)
 * for every POST cost more than the call (bench/mcp). A server goes back only when its POST left
 * nothing behind in it: every request answered in time, none cancelled (a cancelled handler may
 * still run), and no `initialize` (the SDK keeps the client's capabilities from it). Anything else
 * drops it, so nothing of one POST, one user, reaches the next.
 */
export class McpServers {
  private readonly idle: Pooled[] = [];

  /** Answers one POST with a server of its own for as long as it runs. */
  async answer(context: ToolContext, input: ExchangeInput): Promise<ExchangeAnswer> {
    const pooled = this.idle.pop() ?? (await this.build());
    pooled.current = context;
    let answer: ExchangeAnswer | undefined;
    try {
      answer = await pooled.exchange.handle(input);
      return answer;
    } finally {
      pooled.current = null;
      if (answer?.clean && this.idle.length < IDLE_SERVERS_MAX) this.idle.push(pooled);
    }
  }

  private async build(): Promise<Pooled> {
    const pooled: Pooled = { server: undefined as never, exchange: new HttpExchange(), current: null };
    pooled.server = buildMcpServer(() => pooled.current as ToolContext);
    await pooled.server.connect(pooled.exchange);
    return pooled;
  }
}
