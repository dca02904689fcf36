import { downscaleGray, type GrayImage } from './image.ts';
import { MSG } from './messages.ts';
import type { QualityMetrics } from './types.ts';

/** Longest side of the raster the measures are computed on, so they do not depend on the camera. */
export const QUALITY_SIDE = 800;

/** Thresholds; see docs/kyc-reader.md. */
export const THRESHOLDS = {
  /** Below this variance of the Laplacian the photo is called blurry. */
  blurVariance: 100,
  /** When a barcode or MRZ could not be read, below this the photo is called blurry too. */
  softBlurVariance: 250,
  /** The shorter side must be at least this many pixels. */
  minShortSide: 500,
  /** Below this the image is too small to hold a readable document at all. */
  hopelessShortSide: 120,
  /** Mean luminance below this is too dark, above `brightMean` too bright. */
  darkMean: 60,
  brightMean: 235,
  /** Share of pixels clipped to black / white. */
  darkClipped: 0.5,
  brightClipped: 0.75,
  /** Standard deviation below this: no visible structure at all. */
  hopelessContrast: 4,
  lowContrast: 18,
} as const;

export interface QualityReport {
  metrics: QualityMetrics;
  warnings: string[];
  /** No document can possibly be read from this image. */
  hopeless: boolean;
}

export function laplacianVariance(img: GrayImage): number {
  const { width: w, height: h, data } = img;
  if (w < 3 || h < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const v = data[i - w]! + data[i + w]! + data[i - 1]! + data[i + 1]! - 4 * data[i]!;
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/**
 * Factor that stretches the 1st–99th percentile luminance range to 0–255, squared (the Laplacian's variance
 * grows with the square of the contrast). It makes the sharpness measure independent of exposure, so that a
 * dark but sharp photo is not also called blurry.
 */
function contrastGain(img: GrayImage): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < img.data.length; i++) hist[img.data[i]!]!++;
  const n = img.data.length;
  let lo = 0;
  let hi = 255;
  for (let acc = 0; lo < 255 && acc + hist[lo]! <= n * 0.01; lo++) acc += hist[lo]!;
  for (let acc = 0; hi > 0 && acc + hist[hi]! <= n * 0.01; hi--) acc += hist[hi]!;
  const range = Math.max(16, hi - lo);
  return (255 / range) ** 2;
}

export function assessQuality(gray: GrayImage): QualityReport {
  const small = downscaleGray(gray, QUALITY_SIDE);
  const n = small.data.length;
  let sum = 0;
  let sumSq = 0;
  let dark = 0;
  let bright = 0;
  for (let i = 0; i < n; i++) {
    const v = small.data[i]!;
    sum += v;
    sumSq += v * v;
    if (v <= 8) dark++;
    if (v >= 247) bright++;
  }
  const mean = n ? sum / n : 0;
  const contrast = n ? Math.sqrt(Math.max(0, sumSq / n - mean * mean)) : 0;
  const metrics: QualityMetrics = {
    width: gray.width,
    height: gray.height,
    sharpness: Math.round(laplacianVariance(small) * contrastGain(small) * 10) / 10,
    meanLuminance: Math.round(mean * 10) / 10,
    darkClippedShare: n ? dark / n : 0,
    brightClippedShare: n ? bright / n : 0,
    contrast: Math.round(contrast * 10) / 10,
  };
  const shortSide = Math.min(gray.width, gray.height);
  const hopeless = shortSide < THRESHOLDS.hopelessShortSide || contrast < THRESHOLDS.hopelessContrast;
  const warnings: string[] = [];
  if (shortSide < THRESHOLDS.minShortSide) warnings.push(MSG.lowResolution);
  if (mean < THRESHOLDS.darkMean || metrics.darkClippedShare > THRESHOLDS.darkClipped)
    warnings.push(MSG.tooDark);
  else if (mean > THRESHOLDS.brightMean || metrics.brightClippedShare > THRESHOLDS.brightClipped) {
    warnings.push(MSG.tooBright);
  } else if (contrast < THRESHOLDS.lowContrast) warnings.push(MSG.lowContrast);
  if (metrics.sharpness < THRESHOLDS.blurVariance) warnings.push(MSG.blurry);
  return { metrics, warnings, hopeless };
}
