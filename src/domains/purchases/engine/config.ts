import { SECOND } from '../../../core/clock.ts';
import { ConfigError, type Env, integer, optional } from '../../../core/env.ts';
import type { OutboundGuard } from '../../../core/http/client.ts';
import type { PurchaseEngine } from './engine.ts';
import { LlmEngine } from './llm.ts';

/** How the model behind `PURCHASE_ENGINE=llm` is reached (docs/purchase-engine-llm.md). */
export interface LlmEngineConfig {
  /**
   * An OpenAI-compatible API root such as `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`;
   * the engine POSTs to `{baseUrl}/chat/completions`, through the guarded client: a model on a private
   * address (a local model) is reached when its host is named in `OUTBOUND_ALLOWED_PRIVATE_HOSTS`.
   */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; never logged and never in an error message. */
  apiKey: string | null;
  model: string;
  /** Bounds a whole turn: every model request of one `/buy` ask together. */
  timeoutMs: number;
  /** How many model answers with tool calls one turn executes before it must have its reply. */
  maxToolRounds: number;
}

export interface PurchaseEngineConfig {
  /** `builtin` (offline, deterministic, the default) or `llm`. */
  engine: 'builtin' | 'llm';
  /** Set exactly when `engine` is `llm`. */
  llm: LlmEngineConfig | null;
}

function baseUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`LLM_BASE_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`LLM_BASE_URL must be an http(s) URL, got "${parsed.protocol}"`);
  // The key goes in LLM_API_KEY; fetch refuses URLs with credentials, and a URL may end up in a log.
  if (parsed.username !== '' || parsed.password !== '')
    throw new ConfigError('LLM_BASE_URL must not contain credentials: put the key in LLM_API_KEY');
  if (parsed.search !== '' || parsed.hash !== '')
    throw new ConfigError('LLM_BASE_URL must not have a query string or fragment');
  return parsed.toString().replace(/\/+$/, '');
}

export function loadPurchaseEngineConfig(env: Env): PurchaseEngineConfig {
  const engine = optional(env, 'PURCHASE_ENGINE') ?? 'builtin';
  if (engine === 'builtin') return { engine, llm: null };
  if (engine !== 'llm') throw new ConfigError(`PURCHASE_ENGINE must be builtin or llm, got "${engine}"`);
  const url = optional(env, 'LLM_BASE_URL');
  if (url === null)
    throw new ConfigError('PURCHASE_ENGINE=llm needs LLM_BASE_URL (for example https://api.openai.com/v1)');
  const model = optional(env, 'LLM_MODEL');
  if (model === null) throw new ConfigError('PURCHASE_ENGINE=llm needs LLM_MODEL (the model name to ask)');
  return {
    engine,
    llm: {
      baseUrl: baseUrl(url),
      apiKey: optional(env, 'LLM_API_KEY'),
      model,
      timeoutMs: integer(env, 'LLM_TIMEOUT_MS', 20 * SECOND, 100, 300 * SECOND),
      maxToolRounds: integer(env, 'LLM_MAX_TOOL_ROUNDS', 4, 1, 16),
    },
  };
}

/** The engine `/buy` uses: the language-model engine when configured, else the built-in one given. */
export function createPurchaseEngine(
  config: PurchaseEngineConfig,
  builtin: PurchaseEngine,
  guard: OutboundGuard,
): PurchaseEngine {
  return config.engine === 'llm' && config.llm !== null ? new LlmEngine(config.llm, guard) : builtin;
}
