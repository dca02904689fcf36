import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_TRANSITIONS,
  type AttemptMove,
  attemptTransition,
} from '../../src/domains/connect/states.ts';

describe('the connect attempt state table', () => {
  it('has exactly one row per move, each ending a pending attempt', () => {
    const moves: AttemptMove[] = ['code_matched', 'checks_exhausted', 'delivery_failed'];
    for (const move of moves) {
      expect(ATTEMPT_TRANSITIONS.filter((row) => row.move === move)).toHaveLength(1);
      expect(attemptTransition(move).from).toBe('pending');
    }
    expect(attemptTransition('code_matched').to).toBe('verified');
    expect(attemptTransition('checks_exhausted').to).toBe('locked');
    expect(attemptTransition('delivery_failed').to).toBe('undeliverable');
  });

  it('has no row leaving a final status', () => {
    const finals = new Set(ATTEMPT_TRANSITIONS.map((row) => row.to));
    for (const row of ATTEMPT_TRANSITIONS) expect(finals.has(row.from)).toBe(false);
  });
});
