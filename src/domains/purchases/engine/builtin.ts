import { formatMoney } from '../../../core/money.ts';
import type { MerchantInfo, Product } from '../merchants/merchant.ts';
import { score, words } from '../merchants/sandbox.ts';
import type { EngineAction, EngineCart, EngineInput, EngineResult, PurchaseEngine } from './engine.ts';

/**
 * The built-in engine: offline, deterministic, and what tests use. Its grammar (docs/purchases.md):
 * an ask is split into clauses at commas, semicolons, "and", "then", "also" and "plus"; each clause
 * is one of
 *
 * | clause                                                        | action                        |
 * |---------------------------------------------------------------|-------------------------------|
 * | "show my cart", "what's in my cart", "cart"                   | show_cart                     |
 * | "check out", "checkout", "place the order", "pay"             | checkout                      |
 * | "what does coffee sell", "menu of coffee", "browse retail"    | a catalog search              |
 * | "remove the latte", "delete milk", "no more eggs"             | remove                        |
 * | "change latte to 3", "set milk to 2", "make it 3 lattes"      | set_quantity                  |
 * | "[add/buy/get/order/I want] [N] product [from/at merchant]"   | add N (1 when absent)         |
 *
 * N is digits or a number word up to twenty ("a", "an", "another" are 1). A product is the best
 * match by name among the named merchant's products, else among the carts' merchants, else every
 * merchant of the mode; a match must share at least half of the clause's words.
 */
export class BuiltinEngine implements PurchaseEngine {
  readonly name = 'builtin' as const;

  async turn(input: EngineInput): Promise<EngineResult> {
    const actions: EngineAction[] = [];
    const replies: string[] = [];
    for (const clause of clauses(input.ask)) {
      const result = await this.clause(clause, input);
      actions.push(...result.actions);
      if (result.reply) replies.push(result.reply);
    }
    if (actions.length === 0 && replies.length === 0) {
      actions.push({
        type: 'unmatched',
        merchant: null,
        requested: input.ask.slice(0, 200),
        reason: 'not_understood',
        detail: 'Try "2 lattes from coffee", "show my cart" or "what does retail sell".',
      });
    }
    return { actions, reply: replies.join(' ') };
  }

  private async clause(
    text: string,
    input: EngineInput,
  ): Promise<{ actions: EngineAction[]; reply?: string }> {
    if (
      /^(show|view|see)\b.*\bcart\b|^what'?s in (my |the )?cart|^what is in (my |the )?cart|^(my )?cart$/.test(
        text,
      )
    )
      return { actions: [{ type: 'show_cart' }] };
    if (/^(check ?out|checkout|place (the |my )?order|pay|buy it|buy them|that'?s all)\b/.test(text))
      return { actions: [{ type: 'checkout' }] };

    const browse =
      /^what (?:does|do) (?:the )?(.+?) (?:sell|have|offer|carry)$/.exec(text) ??
      /^(?:menu|catalog|products) (?:of|at|from|for) (?:the )?(.+)$/.exec(text) ??
      /^(?:browse|list) (?:the )?(.+)$/.exec(text);
    if (browse) {
      const merchant = findMerchant(browse[1] as string, input.merchants);
      if (!merchant) return { actions: [unknownMerchant(browse[1] as string)] };
      const products = await input.search(merchant.slug, '');
      return { actions: [], reply: `${merchant.name} sells ${listing(products)}.` };
    }

    const remove =
      /^(?:remove|delete|drop|take out|no more|cancel)\s+(?:the\s+|my\s+)?(.+?)(?:\s+from (?:my |the )?cart)?$/.exec(
        text,
      );
    if (remove) {
      const found = inCarts(remove[1] as string, input.carts);
      if (!found) return { actions: [notInCart(remove[1] as string)] };
      return { actions: [{ type: 'remove', merchant: found.merchant, product_id: found.product_id }] };
    }

    const set =
      /^(?:change|set|update|make)\s+(?:the\s+|my\s+)?(.+?)\s+(?:to|quantity to)\s+(\w+)$/.exec(text) ??
      swapped(/^make (?:it|that)\s+(\w+)\s+(.+)$/.exec(text));
    if (set) {
      const qty = quantity(set[2] as string);
      const found = inCarts(set[1] as string, input.carts);
      if (qty === null || !found) return { actions: [notInCart(set[1] as string)] };
      return {
        actions: [{ type: 'set_quantity', merchant: found.merchant, product_id: found.product_id, qty }],
      };
    }

    return this.add(text, input);
  }

  private async add(text: string, input: EngineInput): Promise<{ actions: EngineAction[]; reply?: string }> {
    let rest = text.replace(
      /^(?:please\s+)?(?:add|buy|get|order|grab|i want|i'?d like|i would like|i need|we need|can i get|can i have)\s+/,
      '',
    );
    let merchant: MerchantInfo | null = null;
    const at = /^(.*?)\s+(?:from|at)\s+(?:the\s+)?(.+)$/.exec(rest);
    if (at) {
      merchant = findMerchant(at[2] as string, input.merchants);
      if (!merchant) return { actions: [unknownMerchant(at[2] as string)] };
      rest = at[1] as string;
    }
    const counted = /^(-?\w+)\s+(?:more\s+)?(.+)$/.exec(rest);
    let qty = 1;
    if (counted && quantity(counted[1] as string) !== null) {
      qty = quantity(counted[1] as string) as number;
      rest = counted[2] as string;
    }
    rest = rest.replace(/^(?:of\s+)?(?:the\s+)?/, '').replace(/\s+(?:to|in) (?:my |the )?cart$/, '');
    if (words(rest).length === 0) return { actions: [notUnderstood(text)] };

    const merchants = merchant ? [merchant.slug] : [...new Set(input.carts.map((cart) => cart.merchant))];
    const product =
      (await best(rest, merchants, input)) ?? (merchant ? null : await best(rest, [null], input));
    if (!product) {
      return {
        actions: [
          {
            type: 'unmatched',
            merchant: merchant?.slug ?? null,
            requested: rest,
            reason: 'not_found',
            detail: merchant
              ? `${merchant.name} has nothing matching "${rest}".`
              : `No merchant sells "${rest}".`,
          },
        ],
      };
    }
    if (!product.in_stock) {
      return {
        actions: [
          {
            type: 'unmatched',
            merchant: product.merchant,
            requested: rest,
            reason: 'out_of_stock',
            detail: `${product.name} is out of stock.`,
          },
        ],
      };
    }
    return { actions: [{ type: 'add', merchant: product.merchant, product_id: product.product_id, qty }] };
  }
}

type Hit = Product & { merchant: string };

/** The best product for a query among these merchants (null: all of the mode), at least half matching. */
async function best(query: string, merchants: (string | null)[], input: EngineInput): Promise<Hit | null> {
  let found: { hit: Hit; score: number } | null = null;
  for (const merchant of merchants) {
    for (const hit of await input.search(merchant, query)) {
      const s = score(query, hit.name);
      if (s >= 0.5 && (!found || s > found.score)) found = { hit, score: s };
    }
  }
  return found?.hit ?? null;
}

function inCarts(query: string, carts: EngineCart[]): { merchant: string; product_id: string } | null {
  const cleaned = query.replace(/^(?:the|my|a|an)\s+/, '');
  let found: { merchant: string; product_id: string; score: number } | null = null;
  for (const cart of carts) {
    for (const item of cart.items) {
      const s = score(cleaned, item.name);
      if (s >= 0.5 && (!found || s > found.score))
        found = { merchant: cart.merchant, product_id: item.product_id, score: s };
    }
  }
  return found ? { merchant: found.merchant, product_id: found.product_id } : null;
}

function findMerchant(text: string, merchants: MerchantInfo[]): MerchantInfo | null {
  const wanted = text.trim().toLowerCase();
  const exact = merchants.find((m) => m.slug === wanted || m.name.toLowerCase() === wanted);
  if (exact) return exact;
  let found: { merchant: MerchantInfo; score: number } | null = null;
  for (const merchant of merchants) {
    const s = Math.max(score(wanted, `${merchant.name} ${merchant.slug.replace(/-/g, ' ')}`), 0);
    if (s >= 0.5 && (!found || s > found.score)) found = { merchant, score: s };
  }
  return found?.merchant ?? null;
}

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

/** A clause's quantity word as a number, or null when it is not one. */
export function quantity(word: string): number | null {
  // A negative count is a count still (refused as out of range), not a word of the product's name.
  if (/^-?[0-9]{1,4}$/.test(word)) return Number(word);
  if (word === 'a' || word === 'an' || word === 'another') return 1;
  const index = NUMBER_WORDS.indexOf(word);
  return index >= 0 ? index : null;
}

function clauses(ask: string): string[] {
  return ask
    .toLowerCase()
    .replace(/[!?.]+(\s|$)/g, ' ')
    .split(/\s*(?:,|;|\band\b|\bthen\b|\balso\b|\bplus\b)\s*/)
    .map((clause) => clause.trim().replace(/\s+/g, ' '))
    .filter((clause) => clause.length > 0);
}

function swapped(match: RegExpExecArray | null): string[] | null {
  return match ? [match[0], match[2] as string, match[1] as string] : null;
}

function listing(products: Product[]): string {
  if (products.length === 0) return 'nothing right now';
  return products
    .map((p) => `${p.name} (${formatMoney(p.priceCents, p.currency)}${p.in_stock ? '' : ', out of stock'})`)
    .join(', ');
}

const unknownMerchant = (requested: string): EngineAction => ({
  type: 'unmatched',
  merchant: null,
  requested,
  reason: 'unknown_merchant',
  detail: `No merchant called "${requested}".`,
});

const notInCart = (requested: string): EngineAction => ({
  type: 'unmatched',
  merchant: null,
  requested,
  reason: 'not_found',
  detail: `"${requested}" is not in a cart.`,
});

const notUnderstood = (requested: string): EngineAction => ({
  type: 'unmatched',
  merchant: null,
  requested,
  reason: 'not_understood',
  detail: 'Say what to buy, for example "2 lattes from coffee".',
});
