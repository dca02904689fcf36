import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible chat-completions server (`POST /v1/chat/completions`) whose "model" is a
 * script: a function from the request to the answer. It checks the request shape the way the real
 * API does (model, messages, function tools, every tool message answering a preceding call and every
 * call answered) and answers 400 with an OpenAI error body when it is wrong; tests assert
 * `shapeErrors` stays empty. Knobs: an HTTP status, a body that is not JSON, an answer that never
 * comes (for timeouts). Every request is recorded.
 */

export interface ChatCompletionRequest {
  model: string;
  messages: FakeMessage[];
  tools: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
}

export interface FakeMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: ChatCompletionRequest;
}

export type FakeAnswer =
  /** The model calls tools; `arguments` given as an object is sent as its JSON text, a string as is. */
  | {
      toolCalls: { name: string; arguments: string | Record<string, unknown>; id?: string }[];
      content?: string;
    }
  | { content: string; finishReason?: 'stop' | 'length' }
  /** A raw HTTP answer: a status and a body (an OpenAI error body by default). */
  | { status: number; body?: string }
  /** 200 with this body verbatim (garbage, or JSON that is not a chat completion). */
  | { raw: string }
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  | { hang: true };

export type FakeModel = (request: ChatCompletionRequest, index: number) => FakeAnswer;

export interface FakeLlm {
  /** Base URL to use as `LLM_BASE_URL` (ends in `/v1`). */
  url: string;
  requests: RecordedRequest[];
  /** Requests refused because their shape is not what the API accepts. */
  shapeErrors: string[];
  /** The script answering the following requests; setting it restarts the request index at 0. */
  model: FakeModel;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** What the real API refuses with 400, or null when the request is well formed. */
export function shapeError(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'body must be a JSON object';
  const request = body as Record<string, unknown>;
  if (typeof request.model !== 'string' || request.model === '') return 'model is required';
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    return 'messages must be a non-empty array';
  if (request.tools !== undefined) {
    if (!Array.isArray(request.tools)) return 'tools must be an array';
    for (const tool of request.tools as Record<string, unknown>[]) {
      const fn = tool?.function as Record<string, unknown> | undefined;
      if (tool?.type !== 'function' || typeof fn?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name))
        return 'each tool must be {type: "function", function: {name}}';
      const parameters = fn.parameters as Record<string, unknown> | undefined;
      if (parameters !== undefined && parameters.type !== 'object')
        return `tool ${fn.name}: parameters must be a JSON Schema object`;
    }
  }
  if (
    request.tool_choice !== undefined &&
    !['auto', 'none', 'required'].includes(String(request.tool_choice))
  )
    return 'tool_choice must be auto, none or required';
  let awaiting = new Set<string>();
  for (const [i, message] of (request.messages as FakeMessage[]).entries()) {
    if (!ROLES.has(message?.role)) return `messages[${i}].role is not a known role`;
    if (message.role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || !awaiting.has(message.tool_call_id))
        return `messages[${i}]: a message with role 'tool' must answer a preceding message with 'tool_calls'`;
      if (typeof message.content !== 'string') return `messages[${i}].content must be a string`;
      awaiting.delete(message.tool_call_id);
      continue;
    }
    if (awaiting.size > 0)
      return `messages[${i}]: the tool_call_ids ${[...awaiting].join(', ')} did not have response messages`;
    if (message.role === 'assistant') {
      if (message.content !== null && typeof message.content !== 'string')
        return `messages[${i}].content must be a string or null`;
      for (const call of message.tool_calls ?? []) {
        if (
          typeof call.id !== 'string' ||
          call.type !== 'function' ||
          typeof call.function?.arguments !== 'string'
        )
          return `messages[${i}].tool_calls must be {id, type: "function", function: {name, arguments}}`;
      }
      awaiting = new Set((message.tool_calls ?? []).map((c) => c.id));
    } else if (typeof message.content !== 'string') {
      return `messages[${i}].content must be a string`;
    }
  }
  if (awaiting.size > 0) return 'the last tool_calls were not answered';
  return null;
}

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(body);
}

function openAiError(message: string, type = 'invalid_request_error'): string {
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}

export async function startFakeLlm(model: FakeModel = () => ({ content: 'OK' })): Promise<FakeLlm> {
  const requests: RecordedRequest[] = [];
  const shapeErrors: string[] = [];
  let calls = 0;
  let script = model;
  const fake: FakeLlm = {
    url: '',
    requests,
    shapeErrors,
    get model() {
      return script;
    },
    set model(next) {
      script = next;
      calls = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      send(response, 404, openAiError(`no route ${request.method} ${request.url}`));
      return;
    }
    let body: ChatCompletionRequest;
    try {
      body = JSON.parse(text);
    } catch {
      shapeErrors.push('body is not JSON');
      send(response, 400, openAiError('We could not parse the JSON body of your request.'));
      return;
    }
    requests.push({
      method: request.method,
      path: request.url,
      authorization: request.headers.authorization,
      contentType: request.headers['content-type'],
      body,
    });
    const problem = shapeError(body);
    if (problem !== null) {
      shapeErrors.push(problem);
      send(response, 400, openAiError(problem));
      return;
    }
    const answer = script(body, calls++);
    if ('hang' in answer) return;
    if ('status' in answer) {
      send(response, answer.status, answer.body ?? openAiError('The server had an error.', 'server_error'));
      return;
    }
    if ('raw' in answer) {
      send(response, 200, answer.raw);
      return;
    }
    const toolCalls =
      'toolCalls' in answer
        ? answer.toolCalls.map((call, i) => ({
            id: call.id ?? `call_${calls}_${i}`,
            type: 'function',
            function: {
              name: call.name,
              arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
            },
          }))
        : undefined;
    const message = {
      role: 'assistant',
      content: answer.content ?? null,
      ...(toolCalls ? { tool_calls: toolCalls } : {}),
      refusal: null,
    };
    send(
      response,
      200,
      JSON.stringify({
        id: `chatcmpl-${calls}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message,
            logprobs: null,
            finish_reason: toolCalls ? 'tool_calls' : 'finishReason' in answer ? answer.finishReason : 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

/** The JSON of the tool messages of a request (what the engine told the model), in order. */
export function toolResults(request: ChatCompletionRequest): Record<string, unknown>[] {
  return request.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? 'null'));
}

/** Whether the last message of the request is a tool result (the model has something to read). */
export function lastIsTool(request: ChatCompletionRequest): boolean {
  return request.messages.at(-1)?.role === 'tool';
}
