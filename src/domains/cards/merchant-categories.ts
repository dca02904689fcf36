import { readFileSync } from 'node:fs';

/**
 * The merchant category catalog (`GET /api/v2/merchant_categories`): ISO 18245 merchant category
 * codes under snake_case names, read once from `merchant-categories.json` (its `$source` names
 * where the data comes from). A category covers its own code and, for the travel chains of
 * 3000–3999, an inclusive range of codes (`"3000-3350"`: every airline's code is an airline).
 */
export interface MerchantCategory {
  name: string;
  description: string;
  /** Four-digit codes, or inclusive ranges of them (`"3501-3999"`). */
  mccs: string[];
}

const catalogFile = new URL('./merchant-categories.json', import.meta.url);

let catalog: { list: MerchantCategory[]; byName: Map<string, MerchantCategory> } | null = null;

function load() {
  if (!catalog) {
    const { categories } = JSON.parse(readFileSync(catalogFile, 'utf8')) as {
      categories: MerchantCategory[];
    };
    catalog = { list: categories, byName: new Map(categories.map((c) => [c.name, c])) };
  }
  return catalog;
}

/** Every category, in code order. */
export function merchantCategories(): MerchantCategory[] {
  return load().list;
}

export function categoryNamed(name: string): MerchantCategory | undefined {
  return load().byName.get(name);
}

export const MCC = /^[0-9]{4}$/;

/** Inclusive ranges of four-digit codes: what a list of codes and category names covers. */
export type CodeRanges = [from: string, to: string][];

/**
 * The codes a list of categories covers (codes as given, names through the catalog), as inclusive
 * ranges: four-digit strings compare in code order, in JavaScript as in SQL.
 */
export function codeRanges(categories: string[]): CodeRanges {
  return categories.flatMap((entry): CodeRanges => {
    if (MCC.test(entry)) return [[entry, entry]];
    return (categoryNamed(entry)?.mccs ?? []).map((code) => {
      const [from, to = from] = code.split('-') as [string, string?];
      return [from, to];
    });
  });
}

export function inRanges(ranges: CodeRanges, mcc: string | null): boolean {
  return mcc !== null && ranges.some(([from, to]) => mcc >= from && mcc <= to);
}
