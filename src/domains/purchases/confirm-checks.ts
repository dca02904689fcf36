import type { StoredCart } from './cart.ts';
import type { Merchant } from './merchants/merchant.ts';

/** Payment sources of the spec (§2 Purchase response envelope). */
export const PAYMENT_SOURCES = ['balance', 'added_card', 'vault', 'company_balance', 'stored_payment_method'];
/** The ones Purser pays with: the wallet, and the user's own card kept in the vault (docs/vault.md). */
const PAYABLE_SOURCES = new Set(['balance', 'vault', 'added_card']);

/** What the checks before any merchant call look at. */
export interface ConfirmFacts {
  livemode: boolean;
  source: string;
  cart: StoredCart;
  merchant: Merchant | null;
}

/** Sources paid with a card of the user's own (the vault), not the wallet. */
export const cardSource = (source: string) => source === 'vault' || source === 'added_card';

/**
 * The checks a confirm passes before the merchant is asked again, in order: the first that fails
 * names the decline code and its words. Pure: no storage, no network.
 */
const CONFIRM_CHECKS: { code: string; fails(f: ConfirmFacts): boolean; bubble(f: ConfirmFacts): string }[] = [
  {
    // A vault card is charged through the sandbox network only: production has no card acquirer
    // to take the user's own card (docs/vault.md), so no production money is made from it.
    code: 'unsupported_payment_source',
    fails: (f) => !PAYABLE_SOURCES.has(f.source) || (f.livemode && cardSource(f.source)),
    bubble: (f) =>
      f.livemode && cardSource(f.source)
        ? `Paying with ${f.source} is available in test mode only; pay from the wallet balance.`
        : `Paying with ${f.source} is not available; pay from the wallet balance, the vault or an added card.`,
  },
  {
    code: 'no_cart',
    fails: (f) => f.merchant === null,
    bubble: (f) => `${f.cart.merchant_name} is no longer available.`,
  },
  {
    code: 'sandbox_mode',
    fails: (f) => f.merchant?.info.sandbox === f.livemode,
    bubble: (f) =>
      f.livemode
        ? `${f.cart.merchant_name} is a sandbox merchant: production money cannot be spent there.`
        : `Sandbox purchases complete only at the sandbox merchants; ${f.cart.merchant_name} takes real money.`,
  },
  {
    code: 'unsupported_currency',
    fails: (f) => f.cart.quote.currency !== 'usd',
    bubble: (f) =>
      `${f.cart.merchant_name} sells in ${f.cart.quote.currency.toUpperCase()}; the wallet holds USD.`,
  },
];

/** The first check this confirm fails (its decline code and words), or null when all pass. */
export function confirmRefusal(facts: ConfirmFacts): { code: string; bubble: string } | null {
  const failed = CONFIRM_CHECKS.find((check) => check.fails(facts));
  return failed ? { code: failed.code, bubble: failed.bubble(facts) } : null;
}
