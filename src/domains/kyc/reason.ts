/**
 * Reasons are shown to end users verbatim (spec §2), so a simulated or reviewed reason must not name
 * internal providers or identifiers (spec §4 simulate rules, `400 invalid_reason`).
 */

/** Identity-review, document-reading and messaging vendors and libraries a reason must not name. */
export const PROVIDER_NAMES = [
  'onfido',
  'jumio',
  'veriff',
  'persona',
  'sumsub',
  'socure',
  'alloy',
  'trulioo',
  'idology',
  'plaid',
  'stripe',
  'lithic',
  'marqeta',
  'twilio',
  'sendgrid',
  'tesseract',
  'zxing',
  'aamva',
  'purser',
] as const;

/** Prefixes of this service's identifiers and secrets (`usr_…`, `org_…`, `evt_…`, `sk_test_…`). */
const ID_PREFIXES = [
  'usr',
  'org',
  'evt',
  'cli',
  'conn',
  'ca',
  'cns',
  'fam',
  'key',
  'kyc',
  'kyt',
  'wh',
  'whsec',
  'del',
  'card',
  'pat',
  'cat',
  'crt',
  'req',
  'sk_test',
  'sk_live',
  'cs_test',
  'cs_live',
];

const IDENTIFIER = new RegExp(`\\b(${ID_PREFIXES.join('|')})_[A-Za-z0-9]{4,}`, 'i');
const URL_LIKE =
  /\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+\.(com|net|org|io|dev|app|test|local|internal)\b/i;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const PROVIDER = new RegExp(`\\b(${PROVIDER_NAMES.join('|')})\\b`, 'i');

/** Why a reason is not end-user-safe, or null when it is. */
export function unsafeReason(reason: string): string | null {
  if (IDENTIFIER.test(reason)) return 'The reason must not contain internal identifiers.';
  if (URL_LIKE.test(reason) || EMAIL.test(reason)) return 'The reason must not contain addresses or links.';
  if (PROVIDER.test(reason)) return 'The reason must not name internal providers.';
  return null;
}
