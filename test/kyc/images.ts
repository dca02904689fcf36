/** Real and forged image files for the tests of the image limits (header checks, frames, uploads). */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { ImageLimits } from '../../src/domains/kyc/reader/header.ts';

/** A real baseline JPEG of a gradient, `width` × `height`. */
export function smallJpeg(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4, 255);
  for (let i = 0; i < width * height; i++) data[i * 4] = i % 256;
  return Buffer.from(jpeg.encode({ data, width, height }, 80).data);
}

/** A real PNG, `width` × `height`. */
export function smallPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(200);
  return PNG.sync.write(png);
}

/** A real 16 × 16 JPEG whose frame header (SOF0) is rewritten to declare `width` × `height`. */
export function jpegDeclaring(width: number, height: number): Buffer {
  const file = smallJpeg(16, 16);
  const sof = file.indexOf(Buffer.from([0xff, 0xc0]));
  file.writeUInt16BE(height, sof + 5);
  file.writeUInt16BE(width, sof + 7);
  return file;
}

/** A real 16 × 16 PNG whose IHDR is rewritten to declare `width` × `height` (its CRC no longer holds). */
export function pngDeclaring(width: number, height: number): Buffer {
  const file = smallPng(16, 16);
  file.writeUInt32BE(width, 16);
  file.writeUInt32BE(height, 20);
  return file;
}

export type HeaderProblem = 'too_large' | 'corrupt' | 'not_jpeg_or_png';

/** Every way an image is refused from its length or header, for the given limits. */
export function forgedImages(limits: ImageLimits): Record<string, { bytes: Buffer; problem: HeaderProblem }> {
  const overWidth = 2000;
  const overHeight = Math.floor(limits.maxPixels / overWidth) + 1;
  const soi = Buffer.from([0xff, 0xd8]);
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]);
  const brokenIhdr = smallPng(16, 16);
  brokenIhdr.write('IHDX', 12, 'latin1');
  return {
    'a JPEG declaring 65 535 × 65 535 pixels in a few hundred bytes': {
      bytes: jpegDeclaring(65_535, 65_535),
      problem: 'too_large',
    },
    'a JPEG declaring one row more than the pixel limit': {
      bytes: jpegDeclaring(overWidth, overHeight),
      problem: 'too_large',
    },
    'a PNG whose IHDR declares 100 000 × 100 000 pixels': {
      bytes: pngDeclaring(100_000, 100_000),
      problem: 'too_large',
    },
    'a PNG declaring one row more than the pixel limit': {
      bytes: pngDeclaring(overWidth, overHeight),
      problem: 'too_large',
    },
    'a small real JPEG padded past the byte limit': {
      bytes: Buffer.concat([smallJpeg(320, 240), Buffer.alloc(limits.maxBytes)]),
      problem: 'too_large',
    },
    'a JPEG whose scan starts before any frame header': {
      bytes: Buffer.concat([soi, sos, Buffer.alloc(64)]),
      problem: 'corrupt',
    },
    'a JPEG cut off inside its header': { bytes: smallJpeg(320, 240).subarray(0, 40), problem: 'corrupt' },
    'a JPEG whose marker chain is broken by garbage': {
      // An APP0 segment, then bytes where the next marker should be.
      bytes: Buffer.concat([soi, Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]), Buffer.alloc(200, 0x42)]),
      problem: 'corrupt',
    },
    'a JPEG declaring zero width': { bytes: jpegDeclaring(0, 240), problem: 'corrupt' },
    'a PNG declaring zero height': { bytes: pngDeclaring(320, 0), problem: 'corrupt' },
    'a PNG whose first chunk is not IHDR': { bytes: brokenIhdr, problem: 'corrupt' },
    'bytes that are no image at all': {
      bytes: Buffer.from('just some text, not an image'),
      problem: 'not_jpeg_or_png',
    },
  };
}
