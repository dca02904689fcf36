/**
 * Purser KYC document reader: a pure library (no HTTP, no database). See docs/kyc-reader.md.
 *
 * readDocument() decodes a JPEG or PNG photo of one side of an identity document, measures its quality,
 * and reads what the document encodes in machine-readable form: the AAMVA PDF417 barcode on the back of
 * US and Canadian driver licences and ID cards, or the ICAO machine-readable zone of passports and ID cards.
 */
import { type AamvaFields, AamvaParseError, type AamvaRecord, aamvaFields, parseAamva } from './aamva.ts';
import { readPdf417 } from './barcode.ts';
import { toAlpha2 } from './countries.ts';
import { ADULT_AGE, ageAt, isExpired } from './dates.ts';
import { readFront } from './front.ts';
import { checkImageHeader, DOCUMENT_LIMITS } from './header.ts';
import {
  applyOrientation,
  decodeImage,
  estimateSkew,
  ImageDecodeError,
  jpegOrientation,
  type RgbaImage,
  rotateRgba,
  sniffFormat,
  toGray,
} from './image.ts';
import { MSG } from './messages.ts';
import { type MrzData, readMrz } from './mrz.ts';
import { closeOcr } from './ocr.ts';
import { assessQuality, THRESHOLDS } from './quality.ts';
import { isSpecimen } from './specimens.ts';
import type {
  Extracted,
  ReadDocumentInput,
  ReaderDetails,
  ReadFailure,
  ReadResult,
  ReadSuccess,
} from './types.ts';

export type { AamvaFields, AamvaRecord, AamvaSubfile } from './aamva.ts';
export { AamvaParseError, aamvaFields, normalisePostalCode, parseAamva, parseAamvaDate } from './aamva.ts';
export { toAlpha2 } from './countries.ts';
export { type FrontFields, parseFrontText, parsePrintedDate } from './front.ts';
export { checkImageHeader, DOCUMENT_LIMITS } from './header.ts';
export { MSG as READER_MESSAGES } from './messages.ts';
export type { MrzData, MrzOutcome } from './mrz.ts';
export { interpretMrzLines } from './mrz.ts';
export { THRESHOLDS as QUALITY_THRESHOLDS } from './quality.ts';
export { isSpecimen } from './specimens.ts';
export type * from './types.ts';

const SUPPORTED_MIME = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png']);
const NORTH_AMERICA = new Set(['US', 'CA']);

function fail(code: ReadFailure['code'], reason: string, warnings: string[] = []): ReadFailure {
  return { ok: false, code, reason, warnings: dedupe(warnings) };
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

/** Stops the background OCR worker, if any. Call on shutdown (and in tests' afterAll). */
export async function closeReader(): Promise<void> {
  await closeOcr();
}

/**
 * What can be refused from the declared type, the length and the header alone, without decoding:
 * not a JPEG or PNG, empty, no readable size, or over the limits. Null when the image is worth
 * decoding. Cheap: the reader pool runs it on the calling thread before queueing a read.
 */
export function refuseBeforeDecoding(input: ReadDocumentInput): ReadFailure | null {
  const mime = String(input.mimeType ?? '')
    .toLowerCase()
    .split(';')[0]!
    .trim();
  if (!SUPPORTED_MIME.has(mime)) return fail('unsupported_image', MSG.unsupportedImage);
  if (!Buffer.isBuffer(input.image) || input.image.length === 0)
    return fail('document_unreadable', MSG.undecodable);
  if (sniffFormat(input.image) === 'other_image') return fail('unsupported_image', MSG.unsupportedImage);
  const verdict = checkImageHeader(input.image, input.limits ?? DOCUMENT_LIMITS);
  if (verdict.ok) return null;
  return verdict.problem === 'too_large'
    ? fail('image_too_large', MSG.tooLarge)
    : fail('document_unreadable', MSG.undecodable);
}

/** Reads one side of an identity document. Never throws for bad input; see ReadResult. */
export async function readDocument(input: ReadDocumentInput): Promise<ReadResult> {
  const refused = refuseBeforeDecoding(input);
  if (refused) return refused;

  let rgba: RgbaImage;
  try {
    rgba = applyOrientation(decodeImage(input.image), jpegOrientation(input.image));
  } catch (err) {
    if (err instanceof ImageDecodeError) return fail('document_unreadable', MSG.undecodable);
    throw err;
  }
  const gray = toGray(rgba);
  const quality = assessQuality(gray);
  if (quality.hopeless) return fail('document_unreadable', MSG.hopeless, quality.warnings);

  const issuing = toAlpha2(input.issuingCountry);
  const base: Partial<Extracted> = { document_type: input.documentType, issuing_country: issuing };
  const warnings = [...quality.warnings];
  const details: ReaderDetails = { source: 'none', quality: quality.metrics };

  // A slightly soft photo is fine until it stops us reading the barcode or MRZ; then say so.
  const softBlur = (list: string[]) =>
    quality.metrics.sharpness < THRESHOLDS.softBlurVariance ? [...list, MSG.blurry] : list;

  const wantsBarcode = input.side === 'back' && input.documentType !== 'passport';
  const wantsMrz = input.documentType === 'passport' ? input.side === 'front' : input.side === 'back';

  if (wantsBarcode) {
    let codes = await readPdf417(rgba);
    if (codes.length === 0) {
      // The decoder copes with right angles but not with a tilted photo: straighten it and retry.
      const skew = estimateSkew(gray);
      if (Math.abs(skew) >= 0.75) codes = await readPdf417(rotateRgba(rgba, -skew));
    }
    let sawBarcode = false;
    for (const code of codes) {
      sawBarcode = true;
      let rec: AamvaRecord;
      try {
        rec = parseAamva(code.text, { issuingCountry: issuing });
      } catch (err) {
        if (err instanceof AamvaParseError) continue;
        throw err;
      }
      const fields = aamvaFields(rec);
      details.source = 'barcode';
      details.aamva_version = rec.version;
      return finish(base, fromAamva(fields), fields.expiryDate, warnings, details, input, fields.country);
    }
    // No AAMVA barcode: an ID card of another country may carry an MRZ instead.
    if (NORTH_AMERICA.has(issuing)) {
      return fail(
        'document_unreadable',
        sawBarcode ? MSG.barcodeInvalid : MSG.barcodeMissing,
        softBlur(warnings),
      );
    }
  }

  if (wantsMrz) {
    const outcome = await readMrz(gray, input.now);
    if (outcome.status === 'ok') {
      details.source = 'mrz';
      details.mrz_format = outcome.data.format;
      if (outcome.data.nationality) details.nationality = outcome.data.nationality;
      return finish(base, fromMrz(outcome.data), outcome.data.expiryDate, warnings, details, input);
    }
    if (outcome.status === 'invalid') return fail('document_unreadable', MSG.mrzInvalid, softBlur(warnings));
    if (input.documentType === 'passport')
      return fail('document_unreadable', MSG.mrzMissing, softBlur(warnings));
    warnings.push(MSG.backNotRead);
  }

  if (input.side === 'front' && input.documentType !== 'passport') {
    // Best effort: the printed, labelled fields of the front prefill what the user confirms.
    const front = await readFront(gray, issuing, input.now);
    const read: Partial<Extracted> = {};
    if (front.firstName) read.first_name = front.firstName;
    if (front.lastName) read.last_name = front.lastName;
    if (front.dateOfBirth) read.date_of_birth = front.dateOfBirth;
    if (front.documentNumber) read.document_number = front.documentNumber;
    if (Object.keys(read).length === 0) warnings.push(MSG.frontNotRead);
    else details.source = 'front_text';
    // The printed expiry date is not trusted enough to refuse the document (the back's barcode is).
    if (front.expiryDate) details.expiry_date = front.expiryDate;
    return finish(base, read, undefined, warnings, details, input);
  }

  return { ok: true, warnings: dedupe(warnings), extracted: base, expired: false, underage: false, details };
}

function fromAamva(f: AamvaFields): Partial<Extracted> {
  const out: Partial<Extracted> = {};
  if (f.firstName) out.first_name = f.firstName;
  if (f.lastName) out.last_name = f.lastName;
  if (f.dateOfBirth) out.date_of_birth = f.dateOfBirth;
  if (f.addressLine1)
    out.address_line1 = f.addressLine2 ? `${f.addressLine1}, ${f.addressLine2}` : f.addressLine1;
  if (f.city) out.address_city = f.city;
  if (f.region) out.address_region = f.region;
  if (f.postalCode) out.address_postal_code = f.postalCode;
  if (f.addressLine1 || f.city || f.postalCode) out.address_country = f.country;
  if (f.documentNumber) out.document_number = f.documentNumber;
  return out;
}

function fromMrz(m: MrzData): Partial<Extracted> {
  const out: Partial<Extracted> = {};
  if (m.givenNames) out.first_name = m.givenNames;
  if (m.lastName) out.last_name = m.lastName;
  if (m.dateOfBirth) out.date_of_birth = m.dateOfBirth;
  if (m.documentNumber) out.document_number = m.documentNumber;
  if (m.issuingCountry) out.issuing_country = m.issuingCountry;
  return out;
}

function finish(
  base: Partial<Extracted>,
  read: Partial<Extracted>,
  expiryDate: string | undefined,
  warnings: string[],
  details: ReaderDetails,
  input: ReadDocumentInput,
  documentCountry?: string,
): ReadResult {
  const extracted: Partial<Extracted> = { ...base, ...read };
  if (documentCountry && documentCountry !== base.issuing_country) {
    extracted.issuing_country = documentCountry;
    warnings.push(MSG.countryMismatch);
  }
  if (read.issuing_country && read.issuing_country !== base.issuing_country)
    warnings.push(MSG.countryMismatch);
  if (expiryDate) {
    details.expiry_date = expiryDate;
    if (isExpired(expiryDate, input.now)) return fail('document_expired', MSG.expired, warnings);
  }
  if (isSpecimen(extracted, details.nationality)) details.specimen = true;
  const dob = extracted.date_of_birth;
  const result: ReadSuccess = {
    ok: true,
    warnings: dedupe(warnings),
    extracted,
    expired: false,
    underage: dob ? ageAt(dob, input.now) < ADULT_AGE : false,
    details,
  };
  if (dob) result.holderDateOfBirth = dob;
  return result;
}
