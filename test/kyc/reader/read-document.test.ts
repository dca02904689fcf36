import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jpegOrientation } from '../../../src/domains/kyc/reader/image.ts';
import {
  closeReader,
  READER_MESSAGES,
  type ReadDocumentInput,
  type ReadResult,
  readDocument,
} from '../../../src/domains/kyc/reader/index.ts';
import {
  blurImage,
  darkenImage,
  generateLicenceBack,
  generateLicenceFront,
  generatePassportPage,
  phoneRotated,
  photograph,
  SAMPLE_CA_LICENCE,
  SAMPLE_PASSPORT,
  SAMPLE_US_LICENCE,
  shrinkImage,
  writeSampleSet,
} from '../../../src/domains/kyc/testdocs/index.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

function read(over: Partial<ReadDocumentInput> & Pick<ReadDocumentInput, 'image'>): Promise<ReadResult> {
  return readDocument({
    side: 'back',
    mimeType: 'image/png',
    documentType: 'drivers_license',
    issuingCountry: 'US',
    now: NOW,
    ...over,
  });
}

afterAll(async () => {
  await closeReader();
});

describe('readDocument: licence backs (PDF417 + AAMVA)', () => {
  it('reads a US licence back (AAMVA v10): barcode decoded, fields extracted', async () => {
    const image = await generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 10 });
    const r = await read({ image });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.extracted).toEqual({
      document_type: 'drivers_license',
      issuing_country: 'US',
      first_name: 'JORDAN',
      last_name: 'SAMPLE',
      date_of_birth: '1990-01-15',
      address_line1: '123 MAIN ST',
      address_city: 'SACRAMENTO',
      address_region: 'CA',
      address_postal_code: '95823',
      address_country: 'US',
      document_number: 'D1234567',
    });
    expect(r.extracted).not.toHaveProperty('national_id_number');
    expect(r.expired).toBe(false);
    expect(r.underage).toBe(false);
    expect(r.holderDateOfBirth).toBe('1990-01-15');
    expect(r.details).toMatchObject({ source: 'barcode', aamva_version: 10, expiry_date: '2034-08-31' });
    expect(r.warnings).toEqual([]);
  });

  it('reads a JPEG US state ID back with an older AAMVA version (v3)', async () => {
    const image = await generateLicenceBack({
      ...SAMPLE_US_LICENCE,
      country: 'US',
      aamvaVersion: 3,
      documentType: 'state_id',
      format: 'jpeg',
    });
    expect(image.subarray(0, 2).toString('hex')).toBe('ffd8');
    const r = await read({ image, mimeType: 'image/jpeg', documentType: 'state_id' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.details.aamva_version).toBe(3);
    expect(r.extracted).toMatchObject({
      first_name: 'JORDAN',
      last_name: 'SAMPLE',
      document_type: 'state_id',
    });
    expect(r.extracted.date_of_birth).toBe('1990-01-15');
  });

  it('reads a Canadian licence back (CCYYMMDD dates, Canadian postal code)', async () => {
    const image = await generateLicenceBack({ ...SAMPLE_CA_LICENCE, country: 'CA', aamvaVersion: 8 });
    const r = await read({ image, issuingCountry: 'CA' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.extracted).toMatchObject({
      first_name: 'ALEX',
      last_name: 'TREMBLAY',
      date_of_birth: '1985-11-03',
      address_city: 'TORONTO',
      address_region: 'ON',
      address_postal_code: 'M5H 2N2',
      address_country: 'CA',
      issuing_country: 'CA',
      document_number: 'T1234-56789-51103',
    });
    expect(r.details.expiry_date).toBe('2033-11-03');
  });

  it('refuses an expired licence with document_expired', async () => {
    const image = await generateLicenceBack({
      ...SAMPLE_US_LICENCE,
      country: 'US',
      aamvaVersion: 9,
      issueDate: '2017-02-27',
      expiryDate: '2026-02-28',
    });
    const r = await read({ image });
    expect(r).toMatchObject({ ok: false, code: 'document_expired', reason: READER_MESSAGES.expired });
    // Valid through its expiry day.
    const sameDay = await read({ image, now: new Date('2026-02-28T23:00:00Z') });
    expect(sameDay.ok).toBe(true);
  });

  it('flags an under-age holder (17 years and 364 days) and leaves the decision to the caller', async () => {
    const image = await generateLicenceBack({
      ...SAMPLE_US_LICENCE,
      country: 'US',
      aamvaVersion: 10,
      dateOfBirth: '2008-03-02',
    });
    const r = await read({ image });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.underage).toBe(true);
    expect(r.holderDateOfBirth).toBe('2008-03-02');
    const birthday = await read({ image, now: new Date('2026-03-02T00:00:00Z') });
    expect(birthday.ok && birthday.underage).toBe(false);
  });

  it('straightens and reads a tilted JPEG photo of a back', async () => {
    const back = await generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 6 });
    const image = await photograph(back, { degrees: 8, scale: 0.8 });
    const r = await read({ image, mimeType: 'image/jpeg' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.extracted).toMatchObject({ last_name: 'SAMPLE', document_number: 'D1234567' });
  });

  it('blames blur when a blurry back cannot be read', async () => {
    const back = await generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 10 });
    const r = await read({ image: blurImage(back, 3) });
    expect(r).toMatchObject({
      ok: false,
      code: 'document_unreadable',
      reason: READER_MESSAGES.barcodeMissing,
    });
    expect(r.warnings).toContain(READER_MESSAGES.blurry);
  });

  it('says the barcode is missing when a US back has none', async () => {
    const image = generateLicenceFront({ ...SAMPLE_US_LICENCE });
    const r = await read({ image });
    expect(r).toMatchObject({
      ok: false,
      code: 'document_unreadable',
      reason: READER_MESSAGES.barcodeMissing,
    });
  });
});

describe('readDocument: passports (MRZ OCR)', () => {
  it('OCRs the MRZ of a passport page and verifies its check digits', async () => {
    const r = await read({
      image: generatePassportPage(SAMPLE_PASSPORT),
      side: 'front',
      documentType: 'passport',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.extracted).toEqual({
      document_type: 'passport',
      issuing_country: 'US',
      first_name: 'JORDAN LEE',
      last_name: 'SAMPLE',
      date_of_birth: '1990-01-15',
      document_number: 'X12345678',
    });
    expect(r.details).toMatchObject({
      source: 'mrz',
      mrz_format: 'TD3',
      nationality: 'US',
      expiry_date: '2034-05-20',
    });
  });

  it('reads the MRZ of a tilted, smaller JPEG photo of a passport page', async () => {
    const image = await photograph(generatePassportPage(SAMPLE_PASSPORT), { degrees: -4, scale: 0.7 });
    const r = await read({ image, mimeType: 'image/jpeg', side: 'front', documentType: 'passport' });
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.extracted).toMatchObject({ document_number: 'X12345678', date_of_birth: '1990-01-15' });
  });

  it('honours the EXIF orientation of a portrait phone photo', async () => {
    const image = phoneRotated(generatePassportPage(SAMPLE_PASSPORT));
    expect(jpegOrientation(image)).toBe(6);
    const r = await read({ image, mimeType: 'image/jpeg', side: 'front', documentType: 'passport' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.extracted.document_number).toBe('X12345678');
  });

  it('refuses a passport whose MRZ check digit is wrong', async () => {
    const image = generatePassportPage({ ...SAMPLE_PASSPORT, corruptCheckDigit: true });
    const r = await read({ image, side: 'front', documentType: 'passport' });
    expect(r).toMatchObject({ ok: false, code: 'document_unreadable', reason: READER_MESSAGES.mrzInvalid });
  });
});

describe('readDocument: image quality and bad input', () => {
  const front = generateLicenceFront({ ...SAMPLE_US_LICENCE });

  it('reads the printed front of a US licence (labelled fields) without warnings', async () => {
    const r = await read({ image: front, side: 'front' });
    expect(r).toMatchObject({ ok: true, warnings: [] });
    if (!r.ok) return;
    expect(r.extracted).toEqual({
      document_type: 'drivers_license',
      issuing_country: 'US',
      first_name: 'JORDAN',
      last_name: 'SAMPLE',
      date_of_birth: '1990-01-15',
      document_number: 'D1234567',
    });
    expect(r.details).toMatchObject({ source: 'front_text', expiry_date: '2034-08-31' });
    expect(r.underage).toBe(false);
  });

  it('reads a Canadian front (YYYY/MM/DD dates)', async () => {
    const image = generateLicenceFront({ ...SAMPLE_CA_LICENCE, country: 'CA' });
    const r = await read({ image, side: 'front', issuingCountry: 'CA' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.extracted).toMatchObject({ last_name: 'TREMBLAY', date_of_birth: '1985-11-03' });
  });

  it('warns about a blurry photo', async () => {
    const r = await read({ image: blurImage(front, 6), side: 'front' });
    expect(r.ok).toBe(true);
    expect(r.warnings).toContain(READER_MESSAGES.blurry);
    expect(r.warnings).not.toContain(READER_MESSAGES.tooDark);
    if (r.ok) expect(r.details.quality.sharpness).toBeLessThan(100);
  });

  it('warns about a dark photo (and does not call it blurry)', async () => {
    const r = await read({ image: darkenImage(front, 0.15), side: 'front' });
    expect(r.warnings).toContain(READER_MESSAGES.tooDark);
    expect(r.warnings).not.toContain(READER_MESSAGES.blurry);
  });

  it('warns about a low-resolution photo', async () => {
    const r = await read({ image: shrinkImage(front, 4), side: 'front' });
    expect(r.warnings).toContain(READER_MESSAGES.lowResolution);
  });

  it('refuses garbage bytes as unreadable', async () => {
    const r = await read({ image: Buffer.from('definitely not an image, just some bytes'.repeat(20)) });
    expect(r).toMatchObject({ ok: false, code: 'document_unreadable', reason: READER_MESSAGES.undecodable });
    const truncated = await read({ image: front.subarray(0, 200) });
    expect(truncated).toMatchObject({ ok: false, code: 'document_unreadable' });
  });

  it('refuses other image types and mime types as unsupported_image', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64)]);
    expect(await read({ image: gif, mimeType: 'image/png' })).toMatchObject({
      ok: false,
      code: 'unsupported_image',
    });
    expect(await read({ image: front, mimeType: 'image/heic' })).toMatchObject({
      ok: false,
      code: 'unsupported_image',
    });
  });

  it('refuses a blank image as hopeless', async () => {
    const blank = darkenImage(front, 0);
    expect(await read({ image: blank, side: 'front' })).toMatchObject({
      ok: false,
      code: 'document_unreadable',
    });
  });
});

describe('sample set', () => {
  it('writes the documented sample files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kyc-samples-'));
    try {
      const written = await writeSampleSet(dir);
      const names = await readdir(dir);
      expect(names).toContain('README.txt');
      for (const f of written) expect(names).toContain(f.file);
      expect(written.map((f) => f.file)).toEqual(
        expect.arrayContaining([
          'us-licence-back.png',
          'ca-licence-back.png',
          'passport.png',
          'blurry-front.png',
        ]),
      );
      const png = await readFile(join(dir, 'us-licence-back.png'));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
