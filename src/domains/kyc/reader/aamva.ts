/**
 * AAMVA DL/ID card design standard: parser for the PDF417 payload on the back of US and Canadian
 * driver licences and ID cards (versions 1–10, plus the pre-standard version 0 where it parses).
 */
import { CANADIAN_IINS, CANADIAN_PROVINCES } from './countries.ts';
import { isoDate } from './dates.ts';

export class AamvaParseError extends Error {}

export interface AamvaSubfile {
  type: string;
  elements: Record<string, string>;
}

export type AamvaDateFormat = 'MMDDCCYY' | 'CCYYMMDD';

export interface AamvaRecord {
  /** Issuer identification number (6 digits). */
  iin: string;
  /** AAMVA version number (0–99; 1–10 in use). */
  version: number;
  jurisdictionVersion?: number;
  subfiles: AamvaSubfile[];
  /** Elements of the DL and ID subfiles (first occurrence wins). */
  elements: Record<string, string>;
  /** Country of the issuing jurisdiction. */
  country: 'US' | 'CA';
  /** How dates are written in this record. */
  dateFormat: AamvaDateFormat;
}

export interface AamvaFields {
  firstName?: string;
  middleName?: string;
  lastName?: string;
  /** YYYY-MM-DD */
  dateOfBirth?: string;
  /** YYYY-MM-DD */
  expiryDate?: string;
  /** YYYY-MM-DD */
  issueDate?: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  region?: string;
  postalCode?: string;
  /** ISO alpha-2 */
  country: 'US' | 'CA';
  documentNumber?: string;
  /** 'DL' or 'ID' (the first standard subfile). */
  subfileType?: string;
}

/** Record separator (0x1E), part of the compliance indicator sequence "@ LF RS CR". */
const RS = String.fromCharCode(0x1e);
// Between '@' and 'ANSI' the standard puts LF RS CR; some issuers use other separators (FS, none).
const HEADER_RE = /@[^A-Za-z0-9]{0,8}?(ANSI ?|AAMVA)(\d{6})(\d{2})/;
const LINE_SPLIT_RE = new RegExp(`\\r\\n|\\n|\\r|${RS}`);

/** Parses the decoded text of an AAMVA PDF417 barcode. Throws AamvaParseError when it is not one. */
export function parseAamva(raw: string, hint?: { issuingCountry?: string }): AamvaRecord {
  const start = raw.indexOf('@');
  const m = HEADER_RE.exec(raw);
  if (start < 0 || !m || m.index !== start || m.index > 8) throw new AamvaParseError('no AAMVA header');
  const text = raw.slice(start);
  let pos = m[0].length;
  const iin = m[2]!;
  const version = Number(m[3]);
  let jurisdictionVersion: number | undefined;
  if (version >= 2) {
    const jv = text.slice(pos, pos + 2);
    if (!/^\d{2}$/.test(jv)) throw new AamvaParseError('bad jurisdiction version');
    jurisdictionVersion = Number(jv);
    pos += 2;
  }
  const entriesText = text.slice(pos, pos + 2);
  if (!/^\d{2}$/.test(entriesText)) throw new AamvaParseError('bad number of entries');
  const entries = Number(entriesText);
  pos += 2;
  const designators: { type: string; offset: number; length: number }[] = [];
  for (let i = 0; i < entries; i++) {
    const d = text.slice(pos, pos + 10);
    const dm = /^([A-Z]{2})(\d{4})(\d{4})$/.exec(d);
    if (!dm) break;
    designators.push({ type: dm[1]!, offset: Number(dm[2]), length: Number(dm[3]) });
    pos += 10;
  }
  // Version 1 files of some jurisdictions omit the designators' count; tolerate an empty directory.
  if (designators.length === 0) {
    const sm = /(DL|ID)(?=[A-Z]{3})/.exec(text.slice(pos));
    if (!sm) throw new AamvaParseError('no subfile');
    designators.push({ type: sm[1]!, offset: pos + sm.index, length: text.length - pos - sm.index });
  }
  const bodyStart = pos;
  const subfiles: AamvaSubfile[] = [];
  for (const d of designators) {
    let body: string | undefined;
    // Offsets are relative to the start of the file; many jurisdictions get them slightly wrong.
    const byOffset = text.slice(d.offset, d.offset + d.length);
    if (byOffset.startsWith(d.type)) body = byOffset;
    else {
      const re = new RegExp(`${d.type}(?=[A-Z0-9]{3})`, 'g');
      re.lastIndex = bodyStart;
      const found = re.exec(text);
      if (found) {
        const end = text.indexOf('\r', found.index);
        body = text.slice(found.index, end < 0 ? undefined : end);
      }
    }
    if (body === undefined) continue;
    subfiles.push({ type: d.type, elements: parseElements(body.slice(d.type.length)) });
  }
  const elements: Record<string, string> = {};
  for (const sf of subfiles) {
    if (sf.type !== 'DL' && sf.type !== 'ID') continue;
    for (const [k, v] of Object.entries(sf.elements)) if (!(k in elements)) elements[k] = v;
  }
  if (Object.keys(elements).length === 0) throw new AamvaParseError('no DL or ID subfile');
  const country = detectCountry(iin, elements, hint?.issuingCountry);
  const dateFormat: AamvaDateFormat = country === 'CA' || version <= 1 ? 'CCYYMMDD' : 'MMDDCCYY';
  return { iin, version, jurisdictionVersion, subfiles, elements, country, dateFormat };
}

function parseElements(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of body.split(LINE_SPLIT_RE)) {
    const l = line.replace(/^\s+/, '');
    const em = /^([A-Z][A-Z0-9]{2})(.*)$/s.exec(l);
    if (!em) continue;
    const value = em[2]!.replace(/\s+$/, '');
    if (!(em[1]! in out)) out[em[1]!] = value;
  }
  return out;
}

function detectCountry(iin: string, el: Record<string, string>, issuingCountry?: string): 'US' | 'CA' {
  const dcg = (el['DCG'] ?? '').trim().toUpperCase();
  if (dcg === 'CAN' || dcg === 'CA') return 'CA';
  if (dcg === 'USA' || dcg === 'US') return 'US';
  if (CANADIAN_IINS.has(iin)) return 'CA';
  const region = (el['DAJ'] ?? '').trim().toUpperCase();
  if (CANADIAN_PROVINCES.has(region)) return 'CA';
  const ic = (issuingCountry ?? '').trim().toUpperCase();
  if (ic === 'CA' || ic === 'CAN') return 'CA';
  return 'US';
}

/** Parses an 8-digit AAMVA date, preferring `format` and falling back to the other when it is invalid. */
export function parseAamvaDate(value: string | undefined, format: AamvaDateFormat): string | undefined {
  if (!value) return undefined;
  const v = value.replace(/[^0-9]/g, '');
  if (v.length !== 8) return undefined;
  const mdy = () => isoDate(Number(v.slice(4, 8)), Number(v.slice(0, 2)), Number(v.slice(2, 4)));
  const ymd = () => isoDate(Number(v.slice(0, 4)), Number(v.slice(4, 6)), Number(v.slice(6, 8)));
  return format === 'MMDDCCYY' ? (mdy() ?? ymd()) : (ymd() ?? mdy());
}

/** US ZIP: '123450000' or '12345    ' → '12345', '123456789' → '12345-6789'. Canada: 'A1B2C3' → 'A1B 2C3'. */
export function normalisePostalCode(value: string | undefined, country: 'US' | 'CA'): string | undefined {
  if (!value) return undefined;
  const v = value.trim().toUpperCase();
  if (!v) return undefined;
  if (country === 'US') {
    const digits = v.replace(/[^0-9]/g, '');
    if (digits.length >= 9) {
      const plus4 = digits.slice(5, 9);
      return plus4 === '0000' ? digits.slice(0, 5) : `${digits.slice(0, 5)}-${plus4}`;
    }
    if (digits.length >= 5) return digits.slice(0, 5);
    return v;
  }
  const compact = v.replace(/[^A-Z0-9]/g, '');
  if (/^[A-Z]\d[A-Z]\d[A-Z]\d/.test(compact)) return `${compact.slice(0, 3)} ${compact.slice(3, 6)}`;
  return v.replace(/\s+/g, ' ');
}

function clean(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = v.replace(/\s+/g, ' ').trim();
  if (!t || /^(NONE|UNAVL|UNAVAILABLE|N\/A)$/i.test(t)) return undefined;
  return t;
}

/** Maps a parsed record to the reader's fields. */
export function aamvaFields(rec: AamvaRecord): AamvaFields {
  const el = rec.elements;
  let lastName = clean(el['DCS']) ?? clean(el['DAB']);
  let firstName = clean(el['DAC']);
  let middleName = clean(el['DAD']);
  const given = clean(el['DCT']);
  if (given && !firstName) {
    // Versions 2 and 3: DCT holds the given names, separated by a comma (sometimes a space).
    const parts = given.split(/,|\s+/).filter(Boolean);
    firstName = parts[0];
    middleName = middleName ?? (parts.slice(1).join(' ') || undefined);
  }
  const full = clean(el['DAA']);
  if (full && (!firstName || !lastName)) {
    // Version 1: DAA "LAST,FIRST,MIDDLE" (some write "FIRST MIDDLE LAST" without commas).
    if (full.includes(',')) {
      const parts = full.split(',').map((s) => s.trim());
      lastName = lastName ?? (parts[0] || undefined);
      firstName = firstName ?? (parts[1] || undefined);
      middleName = middleName ?? (parts.slice(2).join(' ') || undefined);
    } else {
      const parts = full.split(' ');
      firstName = firstName ?? parts[0];
      lastName = lastName ?? (parts.length > 1 ? parts[parts.length - 1] : undefined);
    }
  }
  const subfileType = rec.subfiles.find((s) => s.type === 'DL' || s.type === 'ID')?.type;
  return {
    firstName,
    middleName,
    lastName,
    dateOfBirth: parseAamvaDate(el['DBB'], rec.dateFormat),
    expiryDate: parseAamvaDate(el['DBA'], rec.dateFormat),
    issueDate: parseAamvaDate(el['DBD'], rec.dateFormat),
    addressLine1: clean(el['DAG']),
    addressLine2: clean(el['DAH']),
    city: clean(el['DAI']),
    region: clean(el['DAJ'])?.toUpperCase(),
    postalCode: normalisePostalCode(el['DAK'], rec.country),
    country: rec.country,
    documentNumber: clean(el['DAQ']),
    subfileType,
  };
}
