import { describe, expect, it, vi } from 'vitest';
import { newId, pooledRandomBytes, sequentialIds } from '../../src/core/ids.ts';

describe('newId', () => {
  it('sorts ids in the order they were made, within one millisecond too', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('evt'));
    expect(ids.every((id) => /^evt_[0-9A-Za-z]{30}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the order when the clock steps back', () => {
    const first = newId('evt');
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.now() - 60_000);
    try {
      const later = [newId('evt'), newId('evt')];
      expect([first, ...later].sort()).toEqual([first, ...later]);
    } finally {
      now.mockRestore();
    }
  });
});

describe('sequentialIds', () => {
  it("makes <prefix>_<32 hex>: the time in milliseconds, a counter, the generator's tag", () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(0x18c_2a3b_4c5d);
    try {
      const next = sequentialIds('req');
      const ids = Array.from({ length: 300 }, () => next());
      expect(ids.every((id) => /^req_[0-9a-f]{32}$/.test(id))).toBe(true);
      expect(ids[0]!.slice(0, 24)).toBe('req_018c2a3b4c5d00000001');
      expect(ids[299]!.slice(0, 24)).toBe('req_018c2a3b4c5d0000012c');
      expect(new Set(ids.map((id) => id.slice(24))).size).toBe(1);
      expect([...ids].sort()).toEqual(ids);
      now.mockReturnValue(0x18c_2a3b_4c5e);
      expect(next().slice(0, 24)).toBe('req_018c2a3b4c5e0000012d');
    } finally {
      now.mockRestore();
    }
  });

  it('gives two generators different tags', () => {
    expect(sequentialIds('log')().slice(24)).not.toBe(sequentialIds('log')().slice(24));
  });
});

describe('pooledRandomBytes', () => {
  it('gives bytes of their own, never the same twice, across refills of the pool', () => {
    // 12-byte draws (a seal's IV) over several 4 KiB pools, so that some draw meets a refill.
    const draws = Array.from({ length: 2_000 }, () => pooledRandomBytes(12));
    expect(draws.every((bytes) => bytes.length === 12)).toBe(true);
    expect(new Set(draws.map((bytes) => bytes.toString('hex'))).size).toBe(draws.length);
    // Each draw is a copy: refilling the pool under it changes nothing its holder sees.
    const kept = pooledRandomBytes(16);
    const before = kept.toString('hex');
    for (let i = 0; i < 1_000; i++) pooledRandomBytes(16);
    expect(kept.toString('hex')).toBe(before);
    // More than a pool holds is refused, not answered short.
    expect(() => pooledRandomBytes(4097)).toThrow(RangeError);
    expect(pooledRandomBytes(4096)).toHaveLength(4096);
    // Not all zero (a pool never filled would be): 96 zero bits by chance is out of the question.
    expect(draws.some((bytes) => bytes.some((byte) => byte !== 0))).toBe(true);
  });
});
