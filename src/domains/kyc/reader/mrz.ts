/**
 * Machine-readable zone (ICAO 9303) reading: OCR (see ocr.ts), then parsing and check-digit verification
 * with the `mrz` package.
 */
import { parse as parseMrz } from 'mrz';
import { toAlpha2 } from './countries.ts';
import { isoDate } from './dates.ts';
import { cropGray, estimateSkew, type GrayImage, rotateGray, rotateGray180 } from './image.ts';
import { normaliseWidth, recognize } from './ocr.ts';

export interface MrzData {
  format: 'TD1' | 'TD2' | 'TD3';
  lines: string[];
  documentCode: string;
  lastName?: string;
  givenNames?: string;
  documentNumber?: string;
  /** ISO alpha-2 where known. */
  issuingCountry?: string;
  nationality?: string;
  /** YYYY-MM-DD */
  dateOfBirth?: string;
  /** YYYY-MM-DD */
  expiryDate?: string;
  sex?: string;
}

export type MrzOutcome =
  | { status: 'ok'; data: MrzData }
  | { status: 'invalid'; lines: string[]; failed: string[] }
  | { status: 'missing' };

const CHECKED_FIELDS = new Set([
  'documentNumber',
  'documentNumberCheckDigit',
  'birthDate',
  'birthDateCheckDigit',
  'expirationDate',
  'expirationDateCheckDigit',
  'compositeCheckDigit',
  'personalNumberCheckDigit',
  'lastName',
  'documentCode',
]);

const FORMATS = [
  { format: 'TD3' as const, lines: 2, length: 44 },
  { format: 'TD2' as const, lines: 2, length: 36 },
  { format: 'TD1' as const, lines: 3, length: 30 },
];

/** Keeps the OCR lines that look like MRZ lines. */
export function candidateLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/[^A-Z0-9<]/g, ''))
    .filter((l) => l.length >= 26);
}

function fitLength(line: string, length: number): string {
  if (line.length === length) return line;
  if (line.length < length) return line + '<'.repeat(length - line.length);
  // Too long: OCR doubled a filler; drop '<' from the longest run of fillers at the end.
  const trimmed = line.replace(/<+$/, (run) =>
    run.slice(0, Math.max(0, run.length - (line.length - length))),
  );
  return trimmed.length === length ? trimmed : trimmed.slice(0, length);
}

function yymmdd(value: string | null | undefined, kind: 'birth' | 'expiry', now: Date): string | undefined {
  if (!value || !/^\d{6}$/.test(value)) return undefined;
  const yy = Number(value.slice(0, 2));
  const mm = Number(value.slice(2, 4));
  const dd = Number(value.slice(4, 6));
  const thisYear = now.getUTCFullYear();
  let year = 2000 + yy;
  if (kind === 'birth' && year > thisYear) year -= 100;
  if (kind === 'expiry' && year > thisYear + 50) year -= 100;
  return isoDate(year, mm, dd);
}

/** Parses and verifies MRZ lines (already split). */
export function interpretMrzLines(rawLines: string[], now: Date): MrzOutcome {
  let best: MrzOutcome = { status: 'missing' };
  for (const f of FORMATS) {
    for (let i = 0; i + f.lines <= rawLines.length; i++) {
      const group = rawLines.slice(i, i + f.lines);
      if (!group.every((l) => Math.abs(l.length - f.length) <= 3)) continue;
      const lines = group.map((l) => fitLength(l, f.length));
      let result: ReturnType<typeof parseMrz>;
      try {
        result = parseMrz(lines, { autocorrect: true });
      } catch {
        continue;
      }
      const failed = result.details
        .filter((d) => !d.valid && d.field !== null && CHECKED_FIELDS.has(d.field))
        .map((d) => d.field!);
      if (failed.length > 0) {
        if (best.status === 'missing') best = { status: 'invalid', lines, failed };
        continue;
      }
      const fields = result.fields;
      const correctedLines = lines.map((l, li) => {
        const chars = l.split('');
        for (const d of result.details) {
          for (const ac of d.autocorrect) if (ac.line === li) chars[ac.column] = ac.corrected;
        }
        return chars.join('');
      });
      return {
        status: 'ok',
        data: {
          format: f.format,
          lines: correctedLines,
          documentCode: fields.documentCode ?? '',
          lastName: fields.lastName ?? undefined,
          givenNames: fields.firstName ?? undefined,
          documentNumber: result.documentNumber ?? fields.documentNumber ?? undefined,
          issuingCountry: countryFromLine(correctedLines[0]!, 2),
          nationality: fields.nationality
            ? toAlpha2(fields.nationality)
            : nationalityFromLines(f.format, correctedLines),
          dateOfBirth: yymmdd(fields.birthDate, 'birth', now),
          expiryDate: yymmdd(fields.expirationDate, 'expiry', now),
          sex: fields.sex ?? undefined,
        },
      };
    }
  }
  return best;
}

function countryFromLine(line: string, at: number): string | undefined {
  const code = line.slice(at, at + 3).replace(/<+$/, '');
  return code ? toAlpha2(code) : undefined;
}

function nationalityFromLines(format: MrzData['format'], lines: string[]): string | undefined {
  if (format === 'TD1') return countryFromLine(lines[1]!, 15);
  return countryFromLine(lines[1]!, 10);
}

/**
 * Looks for an MRZ: first in the bottom part of the image (where passports and ID cards print it),
 * then in the whole image, then upside down.
 */
export async function readMrz(input: GrayImage, now: Date): Promise<MrzOutcome> {
  const skew = estimateSkew(input);
  const gray = Math.abs(skew) >= 0.75 ? rotateGray(input, -skew) : input;
  const attempts: (() => GrayImage)[] = [
    () => cropGray(gray, 0, gray.height * 0.55, gray.width, gray.height * 0.45),
    () => gray,
    () => rotateGray180(gray),
  ];
  let best: MrzOutcome = { status: 'missing' };
  for (const attempt of attempts) {
    const region = normaliseWidth(attempt());
    const text = await recognize(region, 'mrz');
    const outcome = interpretMrzLines(candidateLines(text), now);
    if (outcome.status === 'ok') return outcome;
    if (outcome.status === 'invalid' && best.status === 'missing') best = outcome;
  }
  return best;
}
