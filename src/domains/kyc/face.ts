import jpeg from 'jpeg-js';

/** How many camera frames the hosted page sends, taken about half a second apart. */
export const FACE_FRAMES = 3;
const MIN_WIDTH = 160;
const MIN_HEIGHT = 120;
const MAX_PIXELS = 4096 * 4096;

interface Luma {
  width: number;
  height: number;
  mean: number;
  deviation: number;
  /** A 16 × 12 thumbnail of mean luminances, to compare frames. */
  thumb: number[];
}

function luma(bytes: Buffer): Luma | null {
  let image: { width: number; height: number; data: Uint8Array };
  try {
    image = jpeg.decode(bytes, {
      useTArray: true,
      maxResolutionInMP: MAX_PIXELS / 1e6,
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
 * Checks the face-scan capture before the verification goes to review: real JPEG camera frames, big
 * enough, not blank, and not one still image sent several times. Matching the face to the document
 * is the review's job. Returns an end-user-safe problem, or null when the capture is usable.
 */
export function checkFaceScan(frames: Buffer[]): string | null {
  if (frames.length < FACE_FRAMES) return 'The face scan did not finish. Start the scan again.';
  const read = frames.map(luma);
  if (read.some((f) => f === null)) return 'The camera images could not be read. Start the scan again.';
  const lumas = read as Luma[];
  if (lumas.some((f) => f.width < MIN_WIDTH || f.height < MIN_HEIGHT))
    return 'The camera image is too small. Use a device with a better camera.';
  if (lumas.some((f) => f.deviation < 4 || f.mean < 12))
    return 'The camera image is blank or too dark. Uncover the camera and face a light.';
  // Some region of the picture must change between frames (a still image sent several times does not).
  let moved = false;
  for (let i = 1; i < lumas.length; i++) {
    const a = (lumas[i - 1] as Luma).thumb;
    const b = (lumas[i] as Luma).thumb;
    if (a.some((v, k) => Math.abs(v - (b[k] as number)) > 3)) moved = true;
  }
  if (!moved) return 'The face scan needs a live camera. Start the scan again and move your head slightly.';
  return null;
}
