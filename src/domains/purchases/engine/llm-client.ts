/**
 * The one request the language-model engine makes: `POST {LLM_BASE_URL}/chat/completions` of the
 * OpenAI chat-completions API with function tools, which OpenAI, Azure OpenAI, vLLM, llama.cpp's
 * server, Ollama and LM Studio all speak. Plain `fetch` like Purser's other outgoing clients; every
 * way it can fail (timeout, refused connection, non-2xx, a body that is not a chat completion)
 * becomes `EngineUnavailable` with a message that names the failure and never the key.
 */
import { EngineUnavailable } from './engine.ts';

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: ChatTool[];
  /** `none` asks for a text answer (the last request of a turn whose tool rounds are spent). */
  tool_choice: 'auto' | 'none';
}

export interface ChatAnswer {
  content: string | null;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
}

export interface ChatEndpoint {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
}

/** A chat completion is a few kilobytes; a body past this is not one. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export async function chatCompletion(
  endpoint: ChatEndpoint,
  request: ChatRequest,
  deadline: AbortSignal,
): Promise<ChatAnswer> {
  let text: string;
  try {
    const response = await fetch(`${endpoint.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify(request),
      redirect: 'error',
      signal: deadline,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new EngineUnavailable(`the language model answered HTTP ${response.status}`);
    }
    text = await readCapped(response);
  } catch (error) {
    if (error instanceof EngineUnavailable) throw error;
    if (deadline.aborted)
      throw new EngineUnavailable(`the language model did not answer within ${endpoint.timeoutMs} ms`);
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    throw new EngineUnavailable(
      `could not reach the language model${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
  return parseAnswer(text);
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw new EngineUnavailable(`the language model's answer is larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `choices[0].message` of a chat completion, checked field by field. */
export function parseAnswer(text: string): ChatAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EngineUnavailable('the language model answered with a body that is not JSON');
  }
  const choice = isRecord(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  if (!isRecord(choice) || !isRecord(message))
    throw new EngineUnavailable('the language model answered without choices[0].message');
  const content = message.content;
  if (content !== undefined && content !== null && typeof content !== 'string')
    throw new EngineUnavailable('the language model answered a message whose content is not text');
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls))
    throw new EngineUnavailable('the language model answered tool_calls that are not a list');
  const toolCalls = rawCalls.map((call): ChatToolCall => {
    const fn = isRecord(call) ? call.function : undefined;
    // Without an id the call cannot be answered (each tool message names its call), so the whole
    // answer is unusable rather than one call to report back.
    if (!isRecord(call) || typeof call.id !== 'string' || call.id === '' || !isRecord(fn))
      throw new EngineUnavailable('the language model answered a tool call without an id or function');
    const args = fn.arguments;
    return {
      id: call.id,
      type: 'function',
      function: {
        name: typeof fn.name === 'string' ? fn.name : '',
        // Some servers send the arguments already parsed; the API says a JSON string.
        arguments: typeof args === 'string' ? args : args === undefined ? '' : JSON.stringify(args),
      },
    };
  });
  return {
    content: typeof content === 'string' ? content : null,
    toolCalls,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
  };
}
