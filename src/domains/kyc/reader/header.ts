/**
 * Image sizes read from the file header alone (JPEG SOF, PNG IHDR), so that an image too large to
 * decode is refused before any decoding: a few kilobytes can declare 65 535 × 65 535 pixels, and the
 * decoders allocate and work in proportion to the declared size.
 */
import { MAX_PIXELS, sniffFormat } from './image.ts';

/** The largest image an upload or a face-scan frame may be (see docs/kyc-reader.md). */
export interface ImageLimits {
  /** Width × height, as the header declares it. */
  maxPixels: number;
  /** File size (after base64 decoding). */
  maxBytes: number;
}

/**
 * The defaults of `KYC_IMAGE_MAX_PIXELS` and `KYC_IMAGE_MAX_BYTES`: a 24-megapixel phone photo (the
 * largest common default, 5712 × 4284, 5–8 MB) fits; the decoder's own ceiling is the pixel limit.
 */
export const DOCUMENT_LIMITS: ImageLimits = { maxPixels: MAX_PIXELS, maxBytes: 10 * 1024 * 1024 };

export type HeaderVerdict =
  | { ok: true; format: 'jpeg' | 'png'; width: number; height: number }
  /** `too_large`: over a limit; `corrupt`: no readable size in the header; `not_jpeg_or_png`. */
  | { ok: false; problem: 'too_large' | 'corrupt' | 'not_jpeg_or_png' };

/** Markers that carry no length (TEM, RST0–7); every other marker before the scan has one. */
function standalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/** Start-of-frame markers (SOF0–SOF15 except DHT C4, JPG C8 and DAC CC): they hold the size. */
function startOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Width and height from a JPEG's first SOF segment (ITU T.81 B.2.2), or null. */
export function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let p = 2; // after SOI
  while (p + 4 <= bytes.length) {
    if (bytes[p] !== 0xff) return null;
    const marker = bytes[p + 1]!;
    // Any number of 0xFF fill bytes may precede a marker (B.1.1.2).
    if (marker === 0xff) {
      p++;
      continue;
    }
    if (standalone(marker)) {
      p += 2;
      continue;
    }
    // Start of scan or end of image before a frame header: nothing to size.
    if (marker === 0xda || marker === 0xd9 || marker === 0xd8) return null;
    const length = bytes.readUInt16BE(p + 2);
    if (length < 2) return null;
    if (startOfFrame(marker)) {
      // Lf (2), P (1), Y (2), X (2).
      if (length < 8 || p + 9 > bytes.length) return null;
      return { height: bytes.readUInt16BE(p + 5), width: bytes.readUInt16BE(p + 7) };
    }
    p += 2 + length;
  }
  return null;
}

/** Width and height from a PNG's IHDR, always its first chunk (PNG spec 11.2.2), or null. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (
    bytes.length < 24 ||
    bytes.readUInt32BE(8) !== 13 ||
    bytes.subarray(12, 16).toString('latin1') !== 'IHDR'
  )
    return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * Checks an image against the limits from its bytes' length and its header, without decoding it.
 * A zero dimension counts as corrupt (JPEG's DNL-defined height is not supported by the decoder).
 */
export function checkImageHeader(bytes: Buffer, limits: ImageLimits): HeaderVerdict {
  if (bytes.length > limits.maxBytes) return { ok: false, problem: 'too_large' };
  const format = sniffFormat(bytes);
  if (format !== 'jpeg' && format !== 'png') return { ok: false, problem: 'not_jpeg_or_png' };
  const size = format === 'jpeg' ? jpegSize(bytes) : pngSize(bytes);
  if (!size || size.width === 0 || size.height === 0) return { ok: false, problem: 'corrupt' };
  if (size.width * size.height > limits.maxPixels) return { ok: false, problem: 'too_large' };
  return { ok: true, format, ...size };
}
