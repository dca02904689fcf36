import { createHash, randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import { DAY } from '../../core/clock.ts';
import { categoryNamed, codeRanges, inRanges, MCC, windowStart } from '../cards/index.ts';

/**
 * A mandate's terms (docs/mandates.md "Terms"): what the user lets one app buy, for how much, until
 * when. Free of storage: checking, hashing and the rules a charge must pass.
 */

export const BUDGET_INTERVALS = ['daily', 'weekly', 'monthly', 'total'] as const;
export type BudgetInterval = (typeof BUDGET_INTERVALS)[number];

/** The terms as stored, shown and signed: every field present, an absent optional one null. */
export interface MandateTerms {
  client_id: string;
  description: string;
  currency: 'usd';
  max_amount_cents: number;
  budget: { amount_cents: number; interval: BudgetInterval };
  allowed_categories: string[] | null;
  allowed_merchants: string[] | null;
  expires_at: string;
}

/** The request's terms, after the route's JSON schema (types and sizes) passed them. */
export interface MandateTermsInput {
  client_id: string;
  description: string;
  currency: string;
  max_amount_cents: number;
  budget: { amount_cents: number; interval: BudgetInterval };
  allowed_categories?: string[] | null | undefined;
  allowed_merchants?: string[] | null | undefined;
  expires_at: string;
}

/** How far ahead a mandate may end: a year (a longer one should be signed again). */
export const MAX_LIFETIME_DAYS = 366;
/** Cents a budget or a purchase may name at most ($1,000,000): integers stay exact everywhere. */
export const MAX_CENTS = 100_000_000;

/** An ISO 8601 date-time with a zone, as the API takes times. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * What is wrong with the terms beyond their JSON schema, per field (`field_errors`; `prefix` for
 * terms inside another request, such as OAuth's `mandate` parameter), or null.
 */
export function termsProblems(
  input: MandateTermsInput,
  now: number,
  prefix = '',
): Record<string, string> | null {
  const errors: Record<string, string> = {};
  const field = (name: string) => `${prefix}${name}`;
  if (input.currency !== 'usd') errors[field('currency')] = 'must be "usd"';
  if (input.max_amount_cents > input.budget.amount_cents)
    errors[field('max_amount_cents')] = 'must not be more than budget.amount_cents';
  const categories = input.allowed_categories;
  if (categories) {
    const unknown = categories.find((entry) => !MCC.test(entry) && !categoryNamed(entry));
    if (categories.length === 0)
      errors[field('allowed_categories')] = 'must not be empty: leave it out to allow every category';
    else if (unknown !== undefined)
      errors[field('allowed_categories')] =
        `"${unknown}" is neither a four-digit merchant category code nor a category name of GET /api/v2/merchant_categories`;
  }
  if (input.allowed_merchants?.length === 0)
    errors[field('allowed_merchants')] = 'must not be empty: leave it out to allow every merchant';
  const expires = DATE_TIME.test(input.expires_at) ? Date.parse(input.expires_at) : Number.NaN;
  if (Number.isNaN(expires))
    errors[field('expires_at')] = 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-31T23:59:59Z';
  else if (expires <= now) errors[field('expires_at')] = 'must be in the future';
  else if (expires > now + MAX_LIFETIME_DAYS * DAY)
    errors[field('expires_at')] = `must be at most ${MAX_LIFETIME_DAYS} days ahead`;
  return Object.keys(errors).length > 0 ? errors : null;
}

/** The terms as stored: checked input (`termsProblems` first), times in UTC, repeats left out. */
export function normalizeTerms(input: MandateTermsInput): MandateTerms {
  const unique = (list: string[] | null | undefined) => (list ? [...new Set(list)] : null);
  return {
    client_id: input.client_id,
    description: input.description,
    currency: 'usd',
    max_amount_cents: input.max_amount_cents,
    budget: { amount_cents: input.budget.amount_cents, interval: input.budget.interval },
    allowed_categories: unique(input.allowed_categories),
    allowed_merchants: unique(input.allowed_merchants),
    expires_at: new Date(Date.parse(input.expires_at)).toISOString(),
  };
}

/** Lowercase hex SHA-256 of the RFC 8785 canonical JSON of the terms (the cart's hash is made the same way). */
export function termsHash(terms: MandateTerms): string {
  return createHash('sha256')
    .update(canonicalize(terms) as string)
    .digest('hex');
}

/** A purchase as the terms see it. */
export interface MandateCharge {
  /** What the charge takes from the budget: an incremental authorization's increment. */
  amountCents: number;
  /**
   * What the authorization an incremental one increases held before it: the per-purchase limit
   * judges the total, the budget only the increment (the rest is taken already).
   */
  priorCents?: number | undefined;
  currency: string;
  /** The merchant's category code, when known. */
  category: string | null;
  /** The merchant's slug (`/buy`) or name (a card's authorization). */
  merchant: string | null;
  /** When the charge is made (ms). */
  at: number;
}

/** The term a charge falls outside of, as a refusal names it. */
export type MandateTerm =
  | 'status'
  | 'expires_at'
  | 'currency'
  | 'max_amount_cents'
  | 'allowed_categories'
  | 'allowed_merchants'
  | 'budget';

/**
 * The first term of `terms` the charge falls outside of, budget aside (which needs what was spent):
 * a charge with no category fails an allow list of categories (nothing proves it is allowed), and
 * the same for merchants.
 */
export function termRefusal(
  terms: MandateTerms,
  expiresAt: number,
  charge: MandateCharge,
): MandateTerm | null {
  if (charge.at >= expiresAt) return 'expires_at';
  if (charge.currency !== terms.currency) return 'currency';
  if (charge.amountCents + (charge.priorCents ?? 0) > terms.max_amount_cents) return 'max_amount_cents';
  if (terms.allowed_categories && !inRanges(codeRanges(terms.allowed_categories), charge.category))
    return 'allowed_categories';
  if (
    terms.allowed_merchants &&
    (charge.merchant === null || !terms.allowed_merchants.includes(charge.merchant))
  )
    return 'allowed_merchants';
  return null;
}

/** Where the budget's current window began (ms, UTC calendar): today, this ISO week, this month; 0 for `total`. */
export function budgetWindowStart(interval: BudgetInterval, now: number): number {
  return windowStart(interval === 'total' ? 'all_time' : interval, now) ?? 0;
}

/**
 * The WebAuthn challenge of a mandate's approval: the 32 bytes of SHA-256 of the UTF-8 text
 * `purser-mandate:{mandate_id}:{terms_hash}`, then 16 random bytes (so that every ceremony's
 * challenge is new). The first part binds the signature to these exact terms (a changed term is
 * another hash) and to this one mandate; anyone holding the terms and the id recomputes it from the
 * kept assertion's clientDataJSON (docs/mandates.md).
 */
export function approvalChallenge(mandateId: string, hash: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat([boundPart(mandateId, hash), randomBytes(16)]));
}

/** Whether a challenge (base64url, as clientDataJSON carries it) begins with the mandate's bound part. */
export function challengeBinds(challenge: string, mandateId: string, hash: string): boolean {
  const bytes = Buffer.from(challenge, 'base64url');
  return bytes.length === 48 && bytes.subarray(0, 32).equals(boundPart(mandateId, hash));
}

function boundPart(mandateId: string, hash: string): Buffer {
  return createHash('sha256').update(`purser-mandate:${mandateId}:${hash}`).digest();
}

/** How long an approval page works after the mandate was asked for. */
export const APPROVAL_WINDOW_DAYS = 7;

/** When a pending mandate's approval page stops working: a week after it was asked for, or the terms' end (ms). */
export function approvalDeadline(mandate: { created_at: number; expires_at: number }): number {
  return Math.min(Number(mandate.created_at) + APPROVAL_WINDOW_DAYS * DAY, Number(mandate.expires_at));
}
