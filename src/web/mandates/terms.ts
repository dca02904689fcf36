import { formatMoney } from '../../core/money.ts';
import { categoryNamed, MCC, merchantCategories } from '../../domains/cards/index.ts';
import type { MandateTerms } from '../../domains/mandates/index.ts';
import { escapeHtml } from '../html.ts';

/**
 * A mandate's terms in plain words, as the approval page and the OAuth consent page show them: what
 * the user signs. Every term is shown; nothing is left to a link.
 */

const UTC_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** `May 31, 2027 at 11:59 PM UTC`. */
export function utcTime(ms: number): string {
  return `${UTC_TIME.format(new Date(ms))} UTC`;
}

const BUDGET_WINDOWS: Record<MandateTerms['budget']['interval'], string> = {
  daily: 'each day (UTC)',
  weekly: 'each week, Monday to Sunday (UTC)',
  monthly: 'each calendar month (UTC)',
  total: 'in total, until the end',
};

const line = (id: string, label: string, value: string) =>
  `<li id="${id}"><span>${label}</span><span>${value}</span></li>`;

function allowList(list: string[] | null, anything: string, words = (entry: string) => entry): string {
  return list ? list.map((entry) => escapeHtml(words(entry))).join(', ') : anything;
}

/** A category as its catalog describes it: `Grocery Stores, Supermarkets (5411)`. */
function categoryWords(entry: string): string {
  const category = MCC.test(entry)
    ? merchantCategories().find((c) => c.mccs.includes(entry))
    : categoryNamed(entry);
  if (!category) return entry;
  return MCC.test(entry) ? `${category.description} (${entry})` : category.description;
}

/** The description as the user's words, then one line per term. */
export function termsSection(terms: MandateTerms, termsHash: string): string {
  const money = (cents: number) => formatMoney(cents, terms.currency);
  return `<section id="mandate-terms"><h2 id="mandate-description">“${escapeHtml(terms.description)}”</h2>
<ul>${[
    line('term-max', 'Each purchase', `up to ${money(terms.max_amount_cents)}`),
    line(
      'term-budget',
      'Budget',
      `${money(terms.budget.amount_cents)} ${BUDGET_WINDOWS[terms.budget.interval]}`,
    ),
    line('term-merchants', 'Merchants', allowList(terms.allowed_merchants, 'any merchant')),
    line('term-categories', 'Kinds of shop', allowList(terms.allowed_categories, 'any kind', categoryWords)),
    line('term-until', 'Until', utcTime(Date.parse(terms.expires_at))),
  ].join('')}</ul>
<p class="hint" id="terms-hash">Fingerprint of these terms (SHA-256), which your passkey signs: <code>${escapeHtml(termsHash)}</code></p></section>`;
}
