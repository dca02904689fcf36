import { describe, expect, it } from 'vitest';
import { checkImageHeader, jpegSize, pngSize } from '../../../src/domains/kyc/reader/header.ts';
import { forgedImages, smallJpeg, smallPng } from '../images.ts';

const LIMITS = { maxPixels: 1920 * 1080, maxBytes: 1024 * 1024 };

describe('image sizes from the header alone', () => {
  it('reads the size of real JPEG and PNG files, also with fill bytes and a standalone marker before the frame header', () => {
    expect(jpegSize(smallJpeg(320, 240))).toEqual({ width: 320, height: 240 });
    expect(pngSize(smallPng(33, 17))).toEqual({ width: 33, height: 17 });
    // 0xFF fill bytes and a standalone marker (TEM) between segments are legal (T.81 B.1.1.2).
    const file = smallJpeg(64, 48);
    const padded = Buffer.concat([
      file.subarray(0, 2),
      Buffer.from([0xff, 0xff, 0xff, 0x01]),
      file.subarray(2),
    ]);
    expect(jpegSize(padded)).toEqual({ width: 64, height: 48 });
  });

  it('accepts what is within the limits', () => {
    expect(checkImageHeader(smallJpeg(1920, 1080), LIMITS)).toEqual({
      ok: true,
      format: 'jpeg',
      width: 1920,
      height: 1080,
    });
    expect(checkImageHeader(smallPng(1080, 1920), LIMITS)).toMatchObject({ ok: true, format: 'png' });
  });

  it.each(Object.entries(forgedImages(LIMITS)))('refuses %s', (_name, { bytes, problem }) => {
    expect(checkImageHeader(bytes, LIMITS)).toEqual({ ok: false, problem });
  });

  it('never throws, whatever the bytes (truncated at every length)', () => {
    for (const file of [smallJpeg(64, 48), smallPng(64, 48)]) {
      for (let n = 0; n <= file.length; n += 7) {
        const verdict = checkImageHeader(file.subarray(0, n), LIMITS);
        expect(verdict.ok === false || verdict.width === 64).toBe(true);
      }
    }
    // A PNG whose first chunk is not IHDR has no readable size.
    const png = smallPng(8, 8);
    png.write('tEXt', 12, 'latin1');
    expect(checkImageHeader(png, LIMITS)).toEqual({ ok: false, problem: 'corrupt' });
  });
});
