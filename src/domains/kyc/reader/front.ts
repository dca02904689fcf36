/**
 * Best-effort reading of the printed front of a driver licence or ID card: OCR of the whole card, then the
 * labelled fields most North American cards print (AAMVA field labels: "LN"/"1" family name, "FN"/"2" given
 * names, "DOB"/"3" date of birth, "DL"/"4d" number, "EXP"/"4b" expiry). The back's barcode is authoritative;
 * these values only prefill what the user confirms.
 */
import { isoDate } from './dates.ts';
import { estimateSkew, type GrayImage, rotateGray } from './image.ts';
import { normaliseWidth, recognizeWords, wordsToRows } from './ocr.ts';

export interface FrontFields {
  firstName?: string;
  lastName?: string;
  /** YYYY-MM-DD */
  dateOfBirth?: string;
  /** YYYY-MM-DD */
  expiryDate?: string;
  documentNumber?: string;
}

const DATE_RE = /(\d{1,4})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{2,4})/;

/** Parses a printed date: YYYY/MM/DD, or MM/DD/YYYY in the US and DD/MM/YYYY elsewhere. */
export function parsePrintedDate(text: string, country: string): string | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const [a, b, c] = [m[1]!, m[2]!, m[3]!];
  if (a.length === 4) return isoDate(Number(a), Number(b), Number(c));
  if (c.length !== 4) return undefined;
  const us = country === 'US';
  return us ? isoDate(Number(c), Number(a), Number(b)) : isoDate(Number(c), Number(b), Number(a));
}

function nameValue(raw: string): string | undefined {
  const v = raw
    .replace(/[^A-Za-z' -]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
  return v.length >= 2 && v.length <= 40 ? v : undefined;
}

const LABELS: { key: keyof FrontFields; re: RegExp }[] = [
  { key: 'lastName', re: /^(?:LN|1)\s*[:.]?\s+(.+)$/ },
  { key: 'firstName', re: /^(?:FN|2)\s*[:.]?\s+(.+)$/ },
  { key: 'dateOfBirth', re: /(?:^|\s)(?:DOB|3)\s*[:.]?\s+(.+)$/ },
  { key: 'expiryDate', re: /(?:^|\s)(?:EXP|4b)\s*[:.]?\s+(.+)$/ },
  {
    key: 'documentNumber',
    re: /^(?:4d(?:\s+(?:DLN|DL|LIC|NO))?|DLN|DL|ID|LIC|NO)\s*[:.#]?\s+([A-Z0-9][A-Z0-9-]{3,19})\b/,
  },
];

/** Interprets OCR'd lines of a card front. */
export function parseFrontText(text: string, country: string, now: Date): FrontFields {
  const out: FrontFields = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+/g, ' ').trim();
    if (!line) continue;
    for (const { key, re } of LABELS) {
      if (out[key] !== undefined) continue;
      const m = re.exec(line);
      if (!m) continue;
      const value = m[1]!;
      if (key === 'lastName') out.lastName = nameValue(value);
      else if (key === 'firstName') out.firstName = nameValue(value)?.split(' ')[0];
      else if (key === 'documentNumber') out.documentNumber = value.toUpperCase();
      else {
        const d = parsePrintedDate(value, country);
        if (!d) continue;
        if (key === 'dateOfBirth') {
          const year = Number(d.slice(0, 4));
          if (d >= now.toISOString().slice(0, 10) || now.getUTCFullYear() - year > 120) continue;
        }
        out[key] = d;
      }
    }
  }
  for (const k of Object.keys(out) as (keyof FrontFields)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/** OCRs a card front (straightened when tilted) and returns what it could read. */
export async function readFront(gray: GrayImage, country: string, now: Date): Promise<FrontFields> {
  const skew = estimateSkew(gray);
  const upright = Math.abs(skew) >= 0.75 ? rotateGray(gray, -skew) : gray;
  const words = await recognizeWords(normaliseWidth(upright), 'text');
  return parseFrontText(wordsToRows(words).join('\n'), country, now);
}
