import { describe, expect, it } from 'vitest';
import { parseFrontText, parsePrintedDate } from '../../../src/domains/kyc/reader/index.ts';

const NOW = new Date('2026-03-01T00:00:00Z');

describe('front text parsing', () => {
  it('reads printed dates by country', () => {
    expect(parsePrintedDate('01/15/1990', 'US')).toBe('1990-01-15');
    expect(parsePrintedDate('15.01.1990', 'GB')).toBe('1990-01-15');
    expect(parsePrintedDate('1990/01/15', 'CA')).toBe('1990-01-15');
    expect(parsePrintedDate('13/15/1990', 'US')).toBeUndefined();
  });

  it('reads AAMVA-labelled rows, by letters or by field numbers', () => {
    const text = ['4d DLN 123-456-789', '1 DOE', '2 JANE ANN', '3 DOB 07/04/1999', '4b EXP 07/04/2029'].join(
      '\n',
    );
    expect(parseFrontText(text, 'US', NOW)).toEqual({
      documentNumber: '123-456-789',
      lastName: 'DOE',
      firstName: 'JANE',
      dateOfBirth: '1999-07-04',
      expiryDate: '2029-07-04',
    });
  });

  it('ignores impossible birth dates and unlabelled text', () => {
    expect(parseFrontText('DOB 01/01/2030\nHELLO WORLD', 'US', NOW)).toEqual({});
  });
});
