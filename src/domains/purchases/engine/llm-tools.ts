/**
 * The tools the language model may call, and nothing else: a search that reads the catalogs, four
 * that propose cart changes, and two that pass the user's wish to see the carts or check out. None
 * can confirm, pay or place: placement takes the user's own `confirm` of a cart hash in a later
 * request, which no model output can produce. Each call's arguments are parsed and type-checked
 * here; a call that fails is answered with an error the model can act on and proposes nothing.
 * Whether a product exists, is in stock or a quantity is within 1 to 99 is the service's decision.
 */
import type { EngineAction, EngineCart, EngineInput } from './engine.ts';
import type { ChatTool, ChatToolCall } from './llm-client.ts';

const merchant = { type: 'string', description: 'Merchant slug, as listed in the context.' };
const productId = { type: 'string', description: 'A product_id returned by search_products or in a cart.' };
const qty = { type: 'integer', minimum: 1, maximum: 99, description: 'How many.' };

function tool(name: string, description: string, properties: Record<string, unknown>, required: string[]) {
  return {
    type: 'function' as const,
    function: {
      name,
      description,
      parameters: { type: 'object', properties, required, additionalProperties: false },
    },
  };
}

export const TOOLS: ChatTool[] = [
  tool(
    'search_products',
    "Search merchants' catalogs. Returns product ids, names, prices and stock. Omit merchant to search every merchant.",
    { merchant, query: { type: 'string', description: 'Plain words, for example "oat latte".' } },
    ['query'],
  ),
  tool(
    'add_to_cart',
    "Propose adding a product to the user's cart at that merchant.",
    { merchant, product_id: productId, qty },
    ['merchant', 'product_id', 'qty'],
  ),
  tool(
    'remove_from_cart',
    "Propose removing a product from the user's cart.",
    { merchant, product_id: productId },
    ['merchant', 'product_id'],
  ),
  tool(
    'set_quantity',
    'Propose changing the quantity of a product already in a cart.',
    { merchant, product_id: productId, qty },
    ['merchant', 'product_id', 'qty'],
  ),
  tool(
    'show_cart',
    'The user wants to see their carts. Returns the carts and the changes proposed so far.',
    {},
    [],
  ),
  tool(
    'checkout',
    'The user asks to check out. Purser then shows the carts with their totals for the user to confirm; this does not pay or place anything.',
    {},
    [],
  ),
];

const TOOL_NAMES = TOOLS.map((t) => t.function.name);

/** Results shown to the model per search; enough to choose from, small enough to stay cheap. */
const SEARCH_RESULTS = 20;
/** Proposals per turn; the service's own limits (10 carts, 50 items) are far below. */
const MAX_ACTIONS = 100;
const MAX_STRING = 200;

export interface ToolOutcome {
  ok: boolean;
  /** The tool message's content: JSON, so merchant text stays data inside string values. */
  content: string;
}

class BadArguments extends Error {}

/** One turn's tool calls: the searches it ran and the actions it proposed, in call order. */
export class ToolSession {
  readonly actions: EngineAction[] = [];
  private readonly slugs: Set<string>;

  constructor(private readonly input: EngineInput) {
    this.slugs = new Set(input.merchants.map((m) => m.slug));
  }

  /** What the model is told before it answers: the merchants and the user's carts. */
  context(): Record<string, unknown> {
    return {
      merchants: this.input.merchants.map((m) => ({
        slug: m.slug,
        name: m.name,
        currency: m.market.currency,
        countries: m.market.countries,
      })),
      carts: this.input.carts.map(cartView),
    };
  }

  async run(call: ChatToolCall): Promise<ToolOutcome> {
    const name = call.function.name;
    if (!TOOL_NAMES.includes(name)) {
      return refuse(
        `There is no tool named "${name.slice(0, 64)}". The tools are: ${TOOL_NAMES.join(', ')}.`,
      );
    }
    let args: Record<string, unknown>;
    try {
      args = parseArguments(call.function.arguments);
    } catch (error) {
      return refuse((error as Error).message);
    }
    try {
      return await this.dispatch(name, args);
    } catch (error) {
      if (error instanceof BadArguments) return refuse(`${name}: ${error.message}`);
      throw error;
    }
  }

  private async dispatch(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
    if (name === 'search_products') {
      const slug = args.merchant === undefined || args.merchant === null ? null : this.merchant(args);
      const query = text(args, 'query');
      const found = await this.input.search(slug, query);
      return answer({
        query,
        merchant: slug,
        products: found.slice(0, SEARCH_RESULTS).map((p) => ({
          merchant: p.merchant,
          product_id: p.product_id,
          name: p.name,
          priceCents: p.priceCents,
          currency: p.currency,
          in_stock: p.in_stock,
        })),
        more: found.length > SEARCH_RESULTS,
      });
    }
    if (name === 'show_cart') {
      const proposed = this.actions.filter((a) => a.type !== 'show_cart' && a.type !== 'checkout');
      return this.propose({ type: 'show_cart' }, { ...this.context(), proposed_this_turn: proposed });
    }
    if (name === 'checkout') {
      return this.propose(
        { type: 'checkout' },
        { note: 'Purser shows the carts with their totals; the user confirms them. Nothing is paid now.' },
      );
    }
    const slug = this.merchant(args);
    const product_id = text(args, 'product_id');
    if (name === 'remove_from_cart') return this.propose({ type: 'remove', merchant: slug, product_id });
    const count = integer(args, 'qty');
    const type = name === 'add_to_cart' ? 'add' : 'set_quantity';
    return this.propose({ type, merchant: slug, product_id, qty: count });
  }

  private propose(action: EngineAction, extra: Record<string, unknown> = {}): ToolOutcome {
    if (this.actions.length >= MAX_ACTIONS) return refuse(`At most ${MAX_ACTIONS} changes in one turn.`);
    // Asking twice to see the carts or check out is one wish.
    const repeat =
      (action.type === 'show_cart' || action.type === 'checkout') &&
      this.actions.some((a) => a.type === action.type);
    if (!repeat) this.actions.push(action);
    return answer({
      proposed: action,
      note: 'Purser checks this against the catalog and prices the carts after your answer.',
      ...extra,
    });
  }

  private merchant(args: Record<string, unknown>): string {
    const slug = text(args, 'merchant');
    if (!this.slugs.has(slug))
      throw new BadArguments(`no merchant "${slug}"; the merchants are: ${[...this.slugs].join(', ')}`);
    return slug;
  }
}

function cartView(cart: EngineCart) {
  return {
    merchant: cart.merchant,
    merchant_name: cart.merchant_name,
    items: cart.items.map((i) => ({
      product_id: i.product_id,
      name: i.name,
      qty: i.qty,
      priceCents: i.priceCents,
    })),
  };
}

function answer(result: Record<string, unknown>): ToolOutcome {
  return { ok: true, content: JSON.stringify({ ok: true, ...result }) };
}

function refuse(error: string): ToolOutcome {
  return { ok: false, content: JSON.stringify({ ok: false, error: `${error} Nothing was changed.` }) };
}

function parseArguments(raw: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch {
    throw new Error('The arguments are not valid JSON; send a JSON object.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('The arguments must be a JSON object.');
  return parsed as Record<string, unknown>;
}

function text(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '')
    throw new BadArguments(`${name} must be a non-empty string`);
  if (value.length > MAX_STRING) throw new BadArguments(`${name} must be at most ${MAX_STRING} characters`);
  return value.trim();
}

function integer(args: Record<string, unknown>, name: string): number {
  const value = args[name];
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new BadArguments(
      `${name} must be an integer (a JSON number such as 2), got ${JSON.stringify(value) ?? 'nothing'}`,
    );
  return value;
}
