import { afterAll, describe, expect, it } from 'vitest';
import { closeReader, type ReadDocumentInput, readDocument } from '../../../src/domains/kyc/reader/index.ts';
import { documentReader } from '../../../src/domains/kyc/reader/pool.ts';
import {
  generateLicenceBack,
  generatePassportPage,
  SAMPLE_PASSPORT,
  SAMPLE_US_LICENCE,
} from '../../../src/domains/kyc/testdocs/index.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

afterAll(async () => {
  await closeReader();
});

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
  });

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
});
