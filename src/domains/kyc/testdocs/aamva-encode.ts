/** Builds AAMVA DL/ID barcode payloads (versions 1–10) for synthetic test documents. */

export interface LicenceFields {
  firstName: string;
  middleName?: string;
  lastName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  /** YYYY-MM-DD */
  expiryDate: string;
  /** YYYY-MM-DD; defaults to five years before expiry. */
  issueDate?: string;
  documentNumber: string;
  addressLine1: string;
  city: string;
  /** State or province code, e.g. 'CA' (California), 'ON'. */
  region: string;
  postalCode: string;
  sex?: 'M' | 'F' | 'X';
}

export interface AamvaPayloadOptions extends LicenceFields {
  country: 'US' | 'CA';
  /** 1–10 */
  aamvaVersion: number;
  documentType?: 'drivers_license' | 'state_id';
  /** Issuer identification number; defaults from the region. */
  iin?: string;
}

const IIN_BY_REGION: Record<string, string> = {
  'US:CA': '636014',
  'US:NY': '636001',
  'US:TX': '636015',
  'US:WA': '636045',
  'US:VA': '636000',
  'CA:ON': '636012',
  'CA:BC': '636028',
  'CA:QC': '604428',
  'CA:AB': '604432',
};

function ymd(iso: string): [string, string, string] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new Error(`not a YYYY-MM-DD date: ${iso}`);
  return [m[1]!, m[2]!, m[3]!];
}

/** Writes a date the way the given version and country do: Canada and version 1 CCYYMMDD, else MMDDCCYY. */
export function aamvaDate(iso: string, country: 'US' | 'CA', version: number): string {
  const [y, m, d] = ymd(iso);
  return country === 'CA' || version <= 1 ? `${y}${m}${d}` : `${m}${d}${y}`;
}

function postal(code: string, country: 'US' | 'CA'): string {
  if (country === 'US') {
    const digits = code.replace(/[^0-9]/g, '');
    return (digits.length === 5 ? `${digits}0000` : digits).padEnd(11, ' ');
  }
  return code.replace(/\s+/g, '').toUpperCase().padEnd(11, ' ');
}

function sexCode(sex: LicenceFields['sex']): string {
  return sex === 'M' ? '1' : sex === 'F' ? '2' : '9';
}

/** The DL/ID subfile's elements, in order, for a version. */
export function aamvaElements(o: AamvaPayloadOptions): [string, string][] {
  const v = o.aamvaVersion;
  const c = o.country;
  const issue = o.issueDate ?? `${Number(o.expiryDate.slice(0, 4)) - 5}${o.expiryDate.slice(4)}`;
  const upper = (s: string) => s.toUpperCase();
  const dl = (o.documentType ?? 'drivers_license') === 'drivers_license';
  const el: [string, string][] = [];
  if (v <= 1) {
    el.push(['DAA', [o.lastName, o.firstName, o.middleName ?? ''].map(upper).join(',').replace(/,$/, '')]);
    el.push(['DAG', upper(o.addressLine1)], ['DAI', upper(o.city)], ['DAJ', upper(o.region)]);
    el.push(['DAK', postal(o.postalCode, c)], ['DAQ', o.documentNumber]);
    if (dl) el.push(['DAR', 'C'], ['DAS', 'NONE'], ['DAT', 'NONE']);
    el.push(['DBA', aamvaDate(o.expiryDate, c, v)], ['DBB', aamvaDate(o.dateOfBirth, c, v)]);
    el.push(['DBC', sexCode(o.sex)], ['DBD', aamvaDate(issue, c, v)]);
    return el;
  }
  if (dl) el.push(['DCA', 'C'], ['DCB', 'NONE'], ['DCD', 'NONE']);
  el.push(['DBA', aamvaDate(o.expiryDate, c, v)], ['DCS', upper(o.lastName)]);
  if (v <= 3) {
    el.push([
      'DCT',
      [o.firstName, o.middleName]
        .filter(Boolean)
        .map((s) => upper(s!))
        .join(','),
    ]);
  } else {
    el.push(['DAC', upper(o.firstName)], ['DAD', upper(o.middleName ?? 'NONE')]);
  }
  el.push(['DBD', aamvaDate(issue, c, v)], ['DBB', aamvaDate(o.dateOfBirth, c, v)]);
  el.push(['DBC', sexCode(o.sex)], ['DAY', 'BRO'], ['DAU', c === 'US' ? '070 IN' : '178 CM']);
  el.push(['DAG', upper(o.addressLine1)], ['DAI', upper(o.city)], ['DAJ', upper(o.region)]);
  el.push(['DAK', postal(o.postalCode, c)], ['DAQ', o.documentNumber], ['DCF', `${o.documentNumber}SYN`]);
  el.push(['DCG', c === 'US' ? 'USA' : 'CAN']);
  if (v >= 4) el.push(['DDE', 'N'], ['DDF', 'N'], ['DDG', 'N']);
  return el;
}

/** The complete barcode text: header, one subfile designator, the DL or ID subfile. */
export function buildAamvaPayload(o: AamvaPayloadOptions): string {
  const v = o.aamvaVersion;
  if (!Number.isInteger(v) || v < 1 || v > 10) throw new Error('aamvaVersion must be 1..10');
  const iin =
    o.iin ??
    IIN_BY_REGION[`${o.country}:${o.region.toUpperCase()}`] ??
    (o.country === 'CA' ? '636012' : '636000');
  const type = (o.documentType ?? 'drivers_license') === 'drivers_license' ? 'DL' : 'ID';
  const body = `${type}${aamvaElements(o)
    .map(([k, val]) => `${k}${val}`)
    .join('\n')}\r`;
  const header = `@\n\x1e\rANSI ${iin}${String(v).padStart(2, '0')}${v >= 2 ? '00' : ''}01`;
  const offset = header.length + 10;
  const designator = `${type}${String(offset).padStart(4, '0')}${String(body.length).padStart(4, '0')}`;
  return header + designator + body;
}
