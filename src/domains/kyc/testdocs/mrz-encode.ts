/** Builds ICAO 9303 TD3 (passport) machine-readable zones with correct check digits. */

export interface PassportFields {
  surname: string;
  givenNames: string;
  documentNumber: string;
  /** ICAO alpha-3, e.g. 'USA', 'GBR', 'CAN', 'D' for Germany. */
  issuingState: string;
  nationality: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  /** YYYY-MM-DD */
  expiryDate: string;
  sex: 'M' | 'F' | 'X';
  personalNumber?: string;
}

export function mrzCheckDigit(s: string): string {
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    let v = 0;
    if (ch >= '0' && ch <= '9') v = ch.charCodeAt(0) - 48;
    else if (ch >= 'A' && ch <= 'Z') v = ch.charCodeAt(0) - 55;
    sum += v * weights[i % 3]!;
  }
  return String(sum % 10);
}

/** Upper-cases, transliterates a few accents and replaces everything else by the filler. */
export function mrzText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '<');
}

function field(s: string, length: number): string {
  return mrzText(s).slice(0, length).padEnd(length, '<');
}

function yymmdd(iso: string): string {
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
}

export function buildTd3(p: PassportFields): [string, string] {
  const names = `${mrzText(p.surname)}<<${mrzText(p.givenNames)}`;
  const line1 = `P<${field(p.issuingState, 3)}${names.slice(0, 39).padEnd(39, '<')}`;
  const doc = field(p.documentNumber, 9);
  const dob = yymmdd(p.dateOfBirth);
  const exp = yymmdd(p.expiryDate);
  const personal = field(p.personalNumber ?? '', 14);
  const personalCd = /^<+$/.test(personal) ? '<' : mrzCheckDigit(personal);
  const docPart = doc + mrzCheckDigit(doc);
  const dobPart = dob + mrzCheckDigit(dob);
  const expPart = exp + mrzCheckDigit(exp);
  const composite = mrzCheckDigit(docPart + dobPart + expPart + personal + personalCd);
  const sex = p.sex === 'X' ? '<' : p.sex;
  const line2 = `${docPart}${field(p.nationality, 3)}${dobPart}${sex}${expPart}${personal}${personalCd}${composite}`;
  return [line1, line2];
}
