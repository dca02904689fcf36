import { rowFor } from '../../core/state-table.ts';
import type { ConnectAttempt } from '../../db/schema.ts';

/**
 * The connect attempt's state machine (spec §4, connect start and verify), as one table. An attempt
 * is `pending` from its start; each move ends it, compared-and-set by the store from the row's
 * `from` (so of two requests at once exactly one moves it). `verified`, `locked` and
 * `undeliverable` are final: a verify on them is `invalid_connect_attempt`.
 */

export type AttemptStatus = ConnectAttempt['status'];

export type AttemptMove =
  /** The code matched: the attempt connects (or signs in) its user, once. */
  | 'code_matched'
  /** The last wrong code spent the attempt's checks. */
  | 'checks_exhausted'
  /** The provider could not deliver the code. */
  | 'delivery_failed';

export interface AttemptTransition {
  from: AttemptStatus;
  move: AttemptMove;
  to: AttemptStatus;
}

export const ATTEMPT_TRANSITIONS: readonly AttemptTransition[] = [
  { from: 'pending', move: 'code_matched', to: 'verified' },
  { from: 'pending', move: 'checks_exhausted', to: 'locked' },
  { from: 'pending', move: 'delivery_failed', to: 'undeliverable' },
];

/** The table's row for `move` (every move has exactly one). */
export const attemptTransition = (move: AttemptMove): AttemptTransition => rowFor(ATTEMPT_TRANSITIONS, move);
