import { describe, expect, it } from 'vitest';
import type { CardFlowStatus } from '../../src/db/schema.ts';
import { FLOW_TRANSITIONS, flowTransition } from '../../src/domains/funding/flow-states.ts';

const FINAL: CardFlowStatus[] = ['failed', 'card_created', 'card_failed'];

describe('the card flow state table', () => {
  it.each(FLOW_TRANSITIONS.map((row) => [`${row.from} --${row.move}--> ${row.to}`, row] as const))(
    '%s',
    (_, row) => {
      expect(flowTransition(row.move)).toBe(row);
    },
  );

  it('has one row per move, none leaving a final status, and every status but the finals left somehow', () => {
    const moves = FLOW_TRANSITIONS.map((row) => row.move);
    expect(new Set(moves).size).toBe(moves.length);
    for (const row of FLOW_TRANSITIONS) expect(FINAL).not.toContain(row.from);
    const left = new Set(FLOW_TRANSITIONS.map((row) => row.from));
    for (const status of ['awaiting_collection', 'started', 'approved', 'initiated', 'completed'] as const)
      expect(left.has(status), status).toBe(true);
  });

  it('fails only before the money moved to the user, and ends a moved flow in a card or card_failed', () => {
    for (const row of FLOW_TRANSITIONS.filter((r) => r.to === 'failed'))
      expect(['awaiting_collection', 'initiated']).toContain(row.from);
    expect(
      FLOW_TRANSITIONS.filter((row) => row.from === 'completed')
        .map((row) => row.to)
        .sort(),
    ).toEqual(['card_created', 'card_failed']);
  });
});
