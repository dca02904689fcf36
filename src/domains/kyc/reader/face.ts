/**
 * Face-scan frames of the hosted page: are they real, live camera images? Runs on the reader's
 * threads like document reads (pool.ts); `refuseFramesBeforeDecoding` is the cheap part that the
 * pool runs on the calling thread first.
 */
import jpeg from 'jpeg-js';
import { checkImageHeader, type ImageLimits } from './header.ts';

/** How many camera frames the hosted page sends, taken about half a second apart. */
export const FACE_FRAMES = 3;
const MIN_WIDTH = 160;
const MIN_HEIGHT = 120;

/**
 * The defaults of `KYC_FRAME_MAX_PIXELS` and `KYC_FRAME_MAX_BYTES`. The page asks the camera for
 * 640 × 480 and sends JPEG at quality 0.85 (30–80 kB); Full HD leaves room for cameras that ignore
 * the request (about 2 megapixels: 8 MB of pixels a frame).
 */
export const FRAME_LIMITS: ImageLimits = { maxPixels: 1920 * 1080, maxBytes: 1024 * 1024 };

/** Why a face scan is refused; `reason` is end-user-safe. */
export interface FaceScanProblem {
  code: 'face_scan_failed' | 'image_too_large';
  reason: string;
}

const failed = (reason: string): FaceScanProblem => ({ code: 'face_scan_failed', reason });
const UNREADABLE = failed('The camera images could not be read. Start the scan again.');

interface Luma {
  width: number;
  height: number;
  mean: number;
  deviation: number;
  /** A 16 × 12 thumbnail of mean luminances, to compare frames. */
  thumb: number[];
}

function luma(bytes: Buffer, limits: ImageLimits): Luma | null {
  let image: { width: number; height: number; data: Uint8Array };
  try {
    image = jpeg.decode(bytes, {
      useTArray: true,
      maxResolutionInMP: limits.maxPixels / 1e6,
      maxMemoryUsageInMB: 256,
    });
  } catch {
    return null;
  }
  const { width, height, data } = image;
  const thumb = new Array<number>(16 * 12).fill(0);
  const counts = new Array<number>(16 * 12).fill(0);
  let sum = 0;
  let sumSq = 0;
  const step = Math.max(1, Math.floor(Math.min(width, height) / 120));
  let n = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const i = (y * width + x) * 4;
      const v =
        0.299 * (data[i] as number) + 0.587 * (data[i + 1] as number) + 0.114 * (data[i + 2] as number);
      sum += v;
      sumSq += v * v;
      n++;
      const cell = Math.floor((y * 12) / height) * 16 + Math.floor((x * 16) / width);
      thumb[cell] = (thumb[cell] as number) + v;
      counts[cell] = (counts[cell] as number) + 1;
    }
  }
  const mean = sum / n;
  return {
    width,
    height,
    mean,
    deviation: Math.sqrt(Math.max(0, sumSq / n - mean * mean)),
    thumb: thumb.map((t, i) => t / Math.max(1, counts[i] as number)),
  };
}

/**
 * What can be refused without decoding: too few frames, a frame over the limits (by its length or
 * the size its header declares), or one that is not a JPEG with a readable size. Null otherwise.
 */
export function refuseFramesBeforeDecoding(frames: Buffer[], limits: ImageLimits): FaceScanProblem | null {
  if (frames.length < FACE_FRAMES) return failed('The face scan did not finish. Start the scan again.');
  for (const frame of frames) {
    const verdict = checkImageHeader(frame, limits);
    if (!verdict.ok && verdict.problem === 'too_large')
      return {
        code: 'image_too_large',
        reason: 'The camera images are too large. Start the scan again.',
      };
    if (!verdict.ok || verdict.format !== 'jpeg') return UNREADABLE;
  }
  return null;
}

/**
 * Checks the face-scan capture before the verification goes to review: real JPEG camera frames, big
 * enough, not blank, and not one still image sent several times. Matching the face to the document
 * is the review's job. Returns an end-user-safe problem, or null when the capture is usable.
 */
export function checkFaceScan(frames: Buffer[], limits: ImageLimits = FRAME_LIMITS): FaceScanProblem | null {
  const refused = refuseFramesBeforeDecoding(frames, limits);
  if (refused) return refused;
  const read = frames.map((frame) => luma(frame, limits));
  if (read.some((f) => f === null)) return UNREADABLE;
  const lumas = read as Luma[];
  if (lumas.some((f) => f.width < MIN_WIDTH || f.height < MIN_HEIGHT))
    return failed('The camera image is too small. Use a device with a better camera.');
  if (lumas.some((f) => f.deviation < 4 || f.mean < 12))
    return failed('The camera image is blank or too dark. Uncover the camera and face a light.');
  // Some region of the picture must change between frames (a still image sent several times does not).
  let moved = false;
  for (let i = 1; i < lumas.length; i++) {
    const a = (lumas[i - 1] as Luma).thumb;
    const b = (lumas[i] as Luma).thumb;
    if (a.some((v, k) => Math.abs(v - (b[k] as number)) > 3)) moved = true;
  }
  if (!moved)
    return failed('The face scan needs a live camera. Start the scan again and move your head slightly.');
  return null;
}
