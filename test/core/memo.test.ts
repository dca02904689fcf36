import { describe, expect, it } from 'vitest';
import { remembered } from '../../src/core/memo.ts';

describe('remembered', () => {
  it('makes a value once per key, keeps null, and starts over past its bound', () => {
    const memory = new Map<string, string | null>();
    const made: string[] = [];
    const make = (key: string) => {
      made.push(key);
      return key === 'none' ? null : key.toUpperCase();
    };
    expect(remembered(memory, 3, 'a', make)).toBe('A');
    expect(remembered(memory, 3, 'a', make)).toBe('A');
    expect(remembered(memory, 3, 'none', make)).toBeNull();
    expect(remembered(memory, 3, 'none', make)).toBeNull();
    expect(made).toEqual(['a', 'none']);
    remembered(memory, 3, 'b', make);
    expect(memory.size).toBe(3);
    // A fourth key: the memory starts over with it alone, and the first is made again when asked.
    expect(remembered(memory, 3, 'c', make)).toBe('C');
    expect([...memory.keys()]).toEqual(['c']);
    remembered(memory, 3, 'a', make);
    expect(made).toEqual(['a', 'none', 'b', 'c', 'a']);
  });
});
