/** Degraded variants of a document image for the quality tests (pure JS). */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { decodeImage, rotateRgbaQuarter } from '../reader/image.ts';

function encodeRgba(width: number, height: number, data: Uint8Array): Buffer {
  const png = new PNG({ width, height });
  png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return PNG.sync.write(png);
}

function boxBlurPass(
  src: Uint8Array,
  dst: Uint8Array,
  w: number,
  h: number,
  r: number,
  horizontal: boolean,
): void {
  const span = 2 * r + 1;
  const outer = horizontal ? h : w;
  const inner = horizontal ? w : h;
  for (let o = 0; o < outer; o++) {
    for (let ch = 0; ch < 4; ch++) {
      const at = (i: number) => {
        const c = Math.min(inner - 1, Math.max(0, i));
        return ((horizontal ? o * w + c : c * w + o) << 2) + ch;
      };
      let acc = 0;
      for (let i = -r; i <= r; i++) acc += src[at(i)]!;
      for (let i = 0; i < inner; i++) {
        dst[at(i)] = Math.round(acc / span);
        acc += src[at(i + r + 1)]! - src[at(i - r)]!;
      }
    }
  }
}

/** A blurred copy (three box-blur passes, close to a Gaussian of the given radius). Returns a PNG. */
export function blurImage(image: Buffer, radius = 6): Buffer {
  const img = decodeImage(image);
  const a = Uint8Array.from(img.data);
  const b = new Uint8Array(a.length);
  for (let pass = 0; pass < 3; pass++) {
    boxBlurPass(a, b, img.width, img.height, radius, true);
    boxBlurPass(b, a, img.width, img.height, radius, false);
  }
  return encodeRgba(img.width, img.height, a);
}

/** A dark, under-exposed copy: every channel multiplied by `factor`. Returns a PNG. */
export function darkenImage(image: Buffer, factor = 0.15): Buffer {
  const img = decodeImage(image);
  const out = Uint8Array.from(img.data);
  for (let i = 0; i < out.length; i++) if ((i & 3) !== 3) out[i] = Math.round(out[i]! * factor);
  return encodeRgba(img.width, img.height, out);
}

/** A copy scaled down by an integer factor (nearest neighbour), to test the resolution warning. */
export function shrinkImage(image: Buffer, factor = 4): Buffer {
  const img = decodeImage(image);
  const w = Math.max(1, Math.floor(img.width / factor));
  const h = Math.max(1, Math.floor(img.height / factor));
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = (y * factor * img.width + x * factor) * 4;
      out.set(img.data.subarray(s, s + 4), (y * w + x) * 4);
    }
  }
  return encodeRgba(w, h, out);
}

/** A minimal big-endian EXIF APP1 segment holding only the orientation tag. */
function exifOrientationSegment(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // first IFD right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10); // Orientation
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * What a phone stores for a portrait shot: the pixels turned 90° counter-clockwise plus EXIF orientation 6
 * ("rotate 90° clockwise to display"). Returns a JPEG.
 */
export function phoneRotated(image: Buffer, quality = 90): Buffer {
  const img = rotateRgbaQuarter(decodeImage(image), 3);
  const encoded = jpeg.encode(
    { width: img.width, height: img.height, data: Buffer.from(img.data) },
    quality,
  ).data;
  return Buffer.concat([encoded.subarray(0, 2), exifOrientationSegment(6), encoded.subarray(2)]);
}
