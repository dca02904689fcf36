import { readFileSync } from 'node:fs';

/**
 * ISO 3166-1 country codes, read once from `countries.json` (its `$source` names the data): the
 * alpha-2 codes the API takes and shows, and the alpha-3 codes an issuer may report (Lithic's
 * `merchant.country`).
 */
const file = new URL('./countries.json', import.meta.url);

let tables: { alpha3: Map<string, string>; alpha2: Map<string, string> } | null = null;

function load() {
  if (!tables) {
    const { alpha3 } = JSON.parse(readFileSync(file, 'utf8')) as { alpha3: Record<string, string> };
    const pairs = Object.entries(alpha3);
    tables = { alpha3: new Map(pairs), alpha2: new Map(pairs.map(([two, three]) => [three, two])) };
  }
  return tables;
}

/** An ISO 3166-1 alpha-2 country code, upper case (and XK, Kosovo, as the card networks use it). */
export function isCountry(code: string): boolean {
  return load().alpha3.has(code);
}

/** The alpha-2 code of an alpha-3 one (`USA` → `US`), or null when it names no country. */
export function alpha2Of(alpha3: string): string | null {
  return load().alpha2.get(alpha3.toUpperCase()) ?? null;
}
