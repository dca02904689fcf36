import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** An RGBA raster (4 bytes a pixel, row-major). */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A single-channel luminance raster. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type SniffedFormat = 'jpeg' | 'png' | 'other_image' | 'unknown';

/** Largest image we agree to decode (decompression-bomb guard), in pixels. */
export const MAX_PIXELS = 40_000_000;

export class ImageDecodeError extends Error {}

/** Recognises the container from the magic bytes, regardless of the declared mime type. */
export function sniffFormat(bytes: Buffer): SniffedFormat {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'png';
  }
  const head = bytes.subarray(0, 16).toString('latin1');
  if (
    head.startsWith('GIF8') ||
    head.startsWith('BM') ||
    head.startsWith('%PDF') ||
    head.startsWith('II*\0') ||
    head.startsWith('MM\0*') ||
    (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') ||
    head.slice(4, 8) === 'ftyp'
  ) {
    return 'other_image';
  }
  return 'unknown';
}

function pngDimensions(bytes: Buffer): { width: number; height: number } {
  // IHDR is always the first chunk: 8 signature + 4 length + 4 type, then width and height.
  if (bytes.length < 24 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') {
    throw new ImageDecodeError('missing IHDR');
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Decodes a JPEG or PNG file into RGBA. Throws ImageDecodeError when it cannot. */
export function decodeImage(bytes: Buffer): RgbaImage {
  const format = sniffFormat(bytes);
  try {
    if (format === 'jpeg') {
      const out = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        tolerantDecoding: true,
        maxResolutionInMP: MAX_PIXELS / 1_000_000,
        maxMemoryUsageInMB: 1024,
      });
      if (!out.width || !out.height) throw new ImageDecodeError('empty jpeg');
      return { width: out.width, height: out.height, data: out.data };
    }
    if (format === 'png') {
      const { width, height } = pngDimensions(bytes);
      if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new ImageDecodeError('bad size');
      const png = PNG.sync.read(bytes);
      return { width: png.width, height: png.height, data: png.data };
    }
  } catch (err) {
    if (err instanceof ImageDecodeError) throw err;
    throw new ImageDecodeError(err instanceof Error ? err.message : String(err));
  }
  throw new ImageDecodeError(`not a JPEG or PNG (${format})`);
}

/** Rec. 601 luma of an RGBA raster (alpha composited on white). */
export function toGray(img: RgbaImage): GrayImage {
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  const d = img.data;
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const a = d[o + 3]! / 255;
    const y = 0.299 * d[o]! + 0.587 * d[o + 1]! + 0.114 * d[o + 2]!;
    out[i] = Math.round(y * a + 255 * (1 - a));
  }
  return { width: img.width, height: img.height, data: out };
}

/** Box-averaging downscale so that the longest side is at most `maxSide`. */
export function downscaleGray(img: GrayImage, maxSide: number): GrayImage {
  const scale = Math.max(img.width, img.height) / maxSide;
  if (scale <= 1) return img;
  const w = Math.max(1, Math.round(img.width / scale));
  const h = Math.max(1, Math.round(img.height / scale));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * img.height) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * img.height) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * img.width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * img.width) / w));
      let sum = 0;
      for (let yy = y0; yy < y1; yy++) {
        const row = yy * img.width;
        for (let xx = x0; xx < x1; xx++) sum += img.data[row + xx]!;
      }
      out[y * w + x] = Math.round(sum / ((y1 - y0) * (x1 - x0)));
    }
  }
  return { width: w, height: h, data: out };
}

/** Copies a rectangle of a gray raster (clamped to the image). */
export function cropGray(
  img: GrayImage,
  left: number,
  top: number,
  width: number,
  height: number,
): GrayImage {
  const x0 = Math.max(0, Math.floor(left));
  const y0 = Math.max(0, Math.floor(top));
  const x1 = Math.min(img.width, Math.floor(left + width));
  const y1 = Math.min(img.height, Math.floor(top + height));
  const w = Math.max(0, x1 - x0);
  const h = Math.max(0, y1 - y0);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    out.set(img.data.subarray((y0 + y) * img.width + x0, (y0 + y) * img.width + x0 + w), y * w);
  return { width: w, height: h, data: out };
}

/** Rotates a gray raster by 180 degrees. */
export function rotateGray180(img: GrayImage): GrayImage {
  const out = new Uint8Array(img.data.length);
  for (let i = 0, n = img.data.length; i < n; i++) out[i] = img.data[n - 1 - i]!;
  return { width: img.width, height: img.height, data: out };
}

/** Encodes a gray raster as an 8-bit grayscale PNG. */
export function encodeGrayPng(img: GrayImage): Buffer {
  const png = new PNG({ width: img.width, height: img.height, colorType: 0, inputColorType: 0, bitDepth: 8 });
  png.data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0 });
}

/**
 * Estimates how far the document's text lines and barcode rows are turned from the horizontal, in degrees
 * (-45..45, positive = clockwise in image coordinates), from a magnitude-weighted histogram of gradient
 * orientations folded modulo 90°. Returns 0 when there is no clear peak.
 */
export function estimateSkew(gray: GrayImage): number {
  const img = downscaleGray(gray, 700);
  const { width: w, height: h, data } = img;
  const BINS = 180; // 0.5° each over 90°
  const hist = new Float64Array(BINS);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx =
        data[i - w + 1]! +
        2 * data[i + 1]! +
        data[i + w + 1]! -
        data[i - w - 1]! -
        2 * data[i - 1]! -
        data[i + w - 1]!;
      const gy =
        data[i + w - 1]! +
        2 * data[i + w]! +
        data[i + w + 1]! -
        data[i - w - 1]! -
        2 * data[i - w]! -
        data[i - w + 1]!;
      const mag = Math.abs(gx) + Math.abs(gy);
      if (mag < 80) continue;
      let deg = (Math.atan2(gy, gx) * 180) / Math.PI; // -180..180
      deg = ((deg % 90) + 135) % 90; // 0..90, where 45 means axis-aligned
      hist[Math.min(BINS - 1, Math.floor(deg * 2))]! += mag;
    }
  }
  // Smooth over ±1.5° (circular) and find the peak.
  let best = -1;
  let bestVal = 0;
  let total = 0;
  for (let b = 0; b < BINS; b++) {
    let s = 0;
    for (let k = -3; k <= 3; k++) s += hist[(b + k + BINS) % BINS]!;
    total += hist[b]!;
    if (s > bestVal) {
      bestVal = s;
      best = b;
    }
  }
  if (best < 0 || total === 0 || bestVal / total < 0.08) return 0;
  // Sub-bin accuracy: weighted mean of the bin centres around the peak.
  let sw = 0;
  let sa = 0;
  for (let k = -3; k <= 3; k++) {
    const v = hist[(best + k + BINS) % BINS]!;
    sw += v;
    sa += v * k;
  }
  const deg = (best + 0.5 + sa / sw) / 2 - 45;
  return Math.round(deg * 100) / 100;
}

function rotateChannels(
  src: Uint8Array,
  w: number,
  h: number,
  channels: number,
  degrees: number,
  fill: number,
): { width: number; height: number; data: Uint8Array } {
  const rad = (degrees * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const W = Math.ceil(Math.abs(w * cos) + Math.abs(h * sin));
  const H = Math.ceil(Math.abs(w * sin) + Math.abs(h * cos));
  const out = new Uint8Array(W * H * channels).fill(fill);
  const cx = w / 2;
  const cy = h / 2;
  const CX = W / 2;
  const CY = H / 2;
  for (let y = 0; y < H; y++) {
    const dy = y + 0.5 - CY;
    for (let x = 0; x < W; x++) {
      const dx = x + 0.5 - CX;
      // Inverse mapping: rotate the destination point back by -degrees.
      const sx = cos * dx + sin * dy + cx - 0.5;
      const sy = -sin * dx + cos * dy + cy - 0.5;
      if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) continue;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(w - 1, x0 + 1);
      const y1 = Math.min(h - 1, y0 + 1);
      const fx = sx - x0;
      const fy = sy - y0;
      const o = (y * W + x) * channels;
      for (let c = 0; c < channels; c++) {
        const a = src[(y0 * w + x0) * channels + c]!;
        const b = src[(y0 * w + x1) * channels + c]!;
        const d = src[(y1 * w + x0) * channels + c]!;
        const e = src[(y1 * w + x1) * channels + c]!;
        out[o + c] = Math.round((a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy);
      }
    }
  }
  return { width: W, height: H, data: out };
}

/** Rotates by `degrees` clockwise (image coordinates), growing the canvas; new area is white. */
export function rotateGray(img: GrayImage, degrees: number): GrayImage {
  return rotateChannels(img.data, img.width, img.height, 1, degrees, 255);
}

/** Rotates by `degrees` clockwise (image coordinates), growing the canvas; new area is opaque white. */
export function rotateRgba(img: RgbaImage, degrees: number): RgbaImage {
  return rotateChannels(img.data, img.width, img.height, 4, degrees, 255);
}

/** The EXIF orientation (1–8) of a JPEG, or 1 when absent or unreadable. */
export function jpegOrientation(bytes: Buffer): number {
  if (sniffFormat(bytes) !== 'jpeg') return 1;
  let p = 2;
  while (p + 4 <= bytes.length && bytes[p] === 0xff) {
    const marker = bytes[p + 1]!;
    if (marker === 0xda || marker === 0xd9) break; // start of scan / end of image
    const len = bytes.readUInt16BE(p + 2);
    if (marker === 0xe1 && bytes.subarray(p + 4, p + 10).toString('latin1') === 'Exif\0\0') {
      const tiff = p + 10;
      if (tiff + 8 > bytes.length) return 1;
      const le = bytes.subarray(tiff, tiff + 2).toString('latin1') === 'II';
      const u16 = (o: number) => (le ? bytes.readUInt16LE(o) : bytes.readUInt16BE(o));
      const u32 = (o: number) => (le ? bytes.readUInt32LE(o) : bytes.readUInt32BE(o));
      const ifd = tiff + u32(tiff + 4);
      if (ifd + 2 > bytes.length) return 1;
      const count = u16(ifd);
      for (let i = 0; i < count; i++) {
        const e = ifd + 2 + i * 12;
        if (e + 12 > bytes.length) return 1;
        if (u16(e) === 0x0112) {
          const v = u16(e + 8);
          return v >= 1 && v <= 8 ? v : 1;
        }
      }
      return 1;
    }
    p += 2 + len;
  }
  return 1;
}

/** Turns an RGBA raster by a multiple of 90° clockwise. */
export function rotateRgbaQuarter(img: RgbaImage, quarters: 1 | 2 | 3): RgbaImage {
  const { width: w, height: h, data } = img;
  const W = quarters === 2 ? w : h;
  const H = quarters === 2 ? h : w;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let nx: number;
      let ny: number;
      if (quarters === 1) [nx, ny] = [h - 1 - y, x];
      else if (quarters === 2) [nx, ny] = [w - 1 - x, h - 1 - y];
      else [nx, ny] = [y, w - 1 - x];
      const s = (y * w + x) * 4;
      out.set(data.subarray(s, s + 4), (ny * W + nx) * 4);
    }
  }
  return { width: W, height: H, data: out };
}

/** Applies a JPEG's EXIF orientation so that the raster is upright as the camera showed it. */
export function applyOrientation(img: RgbaImage, orientation: number): RgbaImage {
  // Mirrored orientations (2, 4, 5, 7) are rare from phone cameras; their rotation part is applied.
  if (orientation === 3 || orientation === 4) return rotateRgbaQuarter(img, 2);
  if (orientation === 6 || orientation === 5) return rotateRgbaQuarter(img, 1);
  if (orientation === 8 || orientation === 7) return rotateRgbaQuarter(img, 3);
  return img;
}
