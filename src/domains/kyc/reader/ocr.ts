/**
 * OCR with tesseract.js: one worker, created lazily, traineddata read from the @tesseract.js-data/eng
 * package (never downloaded, never cached to disk). Jobs run one at a time because the character
 * whitelist is a worker-wide setting that differs between MRZ and printed-text reading.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { encodeGrayPng, type GrayImage } from './image.ts';

const require = createRequire(import.meta.url);

export type OcrMode = 'mrz' | 'text';

const PARAMS: Record<OcrMode, Record<string, string>> = {
  mrz: {
    tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
    tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
  },
  text: {
    tessedit_char_whitelist: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/-.,:#' ",
    tessedit_pageseg_mode: PSM.SPARSE_TEXT,
  },
};

let workerPromise: Promise<Worker> | undefined;
let currentMode: OcrMode | undefined;
let queue: Promise<unknown> = Promise.resolve();

function getWorker(): Promise<Worker> {
  workerPromise ??= (async () => {
    const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
    currentMode = undefined;
    return createWorker(
      'eng',
      OEM.LSTM_ONLY,
      {
        langPath: eng.langPath,
        gzip: eng.gzip,
        cacheMethod: 'none',
        logger: () => {},
        errorHandler: () => {},
      },
      { load_system_dawg: '0', load_freq_dawg: '0' },
    );
  })().catch((err) => {
    workerPromise = undefined;
    throw err;
  });
  return workerPromise;
}

export interface OcrWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * An idle worker is terminated after this long, so that a process that never calls closeReader() can
 * still exit (the worker thread would otherwise keep it alive). The next read starts a new one (~0.5 s).
 */
export const OCR_IDLE_MS = 30_000;
let idleTimer: NodeJS.Timeout | undefined;
let pending = 0;

function armIdleTimer(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = undefined;
    if (pending === 0) void closeOcr();
  }, OCR_IDLE_MS);
  idleTimer.unref();
}

function run<T>(mode: OcrMode, fn: (worker: Worker) => Promise<T>): Promise<T> {
  pending++;
  if (idleTimer) clearTimeout(idleTimer);
  const job = queue.then(async () => {
    const worker = await getWorker();
    if (currentMode !== mode) {
      await worker.setParameters({ ...PARAMS[mode], user_defined_dpi: '300' });
      currentMode = mode;
    }
    return fn(worker);
  });
  queue = job.catch(() => undefined);
  void queue.then(() => {
    pending--;
    if (pending === 0) armIdleTimer();
  });
  return job;
}

/**
 * What recent regions read as, by mode and pixels: the same region (a photo uploaded again, a
 * client's retry, the same side read for another check) is not recognised twice. Recognition is a
 * pure function of the pixels and the mode, so an answer kept is the answer recomputed.
 */
const RECENT_READS = 64;
const recent = new Map<string, Promise<unknown>>();

function remembered<T>(region: GrayImage, mode: OcrMode, kind: string, read: () => Promise<T>): Promise<T> {
  const key = createHash('sha256')
    .update(`${kind}:${mode}:${region.width}x${region.height}:`)
    .update(region.data)
    .digest('base64');
  const known = recent.get(key);
  if (known) {
    recent.delete(key);
    recent.set(key, known);
    return known as Promise<T>;
  }
  const answer = read();
  recent.set(key, answer);
  answer.catch(() => recent.delete(key));
  if (recent.size > RECENT_READS) recent.delete(recent.keys().next().value as string);
  return answer;
}

/** Recognises the text of a gray raster. Calls are serialised on the single worker. */
export function recognize(region: GrayImage, mode: OcrMode): Promise<string> {
  return remembered(region, mode, 'text', () =>
    run(mode, async (worker) => (await worker.recognize(encodeGrayPng(region))).data.text),
  );
}

/** Recognises the words of a gray raster with their boxes. */
export function recognizeWords(region: GrayImage, mode: OcrMode): Promise<readonly OcrWord[]> {
  return remembered(region, mode, 'words', () =>
    run(mode, async (worker) => {
      const { data } = await worker.recognize(encodeGrayPng(region), {}, { text: true, blocks: true });
      const words: OcrWord[] = [];
      for (const block of data.blocks ?? []) {
        for (const para of block.paragraphs) {
          for (const line of para.lines) {
            for (const w of line.words) {
              if (w.text.trim()) words.push({ text: w.text.trim(), ...w.bbox });
            }
          }
        }
      }
      return words;
    }),
  );
}

/** Groups words into visual rows (overlapping vertical extents), each read left to right. */
export function wordsToRows(words: readonly OcrWord[]): string[] {
  const sorted = [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  const rows: OcrWord[][] = [];
  for (const w of sorted) {
    const cy = (w.y0 + w.y1) / 2;
    const row = rows.find((r) => {
      const top = Math.min(...r.map((x) => x.y0));
      const bottom = Math.max(...r.map((x) => x.y1));
      const h = bottom - top;
      return cy > top + h * 0.15 && cy < bottom - h * 0.15;
    });
    if (row) row.push(w);
    else rows.push([w]);
  }
  return rows.map((r) =>
    r
      .sort((a, b) => a.x0 - b.x0)
      .map((w) => w.text)
      .join(' '),
  );
}

/** Terminates the OCR worker if one was started. A later read starts a new one. */
export async function closeOcr(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  const p = workerPromise;
  workerPromise = undefined;
  currentMode = undefined;
  if (!p) return;
  await queue;
  const worker = await p.catch(() => undefined);
  await worker?.terminate();
}

/** Bilinear resize of a gray raster. */
export function resizeGray(img: GrayImage, factor: number): GrayImage {
  const w = Math.max(1, Math.round(img.width * factor));
  const h = Math.max(1, Math.round(img.height * factor));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(img.height - 1, Math.max(0, (y + 0.5) / factor - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(img.height - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.max(0, (x + 0.5) / factor - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(img.width - 1, x0 + 1);
      const fx = sx - x0;
      const a = img.data[y0 * img.width + x0]!;
      const b = img.data[y0 * img.width + x1]!;
      const c = img.data[y1 * img.width + x0]!;
      const d = img.data[y1 * img.width + x1]!;
      out[y * w + x] = Math.round((a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy);
    }
  }
  return { width: w, height: h, data: out };
}

/** Brings a region to a width where printed glyphs are a comfortable size for the OCR engine. */
export function normaliseWidth(img: GrayImage): GrayImage {
  if (img.width < 1000) return resizeGray(img, Math.min(4, 1400 / img.width));
  if (img.width > 2400) return resizeGray(img, 1800 / img.width);
  return img;
}
