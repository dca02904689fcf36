/**
 * The mandate state machine (docs/mandates.md "States"), as one table. Every status change of a
 * mandate goes through `nextStatus`; a move with no row here changes nothing.
 */

export const MANDATE_STATUSES = ['pending_approval', 'active', 'exhausted', 'expired', 'revoked'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

/** What happened to the mandate. */
export type MandateMove =
  /** The user signed the terms with a passkey (hosted approval page, or the OAuth consent page). */
  | 'approved'
  /** The platform (`DELETE /api/v2/mandates/{id}`) or the user (connected-apps page) revoked it. */
  | 'revoked'
  /** The user declined the terms on the approval page. */
  | 'declined'
  /** A charge (or a clearing above its hold) used the last cent of a `total` budget. */
  | 'budget_used_up'
  /** A refund, void, expiry or clearing below the hold gave budget back to a used-up `total` budget. */
  | 'budget_returned'
  /** The worker's chores found it past `expires_at`. */
  | 'expired';

export interface MandateTransition {
  from: MandateStatus;
  move: MandateMove;
  to: MandateStatus;
  /** The event the move emits, in the transaction that makes it (null: none). */
  event: 'mandate.approved' | 'mandate.revoked' | 'mandate.exhausted' | 'mandate.expired' | null;
  /** Why the row exists: the rule or the decision documented in docs/mandates.md. */
  note: string;
}

export const MANDATE_TRANSITIONS: readonly MandateTransition[] = [
  { from: 'pending_approval', move: 'approved', to: 'active', event: 'mandate.approved', note: 'issue 28' },
  {
    from: 'pending_approval',
    move: 'revoked',
    to: 'revoked',
    event: 'mandate.revoked',
    note: 'decision: the platform may withdraw terms the user has not signed yet',
  },
  {
    from: 'pending_approval',
    move: 'declined',
    to: 'revoked',
    event: 'mandate.revoked',
    note: 'decision: terms the user declined can never be approved (the platform asks again with new ones)',
  },
  {
    from: 'pending_approval',
    move: 'expired',
    to: 'expired',
    event: 'mandate.expired',
    note: 'decision: terms never signed before their end are over too',
  },
  { from: 'active', move: 'revoked', to: 'revoked', event: 'mandate.revoked', note: 'issue 28' },
  { from: 'active', move: 'expired', to: 'expired', event: 'mandate.expired', note: 'issue 28' },
  { from: 'active', move: 'budget_used_up', to: 'exhausted', event: 'mandate.exhausted', note: 'issue 28' },
  {
    from: 'exhausted',
    move: 'budget_returned',
    to: 'active',
    event: null,
    note: 'decision: a refund gives budget back (issue 28), so the mandate can spend it again',
  },
  {
    from: 'exhausted',
    move: 'revoked',
    to: 'revoked',
    event: 'mandate.revoked',
    note: 'decision: revoking an exhausted mandate stops a refund from reopening it',
  },
  {
    from: 'exhausted',
    move: 'expired',
    to: 'expired',
    event: 'mandate.expired',
    note: 'decision: past its end',
  },
];

/** The row for a move from `from`, or null when the move is not allowed there. */
export function transition(from: MandateStatus, move: MandateMove): MandateTransition | null {
  return MANDATE_TRANSITIONS.find((t) => t.from === from && t.move === move) ?? null;
}

/** Statuses no move leaves. */
export const FINAL: ReadonlySet<MandateStatus> = new Set(['expired', 'revoked']);
