/**
 * The one request the language-model engine makes: `POST {LLM_BASE_URL}/chat/completions` of the
 * OpenAI chat-completions API with function tools, which OpenAI, Azure OpenAI, vLLM, llama.cpp's
 * server, Ollama and LM Studio all speak. Through the guarded client like every outgoing call
 * (core/http/policy.ts: a model on the operator's own network is named in
 * `OUTBOUND_ALLOWED_PRIVATE_HOSTS`); every way it can fail (timeout, refused connection, non-2xx, a
 * body that is not a chat completion) becomes `EngineUnavailable` with a message that names the
 * failure and never the key.
 */
import { guardedRequest, type OutboundGuard } from '../../../core/http/client.ts';
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

export async function chatCompletion(
  endpoint: ChatEndpoint,
  guard: OutboundGuard,
  request: ChatRequest,
  deadline: AbortSignal,
): Promise<ChatAnswer> {
  const answer = await guardedRequest(
    new URL(`${endpoint.baseUrl}/chat/completions`),
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify(request),
    },
    { ...guard, timeoutMs: endpoint.timeoutMs, signal: deadline },
  );
  if (answer.kind === 'failure') throw new EngineUnavailable(unreachable(endpoint, answer.error, deadline));
  if (answer.status < 200 || answer.status > 299)
    throw new EngineUnavailable(`the language model answered HTTP ${answer.status}`);
  return parseAnswer(answer.body);
}

/** Why the model gave no answer, in words that never carry the key. */
function unreachable(endpoint: ChatEndpoint, error: string, deadline: AbortSignal): string {
  if (deadline.aborted || error.startsWith('timeout'))
    return `the language model did not answer within ${endpoint.timeoutMs} ms`;
  const network = /^network error: ([A-Z_]+)$/.exec(error);
  if (network) return `could not reach the language model (${network[1]})`;
  // A refused destination (core/http/ssrf.ts) or an answer too large: the guard's own words.
  return `could not reach the language model: ${error}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `choices[0].message` of a chat completion (the JSON body; null when it was not JSON), checked field by field. */
export function parseAnswer(body: unknown): ChatAnswer {
  if (body === null) throw new EngineUnavailable('the language model answered with a body that is not JSON');
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
