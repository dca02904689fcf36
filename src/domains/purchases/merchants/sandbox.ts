import { readFileSync } from 'node:fs';
import type {
  CartLine,
  Merchant,
  MerchantInfo,
  PlaceRequest,
  PlaceResult,
  Product,
  Quote,
} from './merchant.ts';

interface CatalogMerchant {
  slug: string;
  name: string;
  market: { countries: string[]; currency: string };
  mcc: string;
  service_fee_cents: number;
  tip_bps: number;
  tax_bps?: number;
  tax_ceiling_bps?: number;
  shipping_cents?: number;
  products: { product_id: string; name: string; price_cents: number; in_stock: boolean }[];
}

const catalogFile = new URL('./sandbox-catalog.json', import.meta.url);

/** The built-in sandbox merchants of the checked-in catalog (docs/purchases.md). */
export function sandboxMerchants(charged: ChargedLookup): SandboxMerchant[] {
  const { merchants } = JSON.parse(readFileSync(catalogFile, 'utf8')) as { merchants: CatalogMerchant[] };
  return merchants.map((entry) => new SandboxMerchant(entry, charged));
}

/** The amount the order's card was charged through the authorization engine, or null: never charged. */
export type ChargedLookup = (orderId: string) => Promise<number | null>;

/** Lowercase word stems of a text: what search and the built-in engine match on. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem);
}

function stem(word: string): string {
  if (word.length > 3 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('es') && /(sh|ch|x|s)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 2 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** How well a product name answers a query: the share of the query's words it contains. */
export function score(query: string, name: string): number {
  const wanted = words(query);
  if (wanted.length === 0) return 0;
  const have = new Set(words(name));
  return wanted.filter((word) => have.has(word)).length / wanted.length;
}

/**
 * A merchant that lives in the process, on sandbox money only. It charges the delegated card
 * through the authorization engine like any merchant, and that charge is its order book: an order
 * exists exactly when its card was charged, so nothing of it is lost in a crash.
 */
export class SandboxMerchant implements Merchant {
  readonly info: MerchantInfo;
  private readonly products_: Map<string, Product>;

  constructor(
    private readonly entry: CatalogMerchant,
    private readonly charged: ChargedLookup,
  ) {
    this.info = {
      slug: entry.slug,
      name: entry.name,
      market: entry.market,
      mcc: entry.mcc,
      country: entry.market.countries[0] ?? 'US',
      protocol: 'sandbox',
      sandbox: true,
    };
    this.products_ = new Map(
      entry.products.map((p) => [
        p.product_id,
        {
          product_id: p.product_id,
          name: p.name,
          priceCents: p.price_cents,
          currency: entry.market.currency,
          in_stock: p.in_stock,
        },
      ]),
    );
  }

  async search(query: string, limit: number): Promise<Product[]> {
    const all = [...this.products_.values()];
    if (words(query).length === 0) return all.slice(0, limit);
    return all
      .map((product) => ({ product, score: score(query, product.name) }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((hit) => hit.product);
  }

  async products(ids: string[]): Promise<Product[]> {
    return ids.flatMap((id) => {
      const product = this.products_.get(id);
      return product ? [product] : [];
    });
  }

  async quote(lines: CartLine[]): Promise<Quote> {
    const items: Quote['items'] = [];
    const unavailable: string[] = [];
    for (const line of lines) {
      const product = this.products_.get(line.product_id);
      if (!product?.in_stock) {
        unavailable.push(line.product_id);
        continue;
      }
      items.push({
        product_id: product.product_id,
        name: product.name,
        qty: line.qty,
        priceCents: product.priceCents,
      });
    }
    const subtotal = items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);
    const serviceFeesCents = items.length > 0 ? this.entry.service_fee_cents : 0;
    const tipCents = Math.round((subtotal * this.entry.tip_bps) / 10_000);
    const totalCents = subtotal + serviceFeesCents + tipCents;
    // A merchant whose tax and shipping finalize later states none now; the others charge none.
    const stated = this.finalizesLater() ? null : 0;
    return {
      items,
      serviceFeesCents,
      tipCents,
      taxCents: stated,
      shippingCents: stated,
      totalCents,
      approvedCeilingCents: this.finalizesLater() ? totalCents + this.extrasAt(subtotal, 'ceiling') : null,
      currency: this.entry.market.currency,
      unavailable,
      merchantRef: null,
    };
  }

  async place(request: PlaceRequest): Promise<PlaceResult> {
    const quote = await this.quote(request.lines);
    if (quote.unavailable.length > 0)
      return { outcome: 'declined', code: 'items_unavailable', detail: 'Some items sold out.' };
    const subtotal = quote.items.reduce((sum, item) => sum + item.qty * item.priceCents, 0);
    // Tax and shipping are known now; the charge never exceeds what the user approved.
    const finalCents = quote.totalCents + (this.finalizesLater() ? this.extrasAt(subtotal, 'final') : 0);
    if (finalCents > request.ceilingCents)
      return {
        outcome: 'declined',
        code: 'cart_changed',
        detail: 'The price rose above the approved amount.',
      };
    const charge = await request.charge(finalCents);
    if (!charge.approved)
      return {
        outcome: 'declined',
        code: 'payment_declined',
        detail: `Card declined: ${charge.declineReason}.`,
      };
    return { outcome: 'placed', merchantOrderId: `sbx_${request.orderId}`, finalCents, confirmed: true };
  }

  async lookup(orderId: string): Promise<PlaceResult | { outcome: 'absent' }> {
    const finalCents = await this.charged(orderId);
    if (finalCents === null) return { outcome: 'absent' };
    return { outcome: 'placed', merchantOrderId: `sbx_${orderId}`, finalCents, confirmed: true };
  }

  async cancel(): Promise<void> {}

  /** Test knobs: the sandbox merchant's prices and stock move as a real merchant's would. */
  setPrice(productId: string, priceCents: number): void {
    const product = this.products_.get(productId);
    if (product) product.priceCents = priceCents;
  }

  setStock(productId: string, inStock: boolean): void {
    const product = this.products_.get(productId);
    if (product) product.in_stock = inStock;
  }

  private finalizesLater(): boolean {
    return this.entry.tax_bps !== undefined || this.entry.shipping_cents !== undefined;
  }

  private extrasAt(subtotal: number, which: 'final' | 'ceiling'): number {
    const bps = which === 'final' ? (this.entry.tax_bps ?? 0) : (this.entry.tax_ceiling_bps ?? 0);
    return Math.ceil((subtotal * bps) / 10_000) + (this.entry.shipping_cents ?? 0);
  }
}
