import type { Card } from './service.ts';

/**
 * The card state machine (spec §3, "Card status"), as one table. Every status a card takes after
 * issue comes from `nextCardStatus`; a move with no row here is refused (409 card_closed): a closed
 * card never changes again.
 */

export type CardStatus = Card['status'];

/** What is asked of the card. */
export type CardMove =
  /** Pause (spec §4): the engine declines its charges with CARD_PAUSED. */
  | 'pause'
  /** Resume a paused card. */
  | 'resume'
  /** Close it, for any `closed_reason`; what it can still spend returns to its owner. */
  | 'close'
  /** Change its spending controls or its spend limit; the status stays. */
  | 'change';

export interface CardTransition {
  from: CardStatus;
  move: CardMove;
  to: CardStatus;
  /** Why the row exists. */
  note: string;
}

export const CARD_TRANSITIONS: readonly CardTransition[] = [
  { from: 'ACTIVE', move: 'pause', to: 'PAUSED', note: 'spec §4 pause' },
  { from: 'PAUSED', move: 'pause', to: 'PAUSED', note: 'pausing a paused card answers it unchanged' },
  { from: 'PAUSED', move: 'resume', to: 'ACTIVE', note: 'spec §4 resume' },
  { from: 'ACTIVE', move: 'resume', to: 'ACTIVE', note: 'resuming an active card answers it unchanged' },
  { from: 'ACTIVE', move: 'close', to: 'CLOSED', note: 'spec §4 close, or the engine (spent, exhausted)' },
  { from: 'PAUSED', move: 'close', to: 'CLOSED', note: 'a paused card closes too' },
  { from: 'CLOSED', move: 'close', to: 'CLOSED', note: 'spec §4: closing a closed card answers 200' },
  { from: 'ACTIVE', move: 'change', to: 'ACTIVE', note: 'controls and limit change on an open card' },
  { from: 'PAUSED', move: 'change', to: 'PAUSED', note: 'and on a paused one' },
];

/** The status `move` takes a card in `from` to; null when the table has no row (the card is closed). */
export function nextCardStatus(from: CardStatus, move: CardMove): CardStatus | null {
  return CARD_TRANSITIONS.find((row) => row.from === from && row.move === move)?.to ?? null;
}
