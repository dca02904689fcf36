import { describe, expect, it } from 'vitest';
import {
  AUTHORIZATION_TRANSITIONS,
  type AuthorizationMove,
  authorizationTransition,
} from '../../src/domains/purchases/authorization-states.ts';

describe('the checkout authorization state table', () => {
  it('has exactly one row per move, each ending a pending authorization in its own status', () => {
    const moves: AuthorizationMove[] = ['approve', 'decline', 'expire'];
    for (const move of moves) {
      expect(AUTHORIZATION_TRANSITIONS.filter((row) => row.move === move)).toHaveLength(1);
      expect(authorizationTransition(move).from).toBe('pending');
    }
    expect(moves.map((move) => authorizationTransition(move).to)).toEqual([
      'approved',
      'declined',
      'expired',
    ]);
  });

  it('has no row leaving an ended authorization', () => {
    const ends = new Set<string>(AUTHORIZATION_TRANSITIONS.map((row) => row.to));
    for (const row of AUTHORIZATION_TRANSITIONS) expect(ends.has(row.from)).toBe(false);
  });
});
