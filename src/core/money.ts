/**
 * The one way Purser writes an amount for a person (hosted pages, the console, MCP tools): amounts
 * are integers in the currency's minor unit (cents), formatted by Intl for that currency's digits.
 */

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let format = formatters.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    formatters.set(code, format);
  }
  return format;
}

const digitsOf = new Map<string, number>();

/** ISO 4217 minor-unit digits (2 for usd, 0 for jpy), as the platform's Intl knows them; 2 if unknown. */
export function minorUnitDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    // Asked once per currency: `resolvedOptions()` builds a new object on every call.
    try {
      digits = formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      return 2; // not a currency Intl knows (not kept: anyone may name one)
    }
    digitsOf.set(currency, digits);
  }
  return digits;
}

/** `$1,234.50` for 123450 usd cents, `€12.00` for 1200 eur cents, `¥1,200` for 1200 jpy. */
export function formatMoney(minor: number, currency = 'usd'): string {
  return formatter(currency).format(minor / 10 ** minorUnitDigits(currency));
}
