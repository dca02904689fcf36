import { describe, expect, it } from 'vitest';
import { interpretMrzLines } from '../../../src/domains/kyc/reader/index.ts';
import { buildTd3, mrzCheckDigit, SAMPLE_PASSPORT } from '../../../src/domains/kyc/testdocs/index.ts';

const NOW = new Date('2026-03-01T00:00:00Z');

describe('MRZ interpretation', () => {
  it('builds the ICAO 9303 specimen TD3 with the right check digits', () => {
    const lines = buildTd3({
      surname: 'Eriksson',
      givenNames: 'Anna Maria',
      documentNumber: 'L898902C3',
      issuingState: 'UTO',
      nationality: 'UTO',
      dateOfBirth: '1974-08-12',
      expiryDate: '2012-04-15',
      sex: 'F',
      personalNumber: 'ZE184226B',
    });
    expect(lines).toEqual([
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
    ]);
    expect(mrzCheckDigit('520727')).toBe('3');
  });

  it('reads a TD3 and maps names, dates, number and countries', () => {
    const out = interpretMrzLines(buildTd3(SAMPLE_PASSPORT), NOW);
    expect(out.status).toBe('ok');
    if (out.status !== 'ok') return;
    expect(out.data).toMatchObject({
      format: 'TD3',
      lastName: 'SAMPLE',
      givenNames: 'JORDAN LEE',
      documentNumber: 'X12345678',
      issuingCountry: 'US',
      nationality: 'US',
      dateOfBirth: '1990-01-15',
      expiryDate: '2034-05-20',
    });
  });

  it('repairs OCR letter/digit confusions in typed fields and tolerates a lost filler', () => {
    const [l1, l2] = buildTd3({ ...SAMPLE_PASSPORT, issuingState: 'GBR', nationality: 'GBR' });
    const ocrd1 = l1.replace('GBR', 'G8R').slice(0, 43);
    const out = interpretMrzLines([ocrd1, l2], NOW);
    expect(out.status).toBe('ok');
    if (out.status === 'ok') expect(out.data.issuingCountry).toBe('GB');
  });

  it('reports a wrong check digit as invalid, not as missing', () => {
    const [l1, l2] = buildTd3(SAMPLE_PASSPORT);
    const bad = l2.slice(0, 9) + String((Number(l2[9]) + 1) % 10) + l2.slice(10);
    const out = interpretMrzLines([l1, bad], NOW);
    expect(out.status).toBe('invalid');
    if (out.status === 'invalid') expect(out.failed).toContain('documentNumberCheckDigit');
  });

  it('reads a TD1 ID card MRZ (ICAO specimen) and resolves two-digit years', () => {
    const out = interpretMrzLines(
      ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'],
      NOW,
    );
    // UTO is ICAO's fictional state; the parser does not know it, the check digits still hold.
    expect(out.status).toBe('ok');
    if (out.status === 'ok') {
      expect(out.data.format).toBe('TD1');
      expect(out.data.documentNumber).toBe('D23145890');
      expect(out.data.dateOfBirth).toBe('1974-08-12');
      expect(out.data.expiryDate).toBe('2012-04-15');
      expect(out.data.lastName).toBe('ERIKSSON');
    }
  });

  it('finds nothing in text without MRZ lines', () => {
    expect(interpretMrzLines(['HELLO', 'WORLD'], NOW).status).toBe('missing');
  });
});
