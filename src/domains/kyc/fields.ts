import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Every field the information submission knows (spec §2, `extracted` keys plus the two never read off a document). */
export const INFORMATION_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'national_id_number',
  'phone_number',
  'address_line1',
  'address_line2',
  'address_city',
  'address_region',
  'address_postal_code',
  'address_country',
] as const;
export type InformationField = (typeof INFORMATION_FIELDS)[number];
export type Information = Partial<Record<InformationField, string>>;

/** Keys of `extracted` that may prefill an information field. `document_number` is deliberately absent. */
export const PREFILLABLE: readonly InformationField[] = [
  'first_name',
  'last_name',
  'date_of_birth',
  'address_line1',
  'address_city',
  'address_region',
  'address_postal_code',
  'address_country',
];

/** Countries whose verifications need a national id number (US: the SSN). */
export const NATIONAL_ID_COUNTRIES: ReadonlySet<string> = new Set(['US']);

/**
 * The profile a verification must end with. `address_line2` is never required (the reader folds a
 * second address line into the first); `national_id_number` only where the country uses one.
 */
export function requiredProfile(country: string | null): InformationField[] {
  const fields: InformationField[] = [
    'first_name',
    'last_name',
    'date_of_birth',
    'address_line1',
    'address_city',
    'address_region',
    'address_postal_code',
    'address_country',
  ];
  if (country && NATIONAL_ID_COUNTRIES.has(country)) fields.push('national_id_number');
  return fields;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** ISO 3166-1 alpha-2, known to the ICU region list. */
export function isCountryCode(value: string): boolean {
  if (!/^[A-Z]{2}$/.test(value)) return false;
  try {
    return regionNames.of(value) !== value;
  } catch {
    return false;
  }
}

/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

const TEXT_LIMITS: Partial<Record<InformationField, number>> = {
  first_name: 100,
  last_name: 100,
  address_line1: 200,
  address_line2: 200,
  address_city: 100,
  address_region: 100,
};

/**
 * Checks and normalises submitted fields. Returns the cleaned values and one message per bad field.
 * `country` is the verification's country: it decides the national id and postal code formats.
 */
export function validateInformation(
  input: Information,
  context: { country: string | null; now: number },
): { values: Information; fieldErrors: Record<string, string> } {
  const values: Information = {};
  const fieldErrors: Record<string, string> = {};
  const country = input.address_country?.trim().toUpperCase() || context.country;
  for (const field of INFORMATION_FIELDS) {
    const raw = input[field];
    if (raw === undefined) continue;
    const value = raw.trim().replace(/\s+/g, ' ');
    const limit = TEXT_LIMITS[field];
    if (value === '' && field !== 'address_line2') {
      fieldErrors[field] = 'must not be empty';
      continue;
    }
    if (limit !== undefined && value.length > limit) {
      fieldErrors[field] = `must be at most ${limit} characters`;
      continue;
    }
    // Line breaks and tabs became spaces above; any other control character is not text.
    if (/\p{Cc}/u.test(value)) {
      fieldErrors[field] = 'must not contain control characters';
      continue;
    }
    switch (field) {
      case 'date_of_birth': {
        const earliest = '1900-01-01';
        const today = new Date(context.now).toISOString().slice(0, 10);
        if (!isIsoDate(value)) fieldErrors[field] = 'must be a date written YYYY-MM-DD';
        else if (value < earliest || value >= today) fieldErrors[field] = 'must be a date in the past';
        else values[field] = value;
        break;
      }
      case 'national_id_number': {
        const compact = value.replace(/[\s-]/g, '');
        if (country === 'US') {
          // SSA: area 000, 666 and 900-999, group 00 and serial 0000 are never issued.
          if (
            !/^\d{9}$/.test(compact) ||
            /^(000|666|9\d\d)/.test(compact) ||
            /^\d{3}00/.test(compact) ||
            /0000$/.test(compact)
          )
            fieldErrors[field] = 'must be a valid 9-digit Social Security number';
          else values[field] = compact;
        } else if (!/^[A-Za-z0-9]{4,20}$/.test(compact)) {
          fieldErrors[field] = 'must be 4 to 20 letters or digits';
        } else values[field] = compact.toUpperCase();
        break;
      }
      case 'phone_number': {
        const parsed = /^\+[1-9]\d{1,14}$/.test(value) ? parsePhoneNumberFromString(value) : undefined;
        if (!parsed?.isValid()) fieldErrors[field] = 'must be a valid E.164 phone number, e.g. +14155550123';
        else values[field] = parsed.number;
        break;
      }
      case 'address_country': {
        const code = value.toUpperCase();
        if (!isCountryCode(code)) fieldErrors[field] = 'must be an ISO 3166-1 alpha-2 country code';
        else values[field] = code;
        break;
      }
      case 'address_postal_code': {
        const code = value.toUpperCase();
        const ok =
          country === 'US'
            ? /^\d{5}(-\d{4})?$/.test(code)
            : country === 'CA'
              ? /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/.test(code)
              : /^[A-Z0-9][A-Z0-9 -]{1,10}$/.test(code);
        if (!ok) fieldErrors[field] = 'is not a valid postal code for the country';
        else values[field] = code;
        break;
      }
      default:
        values[field] = value;
    }
  }
  return { values, fieldErrors };
}
