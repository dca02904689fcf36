import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFaceScan, FRAME_LIMITS } from '../../../src/domains/kyc/reader/face.ts';
import { closeReader, type ReadDocumentInput, readDocument } from '../../../src/domains/kyc/reader/index.ts';
import { documentReader } from '../../../src/domains/kyc/reader/pool.ts';
import {
  generateLicenceBack,
  generatePassportPage,
  SAMPLE_PASSPORT,
  SAMPLE_US_LICENCE,
} from '../../../src/domains/kyc/testdocs/index.ts';
import { cameraFrames } from '../api/helpers.ts';
import { jpegDeclaring } from '../images.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const frames = (count = 3) => cameraFrames(count).map((b64) => Buffer.from(b64, 'base64'));

afterAll(async () => {
  await closeReader();
});

/** A thread's nice value from its /proc stat line (field 19). */
const niceOf = (statFile: string) => {
  const stat = readFileSync(statFile, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};

/** The nice value of each thread of this process (Linux). */
function niceValues(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return [niceOf(`/proc/self/task/${tid}/stat`)];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

async function samples(): Promise<ReadDocumentInput[]> {
  const common = { mimeType: 'image/png', issuingCountry: 'US', now: NOW } as const;
  return [
    {
      ...common,
      side: 'back',
      documentType: 'drivers_license',
      image: await generateLicenceBack({ ...SAMPLE_US_LICENCE, country: 'US', aamvaVersion: 10 }),
    },
    { ...common, side: 'front', documentType: 'passport', image: generatePassportPage(SAMPLE_PASSPORT) },
    { ...common, side: 'back', documentType: 'drivers_license', image: Buffer.from('not an image') },
  ];
}

describe('the document reader on worker threads', () => {
  it('answers exactly what reading on this thread answers, several reads at once', async () => {
    const pool = documentReader({ threads: 2, timeoutMs: 60_000, queue: 8 });
    try {
      const inputs = await samples();
      const pooled = await Promise.all(inputs.map((input) => pool.read(input)));
      const here = [];
      for (const input of inputs) here.push(await readDocument(input));
      expect(pooled).toEqual(here);
      expect(pooled.map((r) => r.ok)).toEqual([true, true, false]);
    } finally {
      await pool.close();
    }
    // Six full reads (a passport's OCR twice): slow on a busy machine.
  }, 120_000);

  it('ends a read that outlives the timeout by ending its thread, and fails it', async () => {
    // No read can finish in 1 ms, so each is cut short: only possible off this thread.
    const pool = documentReader({ threads: 1, timeoutMs: 1, queue: 8 });
    try {
      const [input] = await samples();
      await expect(pool.read(input!)).rejects.toThrow(/thread ended/);
      // The pool replaces the thread: the next read runs (and is cut short) too, rather than hanging.
      await expect(pool.read(input!)).rejects.toThrow(/thread ended/);
    } finally {
      await pool.close();
    }
  });

  it('fails a read at once when the queue is full, and serves the others', async () => {
    const pool = documentReader({ threads: 1, timeoutMs: 60_000, queue: 1 });
    try {
      const [input] = await samples();
      // One read runs, one waits, the third finds the queue full.
      const [first, second, third] = [pool.read(input!), pool.read(input!), pool.read(input!)];
      await expect(third).rejects.toThrow(/busy: 1 tasks are waiting/);
      expect((await first).ok).toBe(true);
      expect((await second).ok).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('refuses reads once closed', async () => {
    const pool = documentReader({ threads: 1, timeoutMs: 60_000, queue: 8 });
    await pool.close();
    const [input] = await samples();
    await expect(pool.read(input!)).rejects.toThrow(/closed/);
  });

  it('checks face-scan frames on a thread, answering exactly what checking here answers', async () => {
    const pool = documentReader({ threads: 2, timeoutMs: 60_000, queue: 8 });
    try {
      const [a] = frames(1);
      const scans = [frames(), [a!, a!, a!], frames(2), [a!, Buffer.from('nope'), a!]];
      const pooled = await Promise.all(scans.map((scan) => pool.checkFaceScan(scan, FRAME_LIMITS)));
      expect(pooled).toEqual(scans.map((scan) => checkFaceScan(scan, FRAME_LIMITS)));
      expect(pooled.map((p) => p?.code ?? null)).toEqual([
        null,
        'face_scan_failed',
        'face_scan_failed',
        'face_scan_failed',
      ]);
    } finally {
      await pool.close();
    }
  });

  it('face scans and document reads share the one bounded queue', async () => {
    const pool = documentReader({ threads: 1, timeoutMs: 60_000, queue: 1 });
    try {
      const [input] = await samples();
      // A read runs, a face scan waits, then the queue is full for either kind.
      const running = pool.read(input!);
      const waiting = pool.checkFaceScan(frames(), FRAME_LIMITS);
      await expect(pool.checkFaceScan(frames(), FRAME_LIMITS)).rejects.toThrow(/busy: 1 tasks are waiting/);
      await expect(pool.read(input!)).rejects.toThrow(/busy/);
      expect((await running).ok).toBe(true);
      expect(await waiting).toBeNull();
    } finally {
      await pool.close();
    }
  });

  it('refuses by header on the calling thread, without a thread or a queue place', async () => {
    // No queue at all, and the only thread busy: anything that reached the queue would fail as busy.
    const pool = documentReader({ threads: 1, timeoutMs: 60_000, queue: 0 });
    try {
      const [input] = await samples();
      const running = pool.read(input!);
      const huge = jpegDeclaring(30_000, 30_000);
      expect(await pool.checkFaceScan([huge, huge, huge], FRAME_LIMITS)).toEqual({
        code: 'image_too_large',
        reason: expect.any(String),
      });
      expect(await pool.read({ ...input!, image: huge, mimeType: 'image/jpeg' })).toMatchObject({
        ok: false,
        code: 'image_too_large',
      });
      expect(await pool.read({ ...input!, mimeType: 'image/gif' })).toMatchObject({
        ok: false,
        code: 'unsupported_image',
      });
      await expect(pool.checkFaceScan(frames(), FRAME_LIMITS)).rejects.toThrow(/busy/);
      expect((await running).ok).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it.runIf(process.platform === 'linux')(
    "runs its threads below the calling thread's priority (nice 10), leaving the caller's as it was",
    async () => {
      const pool = documentReader({ threads: 1, timeoutMs: 60_000, queue: 8 });
      const callerBefore = niceOf('/proc/thread-self/stat');
      const before = niceValues().filter((nice) => nice === 10).length;
      try {
        // One face scan and one upload body: the image thread and the upload thread have started.
        expect(await pool.checkFaceScan(frames(), FRAME_LIMITS)).toBeNull();
        const body = await pool.readUploadBody({ bytes: Buffer.from('{}'), photos: [], keepText: false });
        expect(body.ok).toBe(true);
        expect(niceValues().filter((nice) => nice === 10).length).toBeGreaterThanOrEqual(before + 2);
        expect(niceOf('/proc/thread-self/stat')).toBe(callerBefore);
      } finally {
        await pool.close();
      }
    },
  );
});
