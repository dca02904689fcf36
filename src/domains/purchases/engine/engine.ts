/**
 * Understanding an ask (issue 11): the engine proposes, the service decides. An engine reads the
 * ask and the conversation's carts and answers with actions; the service checks every action
 * against merchant data (product ids, stock, quantities 1 to 99) and prices carts itself. Two
 * engines: the built-in one (builtin.ts, offline and deterministic, the default) and one over an
 * OpenAI-compatible chat-completions API with tool calling (llm.ts, `PURCHASE_ENGINE=llm`).
 */
import type { MerchantInfo, Product } from '../merchants/merchant.ts';

/** A cart as the engine sees it: which merchant, which products, how many. */
export interface EngineCart {
  merchant: string;
  merchant_name: string;
  items: { product_id: string; name: string; qty: number; priceCents: number }[];
}

export type EngineAction =
  | { type: 'add'; merchant: string; product_id: string; qty: number }
  | { type: 'remove'; merchant: string; product_id: string }
  | { type: 'set_quantity'; merchant: string; product_id: string; qty: number }
  /** The user wants to see the carts. */
  | { type: 'show_cart' }
  /** The user asks to check out: the service answers with the carts to confirm. */
  | { type: 'checkout' }
  /** What could not be put in a cart, and why (`unmatched` of the envelope). */
  | {
      type: 'unmatched';
      merchant: string | null;
      requested: string;
      reason: 'not_found' | 'out_of_stock' | 'unknown_merchant' | 'not_understood';
      detail: string;
    };

export interface EngineInput {
  ask: string;
  carts: EngineCart[];
  merchants: MerchantInfo[];
  /** Catalog search (merchant null: every merchant); the last search becomes the envelope's `catalog`. */
  search(merchant: string | null, query: string): Promise<(Product & { merchant: string })[]>;
}

export interface EngineResult {
  actions: EngineAction[];
  /** Prose for the user; the service appends what it decided (totals, refusals). */
  reply: string;
}

/** The engine could not answer (model timeout, malformed tool calls): `error_code: engine_unavailable`. */
export class EngineUnavailable extends Error {}

export interface PurchaseEngine {
  readonly name: 'builtin' | 'llm';
  turn(input: EngineInput): Promise<EngineResult>;
}
