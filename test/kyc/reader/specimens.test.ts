import { describe, expect, it } from 'vitest';
import { isSpecimen } from '../../../src/domains/kyc/reader/index.ts';
import {
  SAMPLE_CA_LICENCE,
  SAMPLE_PASSPORT,
  SAMPLE_US_LICENCE,
} from '../../../src/domains/kyc/testdocs/index.ts';

describe('isSpecimen', () => {
  it('recognises every document of the sandbox sample set, with or without the birth date read', () => {
    for (const sample of [SAMPLE_US_LICENCE, SAMPLE_CA_LICENCE, SAMPLE_PASSPORT]) {
      expect(isSpecimen({ document_number: sample.documentNumber })).toBe(true);
      expect(isSpecimen({ document_number: sample.documentNumber, date_of_birth: sample.dateOfBirth })).toBe(
        true,
      );
    }
  });

  it("recognises ICAO's specimen state, and nothing else", () => {
    expect(isSpecimen({ issuing_country: 'UTO', document_number: 'L898902C3' })).toBe(true);
    expect(isSpecimen({ issuing_country: 'DE' }, 'UTO')).toBe(true);
    // The sample number with another holder's birth date is someone's real document.
    expect(isSpecimen({ document_number: 'D1234567', date_of_birth: '1971-02-03' })).toBe(false);
    expect(isSpecimen({ document_number: 'D2040608', date_of_birth: '1990-01-15' })).toBe(false);
    expect(isSpecimen({})).toBe(false);
  });
});
