import { describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/core/ids.ts';

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
