import { describe, expect, it } from 'vitest';
import {
  CARD_TRANSITIONS,
  type CardMove,
  type CardStatus,
  nextCardStatus,
} from '../../src/domains/cards/states.ts';

const STATUSES: CardStatus[] = ['ACTIVE', 'PAUSED', 'CLOSED'];
const MOVES: CardMove[] = ['pause', 'resume', 'close', 'change'];

describe('the card state table', () => {
  it.each(CARD_TRANSITIONS.map((row) => [`${row.from} --${row.move}--> ${row.to}`, row] as const))(
    '%s',
    (_, row) => {
      expect(nextCardStatus(row.from, row.move)).toBe(row.to);
    },
  );

  it('has one row per status and move, and none that moves a closed card but to close it again', () => {
    for (const from of STATUSES)
      for (const move of MOVES) {
        const rows = CARD_TRANSITIONS.filter((row) => row.from === from && row.move === move);
        expect(rows.length, `${from} ${move}`).toBe(from === 'CLOSED' && move !== 'close' ? 0 : 1);
      }
    expect(nextCardStatus('CLOSED', 'resume')).toBeNull();
    expect(nextCardStatus('CLOSED', 'pause')).toBeNull();
    expect(nextCardStatus('CLOSED', 'change')).toBeNull();
  });

  it('never leaves CLOSED, and a change keeps the status', () => {
    for (const row of CARD_TRANSITIONS) {
      if (row.from === 'CLOSED') expect(row.to).toBe('CLOSED');
      if (row.move === 'change') expect(row.to).toBe(row.from);
    }
  });
});
