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

/** Prefixes of this service's identifiers and secrets (`usr_…`, `ch_…`, `txn_…`, `sk_test_…`). */
const ID_PREFIXES = [
  'attempt',
  'aud',
  'btk',
  'ca',
  'card',
  'cat',
  'ch',
  'cha',
  'cli',
  'cns',
  'conn',
  'conv',
  'cos',
  'crt',
  'del',
  'evt',
  'fam',
  'fund',
  'key',
  'kyc',
  'kyt',
  'lac',
  'limit',
  'macct',
  'mc',
  'mch',
  'mem',
  'mls',
  'mos',
  'msg',
  'msi',
  'ord',
  'org',
  'pat',
  'pcs',
  'pk',
  'req',
  'rvl',
  'tr',
  'txn',
  'usr',
  'vc',
  'vs',
  'wh',
  'wha',
  'whd',
  'whsec',
  'wl',
  'wla',
  'apv',
  'sk_test',
  'sk_live',
  'cs_test',
  'cs_live',
];

const IDENTIFIER = new RegExp(`\\b(${ID_PREFIXES.join('|')})_[A-Za-z0-9]{4,}`, 'i');
/** Any id-shaped token (`abc_` then a long run of letters and digits), whoever's it is. */
const ID_SHAPED = /\b[a-z]{1,10}_[A-Za-z0-9_]{16,}/i;
const URL_LIKE =
  /\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+\.(com|net|org|io|dev|app|test|local|internal)\b/i;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
/** A provider's name, also spelled with separators between its letters (`Sum-sub`, `J.u.m.i.o`). */
const PROVIDER = new RegExp(
  `(?<![a-z])(${PROVIDER_NAMES.map((name) => [...name].join('[\\s._-]?')).join('|')})(?![a-z])`,
  'i',
);
/** Control characters but line breaks and tabs (C0, DEL, C1): terminal escapes are not text to show. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

/**
 * Why a reason is not end-user-safe, or null when it is. Matched on its NFKC form, so look-alike
 * letters (full-width `Ｊｕｍｉｏ`) read as the names they imitate.
 */
export function unsafeReason(reason: string): string | null {
  const text = reason.normalize('NFKC');
  if (CONTROL.test(text)) return 'The reason must not contain control characters.';
  if (IDENTIFIER.test(text) || ID_SHAPED.test(text))
    return 'The reason must not contain internal identifiers.';
  if (URL_LIKE.test(text) || EMAIL.test(text)) return 'The reason must not contain addresses or links.';
  if (PROVIDER.test(text)) return 'The reason must not name internal providers.';
  return null;
}
