import { describe, expect, it } from 'vitest';
import {
  AamvaParseError,
  aamvaFields,
  normalisePostalCode,
  parseAamva,
  parseAamvaDate,
} from '../../../src/domains/kyc/reader/index.ts';
import { buildAamvaPayload, SAMPLE_US_LICENCE } from '../../../src/domains/kyc/testdocs/index.ts';

const HDR = '@\n\x1e\rANSI ';

describe('parseAamva', () => {
  it('parses a version 10 US payload with MMDDCCYY dates and a padded 9-digit ZIP', () => {
    const text =
      `${HDR}636000100102DL00410278ZV03190008DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\n` +
      'DDGN\nDCUJR\nDCAD\nDCBK\nDCDPH\nDBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\nDAYBRO\n' +
      'DAG2300 WEST BROAD STREET\nDAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\n' +
      'DCK123456789\nDDAF\nDDB06062018\nDDC06062020\nDDD1\rZVZVA01\r';
    const rec = parseAamva(text);
    expect(rec.iin).toBe('636000');
    expect(rec.version).toBe(10);
    expect(rec.jurisdictionVersion).toBe(1);
    expect(rec.country).toBe('US');
    expect(rec.dateFormat).toBe('MMDDCCYY');
    expect(rec.subfiles.map((s) => s.type)).toEqual(['DL', 'ZV']);
    expect(rec.subfiles[1]!.elements['ZVA']).toBe('01');
    const f = aamvaFields(rec);
    expect(f).toMatchObject({
      firstName: 'MICHAEL',
      middleName: 'JOHN',
      lastName: 'SAMPLE',
      dateOfBirth: '1986-06-06',
      expiryDate: '2024-12-10',
      issueDate: '2019-06-06',
      addressLine1: '2300 WEST BROAD STREET',
      city: 'RICHMOND',
      region: 'VA',
      postalCode: '23269',
      country: 'US',
      documentNumber: 'T64235789',
      subfileType: 'DL',
    });
  });

  it('parses a Canadian payload: CCYYMMDD dates, country from DCG, postal code formatted', () => {
    const body =
      'DLDAQA1234-56789-01234\nDCSTREMBLAY\nDACMARIE\nDADNONE\nDBA20301231\nDBB19800229\n' +
      'DAG1 RUE SAINTE-CATHERINE\nDAIMONTREAL\nDAJQC\nDAKH3B1A7    \nDCGCAN\r';
    const text = `${HDR}604428080001DL0031${String(body.length).padStart(4, '0')}${body}`;
    const rec = parseAamva(text);
    expect(rec.country).toBe('CA');
    expect(rec.dateFormat).toBe('CCYYMMDD');
    const f = aamvaFields(rec);
    expect(f.dateOfBirth).toBe('1980-02-29');
    expect(f.expiryDate).toBe('2030-12-31');
    expect(f.middleName).toBeUndefined();
    expect(f.postalCode).toBe('H3B 1A7');
    expect(f.region).toBe('QC');
  });

  it('detects Canada from the IIN or the province when DCG is absent (version 1)', () => {
    const text = buildAamvaPayload({
      ...SAMPLE_US_LICENCE,
      region: 'BC',
      postalCode: 'V6B 4Y8',
      country: 'CA',
      aamvaVersion: 1,
    });
    expect(text).not.toContain('DCG');
    const rec = parseAamva(text);
    expect(rec.iin).toBe('636028');
    expect(rec.version).toBe(1);
    expect(rec.jurisdictionVersion).toBeUndefined();
    expect(rec.country).toBe('CA');
    expect(aamvaFields(rec).postalCode).toBe('V6B 4Y8');
  });

  it('parses version 1 (DAA full name "LAST,FIRST,MIDDLE", CCYYMMDD dates)', () => {
    const text = buildAamvaPayload({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 1 });
    expect(text).toContain('DAASAMPLE,JORDAN,LEE\n');
    expect(text).toContain('DBB19900115\n');
    const f = aamvaFields(parseAamva(text));
    expect(f).toMatchObject({
      firstName: 'JORDAN',
      middleName: 'LEE',
      lastName: 'SAMPLE',
      dateOfBirth: '1990-01-15',
    });
    expect(f.expiryDate).toBe('2034-08-31');
    expect(f.postalCode).toBe('95823');
  });

  it('parses versions 2 and 3 (DCT given names "FIRST,MIDDLE")', () => {
    for (const v of [2, 3]) {
      const text = buildAamvaPayload({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: v });
      expect(text).toContain('DCTJORDAN,LEE\n');
      const rec = parseAamva(text);
      expect(rec.version).toBe(v);
      const f = aamvaFields(rec);
      expect(f).toMatchObject({ firstName: 'JORDAN', middleName: 'LEE', lastName: 'SAMPLE' });
      expect(f.dateOfBirth).toBe('1990-01-15');
    }
  });

  it('round-trips every version 1-10 for both countries', () => {
    for (const country of ['US', 'CA'] as const) {
      for (let v = 1; v <= 10; v++) {
        const f = aamvaFields(
          parseAamva(buildAamvaPayload({ ...SAMPLE_US_LICENCE, country, aamvaVersion: v })),
        );
        expect(f.dateOfBirth, `${country} v${v}`).toBe('1990-01-15');
        expect(f.expiryDate, `${country} v${v}`).toBe('2034-08-31');
        expect(f.documentNumber).toBe('D1234567');
        expect(f.lastName).toBe('SAMPLE');
      }
    }
  });

  it('tolerates a non-standard separator in the compliance indicator (FS instead of RS)', () => {
    const good = buildAamvaPayload({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 5 });
    const odd = good.replace('@\n\x1e\r', '@\n\x1c\r');
    expect(odd).not.toBe(good);
    expect(parseAamva(odd).version).toBe(5);
  });

  it('finds the subfile even when the designator offset is wrong', () => {
    const good = buildAamvaPayload({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 8 });
    const broken = good.replace(/DL(\d{4})(\d{4})DL/, 'DL0007$2DL');
    expect(broken).not.toBe(good);
    expect(aamvaFields(parseAamva(broken)).lastName).toBe('SAMPLE');
  });

  it('rejects text that is not an AAMVA payload', () => {
    expect(() => parseAamva('hello world')).toThrow(AamvaParseError);
    expect(() => parseAamva(`${HDR}63600010`)).toThrow(AamvaParseError);
    expect(() => parseAamva(`${HDR}6360001001` + '01ZV00310008ZVZVA01\r')).toThrow(AamvaParseError);
  });
});

describe('AAMVA field helpers', () => {
  it('parses dates in the preferred order, falling back when impossible', () => {
    expect(parseAamvaDate('01151990', 'MMDDCCYY')).toBe('1990-01-15');
    expect(parseAamvaDate('19900115', 'CCYYMMDD')).toBe('1990-01-15');
    expect(parseAamvaDate('19900115', 'MMDDCCYY')).toBe('1990-01-15');
    expect(parseAamvaDate('01151990', 'CCYYMMDD')).toBe('1990-01-15');
    expect(parseAamvaDate('02301990', 'MMDDCCYY')).toBeUndefined();
    expect(parseAamvaDate('', 'MMDDCCYY')).toBeUndefined();
  });

  it('normalises postal codes', () => {
    expect(normalisePostalCode('123450000', 'US')).toBe('12345');
    expect(normalisePostalCode('123450000  ', 'US')).toBe('12345');
    expect(normalisePostalCode('12345    ', 'US')).toBe('12345');
    expect(normalisePostalCode('123456789', 'US')).toBe('12345-6789');
    expect(normalisePostalCode('k1a0b1', 'CA')).toBe('K1A 0B1');
    expect(normalisePostalCode('   ', 'US')).toBeUndefined();
  });
});
