import { rowFor } from '../../core/state-table.ts';
import type { CheckoutAuthorizationsTable } from '../../db/schema.ts';

/**
 * The checkout authorization's state machine (docs/purchases.md, Approvals), as one table. An
 * authorization is `pending` from the confirm that needed the user's approval; each move ends it
 * with `checkout_authorization.<to>`, compared-and-set from the row's `from`, so of a decision and
 * the worker's expiry exactly one lands. A pending one past `expires_at` reads as `expired` before
 * the worker writes it.
 */

export type AuthorizationStatus = CheckoutAuthorizationsTable['status'];

export type AuthorizationMove =
  /** The user approved it with their passkey: the order is placed. */
  | 'approve'
  /** The user declined it: nothing moves. */
  | 'decline'
  /** Its time passed (the worker), or a newer confirm of the same cart replaced it. */
  | 'expire';

export interface AuthorizationTransition {
  from: AuthorizationStatus;
  move: AuthorizationMove;
  to: Exclude<AuthorizationStatus, 'pending'>;
}

export const AUTHORIZATION_TRANSITIONS: readonly AuthorizationTransition[] = [
  { from: 'pending', move: 'approve', to: 'approved' },
  { from: 'pending', move: 'decline', to: 'declined' },
  { from: 'pending', move: 'expire', to: 'expired' },
];

/** The table's row for `move` (every move has exactly one). */
export const authorizationTransition = (move: AuthorizationMove): AuthorizationTransition =>
  rowFor(AUTHORIZATION_TRANSITIONS, move);
