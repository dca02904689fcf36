/**
 * Synthetic identity documents for tests and for sandbox users: licence fronts, licence backs with a real
 * PDF417 barcode of AAMVA data, and passport data pages with a valid TD3 machine-readable zone.
 * Every document is visibly marked SPECIMEN and carries made-up data.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import bwipjs from 'bwip-js';
import { type AamvaPayloadOptions, buildAamvaPayload, type LicenceFields } from './aamva-encode.ts';
import { blurImage, darkenImage, shrinkImage } from './filters.ts';
import { buildTd3, type PassportFields } from './mrz-encode.ts';
import {
  backgroundPattern,
  encode,
  FONT_MONO,
  label,
  newCanvas,
  type OutputFormat,
  portrait,
} from './render.ts';

export type { AamvaPayloadOptions, LicenceFields } from './aamva-encode.ts';
export { aamvaDate, aamvaElements, buildAamvaPayload } from './aamva-encode.ts';
export { blurImage, darkenImage, phoneRotated, shrinkImage } from './filters.ts';
export type { PassportFields } from './mrz-encode.ts';
export { buildTd3, mrzCheckDigit } from './mrz-encode.ts';

/** Card size: ID-1 (85.6 × 54 mm) at about 400 dpi. */
const CARD_W = 1350;
const CARD_H = 850;

export interface LicenceFrontOptions extends LicenceFields {
  country?: 'US' | 'CA';
  documentType?: 'drivers_license' | 'state_id';
  format?: OutputFormat;
}

export interface LicenceBackOptions extends AamvaPayloadOptions {
  format?: OutputFormat;
}

export interface PassportPageOptions extends PassportFields {
  format?: OutputFormat;
  /** Print a wrong document-number check digit (for the reader's check-digit tests). */
  corruptCheckDigit?: boolean;
}

function displayDate(iso: string, country: 'US' | 'CA'): string {
  const [y, m, d] = iso.split('-');
  return country === 'US' ? `${m}/${d}/${y}` : `${y}/${m}/${d}`;
}

function specimen(g: ReturnType<typeof newCanvas>['g'], x: number, y: number, size: number): void {
  g.save();
  g.fillStyle = 'rgba(200, 30, 30, 0.55)';
  label(g, 'SPECIMEN', x, y, size, true);
  g.restore();
}

/** The front of a licence or ID card: portrait placeholder and printed fields. Returns PNG (or JPEG) bytes. */
export function generateLicenceFront(o: LicenceFrontOptions): Buffer {
  const country = o.country ?? 'US';
  const { canvas, g } = newCanvas(CARD_W, CARD_H, '#e9eef5');
  backgroundPattern(g, CARD_W, CARD_H, '#d3dbe6');
  g.fillStyle = '#1f3a68';
  g.fillRect(0, 0, CARD_W, 120);
  g.fillStyle = '#ffffff';
  const title =
    (o.documentType ?? 'drivers_license') === 'drivers_license' ? 'DRIVER LICENSE' : 'IDENTIFICATION CARD';
  label(g, `${o.region.toUpperCase()} ${country === 'US' ? 'USA' : 'CANADA'}`, 40, 55, 38, true);
  label(g, title, 40, 100, 34, true);
  portrait(g, 50, 170, 330, 420);
  g.fillStyle = '#111111';
  const x = 430;
  let y = 200;
  const row = (k: string, v: string) => {
    g.fillStyle = '#5b6470';
    label(g, k, x, y, 26);
    g.fillStyle = '#111111';
    label(g, v, x + 120, y, 40, true);
    y += 66;
  };
  row('DL', o.documentNumber);
  row('EXP', displayDate(o.expiryDate, country));
  row('LN', o.lastName.toUpperCase());
  row('FN', [o.firstName, o.middleName].filter(Boolean).join(' ').toUpperCase());
  row('ADDR', o.addressLine1.toUpperCase());
  row('', `${o.city.toUpperCase()}, ${o.region.toUpperCase()} ${o.postalCode.toUpperCase()}`);
  row('DOB', displayDate(o.dateOfBirth, country));
  row('SEX', o.sex ?? 'X');
  specimen(g, 60, 790, 64);
  return encode(canvas, o.format);
}

/** The back of a licence or ID card with a real PDF417 barcode of AAMVA data. Returns PNG (or JPEG) bytes. */
export async function generateLicenceBack(o: LicenceBackOptions): Promise<Buffer> {
  const payload = buildAamvaPayload(o);
  // columns, eclevel and rowheight are BWIPP options that bwip-js passes through untyped.
  const options: bwipjs.RenderOptions & Record<string, unknown> = {
    bcid: 'pdf417',
    text: payload,
    columns: 12,
    eclevel: 5,
    scale: 2,
    rowheight: 3,
    paddingwidth: 12,
    paddingheight: 12,
    backgroundcolor: 'FFFFFF',
  };
  const barcode = await bwipjs.toBuffer(options);
  const img = await loadImage(barcode);
  const { canvas, g } = newCanvas(CARD_W, CARD_H, '#eef1f4');
  backgroundPattern(g, CARD_W, CARD_H, '#dde2e8');
  const scale = Math.min((CARD_W - 80) / img.width, 520 / img.height);
  const w = Math.round(img.width * scale);
  const h = Math.round(img.height * scale);
  g.imageSmoothingEnabled = false;
  g.drawImage(img, Math.round((CARD_W - w) / 2), 80, w, h);
  g.fillStyle = '#333333';
  label(g, 'THIS CARD IS A SYNTHETIC TEST DOCUMENT', 60, CARD_H - 140, 30, true);
  label(g, `AAMVA v${o.aamvaVersion}  ${o.region.toUpperCase()} ${o.country}`, 60, CARD_H - 90, 26);
  specimen(g, CARD_W - 420, CARD_H - 80, 64);
  return encode(canvas, o.format);
}

/** A passport data page with a valid TD3 MRZ in a large monospace font. Returns PNG (or JPEG) bytes. */
export function generatePassportPage(o: PassportPageOptions): Buffer {
  const W = 1500;
  const H = 1060;
  const { canvas, g } = newCanvas(W, H, '#f3efe2');
  backgroundPattern(g, W, H * 0.7, '#e2dcc8');
  g.fillStyle = '#2b2b2b';
  label(g, 'PASSPORT', 60, 80, 48, true);
  label(
    g,
    `TYPE P   CODE ${o.issuingState.toUpperCase()}   NO ${o.documentNumber.toUpperCase()}`,
    520,
    80,
    30,
  );
  portrait(g, 60, 130, 380, 480);
  const x = 500;
  let y = 160;
  const row = (k: string, v: string) => {
    g.fillStyle = '#6b6250';
    label(g, k, x, y, 22);
    g.fillStyle = '#111111';
    label(g, v, x, y + 40, 36, true);
    y += 88;
  };
  row('Surname', o.surname.toUpperCase());
  row('Given names', o.givenNames.toUpperCase());
  row('Nationality', o.nationality.toUpperCase());
  row('Date of birth', o.dateOfBirth);
  row('Sex', o.sex);
  row('Date of expiry', o.expiryDate);
  specimen(g, 980, 640, 80);
  // Machine-readable zone: white band, 44 characters a line filling ~90 % of the width.
  const [l1, good2] = buildTd3(o);
  const l2 = o.corruptCheckDigit
    ? good2.slice(0, 9) + String((Number(good2[9]) + 5) % 10) + good2.slice(10)
    : good2;
  g.fillStyle = '#ffffff';
  g.fillRect(0, H - 250, W, 250);
  g.fillStyle = '#000000';
  const size = 50;
  g.font = `${size}px ${FONT_MONO}`;
  const textW = g.measureText(l1).width;
  const left = Math.round((W - textW) / 2);
  g.fillText(l1, left, H - 150);
  g.fillText(l2, left, H - 60);
  return encode(canvas, o.format);
}

export interface PhotographOptions {
  /** Clockwise tilt in degrees. */
  degrees?: number;
  /** Size of the document relative to its own pixels (the frame stays 1800 × 1400). */
  scale?: number;
  format?: OutputFormat;
}

/** Simulates a phone photo: the document tilted and scaled on a dark table. JPEG by default. */
export async function photograph(image: Buffer, o: PhotographOptions = {}): Promise<Buffer> {
  const img = await loadImage(image);
  const { canvas, g } = newCanvas(1800, 1400, '#3a2f28');
  g.translate(900, 700);
  g.rotate(((o.degrees ?? 0) * Math.PI) / 180);
  g.scale(o.scale ?? 1, o.scale ?? 1);
  g.drawImage(img, -img.width / 2, -img.height / 2);
  return encode(canvas, o.format ?? 'jpeg');
}

/** Made-up people used by the sample set and the tests. */
export const SAMPLE_US_LICENCE: Omit<LicenceBackOptions, 'aamvaVersion' | 'country'> = {
  firstName: 'Jordan',
  middleName: 'Lee',
  lastName: 'Sample',
  dateOfBirth: '1990-01-15',
  expiryDate: '2034-08-31',
  issueDate: '2026-08-31',
  documentNumber: 'D1234567',
  addressLine1: '123 Main St',
  city: 'Sacramento',
  region: 'CA',
  postalCode: '95823',
  sex: 'F',
};

export const SAMPLE_CA_LICENCE: Omit<LicenceBackOptions, 'aamvaVersion' | 'country'> = {
  firstName: 'Alex',
  middleName: 'Marie',
  lastName: 'Tremblay',
  dateOfBirth: '1985-11-03',
  expiryDate: '2033-11-03',
  issueDate: '2028-11-03',
  documentNumber: 'T1234-56789-51103',
  addressLine1: '45 Queen St W',
  city: 'Toronto',
  region: 'ON',
  postalCode: 'M5H 2N2',
  sex: 'M',
};

export const SAMPLE_PASSPORT: PassportFields = {
  surname: 'Sample',
  givenNames: 'Jordan Lee',
  documentNumber: 'X12345678',
  issuingState: 'USA',
  nationality: 'USA',
  dateOfBirth: '1990-01-15',
  expiryDate: '2034-05-20',
  sex: 'F',
};

export interface SampleFile {
  file: string;
  description: string;
}

/** The sandbox sample set: synthetic documents with their file names and descriptions. */
export async function sampleSet(): Promise<(SampleFile & { bytes: Buffer })[]> {
  const usFront = generateLicenceFront({ ...SAMPLE_US_LICENCE, country: 'US' });
  const files: [string, string, Buffer][] = [
    ['us-licence-front.png', 'US driver licence, front', usFront],
    [
      'us-licence-back.png',
      'US driver licence, back: PDF417 barcode, AAMVA version 10',
      await generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 10 }),
    ],
    [
      'ca-licence-front.png',
      'Canadian (Ontario) driver licence, front',
      generateLicenceFront({ ...SAMPLE_CA_LICENCE, country: 'CA' }),
    ],
    [
      'ca-licence-back.png',
      'Canadian (Ontario) driver licence, back: PDF417 barcode, AAMVA version 8',
      await generateLicenceBack({ ...SAMPLE_CA_LICENCE, country: 'CA', aamvaVersion: 8 }),
    ],
    [
      'passport.png',
      'Passport data page with a TD3 machine-readable zone',
      generatePassportPage(SAMPLE_PASSPORT),
    ],
    [
      'us-licence-back-expired.png',
      'US driver licence back that expired on 2020-06-30',
      await generateLicenceBack({
        ...SAMPLE_US_LICENCE,
        country: 'US',
        aamvaVersion: 9,
        issueDate: '2015-06-30',
        expiryDate: '2020-06-30',
      }),
    ],
    [
      'us-licence-back-photo.jpg',
      'US driver licence back photographed at a tilt on a table (JPEG)',
      await photograph(await generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 10 }), {
        degrees: -8,
        scale: 0.85,
      }),
    ],
    ['blurry-front.png', 'Blurry photo of a licence front (quality warning)', blurImage(usFront, 6)],
    [
      'dark-front.png',
      'Under-exposed photo of a licence front (quality warning)',
      darkenImage(usFront, 0.15),
    ],
    ['small-front.png', 'Low-resolution photo of a licence front (quality warning)', shrinkImage(usFront, 4)],
  ];
  return files.map(([file, description, bytes]) => ({ file, description, bytes }));
}

/** Writes the sample set to `dir` (created if missing) and returns what was written. */
export async function writeSampleSet(dir: string): Promise<SampleFile[]> {
  await mkdir(dir, { recursive: true });
  const written: SampleFile[] = [];
  for (const { file, description, bytes } of await sampleSet()) {
    await writeFile(join(dir, file), bytes);
    written.push({ file, description });
  }
  await writeFile(
    join(dir, 'README.txt'),
    written.map((f) => `${f.file}: ${f.description}`).join('\n') + '\n',
  );
  return written;
}
