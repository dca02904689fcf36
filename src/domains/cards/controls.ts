import { DAY } from '../../core/clock.ts';
import { isCountry } from './countries.ts';
import { type CodeRanges, categoryNamed, codeRanges, inRanges, MCC } from './merchant-categories.ts';

/**
 * Spending controls (issue 27; docs/cards.md "Spending controls"), in Stripe Issuing's shape: where
 * a card may be used (merchant categories, merchant countries) and how much it may spend per
 * authorization or per calendar window. Cards and users carry them; a charge must pass both. The
 * rules here are free of storage: what a window has spent comes from the caller (`SpentIn`).
 */

export const INTERVALS = ['per_authorization', 'daily', 'weekly', 'monthly', 'yearly', 'all_time'] as const;
export type Interval = (typeof INTERVALS)[number];

/** What can refuse a charge: a list of the controls, or a term of the mandate the card is held to. */
export const REFUSING_RULES = [
  'allowed_categories',
  'blocked_categories',
  'allowed_merchant_countries',
  'blocked_merchant_countries',
  'spending_limits',
  'status',
  'expires_at',
  'currency',
  'max_amount_cents',
  'allowed_merchants',
  'budget',
] as const;

export interface SpendingLimit {
  amount_cents: number;
  interval: Interval;
  /** Only charges in these categories count and are limited; all when absent. */
  categories?: string[] | undefined;
}

export interface SpendingControls {
  allowed_categories: string[];
  blocked_categories: string[];
  allowed_merchant_countries: string[];
  blocked_merchant_countries: string[];
  spending_limits: SpendingLimit[];
}

/** The input shape: every list optional (absent is empty). */
export type SpendingControlsInput = Partial<SpendingControls>;

export type ControlSource = 'card' | 'user';
export type ControlRule = keyof SpendingControls;

/** The control that refused a charge, as the transaction shows it (`spending_control`). */
export interface SpendingControlRefusal {
  source: ControlSource;
  rule: ControlRule;
  interval?: Interval;
  limit_cents?: number;
  spent_cents?: number;
}

/** The terms of a mandate a charge can fall outside of (mandates/terms.ts `MandateTerm`). */
export type MandateTermName =
  | 'status'
  | 'expires_at'
  | 'currency'
  | 'max_amount_cents'
  | 'allowed_categories'
  | 'allowed_merchants'
  | 'budget';

/** On a transaction the mandate of its card declined (docs/mandates.md): the term, in `spending_control`. */
export interface MandateRefusal {
  source: 'mandate';
  rule: MandateTermName;
  mandate_id: string;
}

export type ControlDecline = 'CATEGORY_BLOCKED' | 'COUNTRY_BLOCKED' | 'SPENDING_LIMIT_EXCEEDED';

export interface ControlVerdict {
  reason: ControlDecline;
  control: SpendingControlRefusal;
}

/** A charge as the controls see it. */
export interface ControlledCharge {
  amountCents: number;
  mcc: string | null;
  merchantCountry: string | null;
  /**
   * What the authorization this charge adds to already holds (an incremental authorization: the
   * charge is the increment): a `per_authorization` limit judges the whole authorization. The
   * windows count it already, with the rest of their spending.
   */
  priorCents?: number | undefined;
}

/**
 * What the charges the controls limit have spent since `since` (ms), approved authorizations less
 * what voids and refunds gave back, counting only codes in `categories` when given.
 */
export type SpentIn = (query: { since: number; categories: CodeRanges | null }) => Promise<number>;

export const MAX_LIST = 500;
export const MAX_LIMITS = 20;

export const EMPTY_CONTROLS: SpendingControls = {
  allowed_categories: [],
  blocked_categories: [],
  allowed_merchant_countries: [],
  blocked_merchant_countries: [],
  spending_limits: [],
};

/**
 * The controls as stored and shown: every list present, countries upper case, repeats left out.
 * Check them first (`controlsProblems`).
 */
export function normalizeControls(input: SpendingControlsInput): SpendingControls {
  const unique = (list: string[] | undefined, map = (s: string) => s) => [...new Set((list ?? []).map(map))];
  const upper = (s: string) => s.toUpperCase();
  return {
    allowed_categories: unique(input.allowed_categories),
    blocked_categories: unique(input.blocked_categories),
    allowed_merchant_countries: unique(input.allowed_merchant_countries, upper),
    blocked_merchant_countries: unique(input.blocked_merchant_countries, upper),
    spending_limits: (input.spending_limits ?? []).map((limit) => ({
      amount_cents: limit.amount_cents,
      interval: limit.interval,
      ...(limit.categories !== undefined ? { categories: unique(limit.categories) } : {}),
    })),
  };
}

/**
 * What is wrong with controls beyond their JSON schema, per field (`field_errors`), or null: an
 * unknown category or country, or an allowed and a blocked list of one kind both set (they exclude
 * each other: which would win is not obvious, so neither is taken).
 */
export function controlsProblems(input: SpendingControlsInput, prefix = ''): Record<string, string> | null {
  const errors: Record<string, string> = {};
  const field = (name: string) => `${prefix}${name}`;
  const categories = (name: string, list: string[] | undefined) => {
    const unknown = (list ?? []).find((entry) => !MCC.test(entry) && !categoryNamed(entry));
    if (unknown !== undefined) {
      errors[field(name)] =
        `"${unknown}" is neither a four-digit merchant category code nor a category name of GET /api/v2/merchant_categories`;
    }
  };
  const countries = (name: string, list: string[] | undefined) => {
    const unknown = (list ?? []).find((entry) => !isCountry(entry.toUpperCase()));
    if (unknown !== undefined) errors[field(name)] = `"${unknown}" is not an ISO 3166-1 alpha-2 country code`;
  };
  categories('allowed_categories', input.allowed_categories);
  categories('blocked_categories', input.blocked_categories);
  countries('allowed_merchant_countries', input.allowed_merchant_countries);
  countries('blocked_merchant_countries', input.blocked_merchant_countries);
  for (const [index, limit] of (input.spending_limits ?? []).entries())
    categories(`spending_limits[${index}].categories`, limit.categories);
  for (const kind of ['categories', 'merchant_countries'] as const) {
    const allowed = `allowed_${kind}` as const;
    const blocked = `blocked_${kind}` as const;
    if ((input[allowed]?.length ?? 0) > 0 && (input[blocked]?.length ?? 0) > 0) {
      errors[field(allowed)] = `cannot be set together with ${field(blocked)}: use one of the two`;
      errors[field(blocked)] = `cannot be set together with ${field(allowed)}: use one of the two`;
    }
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Controls that refuse nothing. */
export function isEmpty(controls: SpendingControls): boolean {
  return (
    controls.allowed_categories.length === 0 &&
    controls.blocked_categories.length === 0 &&
    controls.allowed_merchant_countries.length === 0 &&
    controls.blocked_merchant_countries.length === 0 &&
    controls.spending_limits.length === 0
  );
}

/** Controls whose limits count what was spent in a window (so deciding on them needs a lock). */
export function countsSpending(controls: SpendingControls | null): boolean {
  return controls?.spending_limits.some((limit) => limit.interval !== 'per_authorization') ?? false;
}

/** Controls as stored (JSON), or null for none. */
export function parseControls(stored: string | null): SpendingControls | null {
  return stored === null ? null : { ...EMPTY_CONTROLS, ...(JSON.parse(stored) as SpendingControls) };
}

/**
 * The first control of `controls` that refuses the charge, in this order: categories, countries,
 * then each limit as listed. A charge without a category code fails an allow list (nothing proves
 * it is allowed) and passes a block list; the same for a charge without a country.
 */
export async function refusalOf(
  source: ControlSource,
  controls: SpendingControls,
  charge: ControlledCharge,
  now: number,
  spentIn: SpentIn,
): Promise<ControlVerdict | null> {
  const refuse = (
    reason: ControlDecline,
    rule: ControlRule,
    extra: Partial<SpendingControlRefusal> = {},
  ) => ({
    reason,
    control: { source, rule, ...extra },
  });
  if (
    controls.allowed_categories.length > 0 &&
    !inRanges(codeRanges(controls.allowed_categories), charge.mcc)
  )
    return refuse('CATEGORY_BLOCKED', 'allowed_categories');
  if (inRanges(codeRanges(controls.blocked_categories), charge.mcc))
    return refuse('CATEGORY_BLOCKED', 'blocked_categories');
  const country = charge.merchantCountry;
  if (
    controls.allowed_merchant_countries.length > 0 &&
    (country === null || !controls.allowed_merchant_countries.includes(country))
  )
    return refuse('COUNTRY_BLOCKED', 'allowed_merchant_countries');
  if (country !== null && controls.blocked_merchant_countries.includes(country))
    return refuse('COUNTRY_BLOCKED', 'blocked_merchant_countries');
  for (const limit of controls.spending_limits) {
    const categories = limit.categories ? codeRanges(limit.categories) : null;
    if (categories && !inRanges(categories, charge.mcc)) continue;
    const since = windowStart(limit.interval, now);
    const spent = since === null ? (charge.priorCents ?? 0) : await spentIn({ since, categories });
    if (spent + charge.amountCents > limit.amount_cents) {
      return refuse('SPENDING_LIMIT_EXCEEDED', 'spending_limits', {
        interval: limit.interval,
        limit_cents: limit.amount_cents,
        ...(since === null ? {} : { spent_cents: spent }),
      });
    }
  }
  return null;
}

/**
 * Where an interval's calendar window began, in UTC (ms): today, this ISO week (from Monday), this
 * month, this year; `all_time` from the start; null for `per_authorization`, which has no window.
 */
export function windowStart(interval: Interval, now: number): number | null {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const today = Date.UTC(year, month, date.getUTCDate());
  switch (interval) {
    case 'per_authorization':
      return null;
    case 'daily':
      return today;
    case 'weekly':
      return today - ((date.getUTCDay() + 6) % 7) * DAY;
    case 'monthly':
      return Date.UTC(year, month, 1);
    case 'yearly':
      return Date.UTC(year, 0, 1);
    case 'all_time':
      return 0;
  }
}
