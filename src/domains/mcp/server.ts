import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { TOOLS, type ToolCall } from './tools.ts';

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
  return {
    content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
    _meta: { [ERROR_META_KEY]: { code: error.code, message: error.message } },
    isError: true,
  };
}

/**
 * One MCP server for one request (stateless Streamable HTTP): every tool runs for `call.principal`
 * only. Unexpected failures are logged and answered as `internal_error` without their details.
 * `only` registers that one tool (a request that is a single `tools/call` needs no other; an
 * unknown name registers none and the SDK answers it as it answers any unknown tool).
 */
export function buildMcpServer(call: ToolCall, log: FastifyBaseLogger, only?: string): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: SHARED_VALIDATOR,
  });
  for (const tool of TOOLS) {
    if (only !== undefined && tool.name !== only) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
      },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const answer = await tool.run(call, args as never);
          return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.data };
        } catch (error) {
          if (error instanceof ApiError) return toolError(error);
          log.error({ err: error, tool: tool.name }, 'mcp tool failed');
          return toolError({
            code: 'internal_error',
            message: 'Something went wrong on our side. Try again.',
          });
        }
      },
    );
  }
  // Registering a tool announces `listChanged`; a stateless server has no stream to send it on.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}
