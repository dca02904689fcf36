/**
 * Documents that describe nobody: the sandbox sample set (`testdocs/`, published at
 * /sandbox/test-documents) and ICAO's specimen state. The reader flags them (`details.specimen`);
 * a live verification refuses them, a sandbox one accepts them.
 */
import type { Extracted } from './types.ts';

/** The sample set's documents by number, with the birth date printed on each. */
const SAMPLE_DOCUMENTS = new Map([
  ['D1234567', '1990-01-15'],
  ['T1234-56789-51103', '1985-11-03'],
  ['X12345678', '1990-01-15'],
]);

/** ICAO Doc 9303 writes its specimen passports for the fictional state of Utopia. */
const SPECIMEN_STATE = 'UTO';

/**
 * True when what was read is one of the sample documents (its number, and its birth date when one
 * was read: a front's OCR may miss it) or a document of ICAO's specimen state.
 */
export function isSpecimen(read: Partial<Extracted>, nationality?: string): boolean {
  if (read.issuing_country === SPECIMEN_STATE || nationality === SPECIMEN_STATE) return true;
  const birthDate = read.document_number ? SAMPLE_DOCUMENTS.get(read.document_number) : undefined;
  if (birthDate === undefined) return false;
  return read.date_of_birth === undefined || read.date_of_birth === birthDate;
}
