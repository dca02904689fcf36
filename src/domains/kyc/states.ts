/**
 * The KYC state machine (spec §3, "KYC status"), as one table. Every status change of a
 * verification goes through `nextStatus`; a move with no row here is refused (409 invalid_kyc_state).
 * docs/kyc.md explains the rows the spec leaves open.
 */

export const KYC_STATUSES = [
  'awaiting_documents',
  'needs_information',
  'requires_verification',
  'pending',
  'approved',
  'rejected',
] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** What happened to the verification. */
export type KycMove =
  /** Licence or state ID front accepted by the reader. */
  | 'front_accepted'
  /** Licence or state ID back accepted: the branch point. */
  | 'back_accepted'
  /** Passport data page accepted (uploaded as the front): passports have one page, so this is their branch point. */
  | 'passport_page_accepted'
  /** The fields listed in `required_fields` were submitted (API or hosted page). */
  | 'information_submitted'
  /** The hosted page was completed: details confirmed and the face scan taken. */
  | 'verification_completed'
  /** A production review (provider or the manual queue) decided. */
  | 'review_result'
  /** Test mode: the simulate-outcome call. */
  | 'simulate';

/**
 * Which branch a move took. `complete`: nothing is missing; `fields_missing`: some fields must be
 * collected; `not_verifiable`: the document cannot be accepted (e.g. the holder is under age);
 * `face_scan_pending` / `face_scan_done`: whether the face scan was already taken; review and simulate
 * outcomes name their verdict.
 */
export type KycCondition =
  | 'accepted'
  | 'complete'
  | 'fields_missing'
  | 'not_verifiable'
  | 'face_scan_pending'
  | 'face_scan_done'
  | 'approved'
  | 'rejected'
  | 'detail_mismatch'
  | 'images_unusable'
  | 'requires_input';

export interface KycTransition {
  from: KycStatus | 'any';
  move: KycMove;
  when: KycCondition;
  to: KycStatus;
  /** Why the row exists: the spec row it implements, or the decision documented in docs/kyc.md. */
  note: string;
}

/** Statuses from which the user can still change documents; a new front restarts the document step. */
const RESTARTABLE: KycStatus[] = ['awaiting_documents', 'needs_information', 'requires_verification'];

const branch = (
  from: KycStatus,
  move: 'back_accepted' | 'passport_page_accepted',
  note: string,
): KycTransition[] => [
  { from, move, when: 'fields_missing', to: 'needs_information', note },
  { from, move, when: 'complete', to: 'requires_verification', note },
  { from, move, when: 'not_verifiable', to: 'rejected', note },
];

export const KYC_TRANSITIONS: readonly KycTransition[] = [
  // Spec: front accepted stays awaiting_documents.
  ...RESTARTABLE.map(
    (from): KycTransition => ({
      from,
      move: 'front_accepted',
      when: 'accepted',
      to: 'awaiting_documents',
      note: from === 'awaiting_documents' ? 'spec' : 'decision: a new front restarts the document step',
    }),
  ),
  // Spec: the back upload is the branch point.
  ...branch('awaiting_documents', 'back_accepted', 'spec'),
  // Decision: the passport data page is the only page, so its upload is the branch point.
  // (A passport never carries an address, so its page always leaves fields to collect: no `complete` row.)
  ...RESTARTABLE.flatMap((from) =>
    branch(from, 'passport_page_accepted', 'decision: passports have one page, uploaded as the front').filter(
      (row) => row.when !== 'complete',
    ),
  ),
  // Decision: after the information submission the face scan is next, unless it was already taken
  // (a review asked for details after the scan): then the check re-runs at once.
  {
    from: 'needs_information',
    move: 'information_submitted',
    when: 'face_scan_pending',
    to: 'requires_verification',
    note: 'decision: the face scan comes next',
  },
  {
    from: 'needs_information',
    move: 'information_submitted',
    when: 'face_scan_done',
    to: 'pending',
    note: 'decision + spec: the check re-runs automatically',
  },
  // Decision: completing the hosted page is the only move into pending from the documents step.
  {
    from: 'requires_verification',
    move: 'verification_completed',
    when: 'complete',
    to: 'pending',
    note: 'decision: the hosted page moves the verification into review',
  },
  // Spec: review results from pending. Decision: approved and rejected come only from a review (or simulate).
  { from: 'pending', move: 'review_result', when: 'approved', to: 'approved', note: 'decision' },
  { from: 'pending', move: 'review_result', when: 'rejected', to: 'rejected', note: 'decision' },
  { from: 'pending', move: 'review_result', when: 'detail_mismatch', to: 'needs_information', note: 'spec' },
  { from: 'pending', move: 'review_result', when: 'images_unusable', to: 'awaiting_documents', note: 'spec' },
  // Spec: test mode simulate from any status; re-simulating overwrites.
  { from: 'any', move: 'simulate', when: 'approved', to: 'approved', note: 'spec' },
  { from: 'any', move: 'simulate', when: 'rejected', to: 'rejected', note: 'spec' },
  {
    from: 'any',
    move: 'simulate',
    when: 'requires_input',
    to: 'awaiting_documents',
    note: 'spec: retryable bounce',
  },
];

/** The status a move leads to from `from`, or null when the table has no such row. */
export function nextStatus(from: KycStatus, move: KycMove, when: KycCondition): KycStatus | null {
  const row =
    KYC_TRANSITIONS.find((t) => t.from === from && t.move === move && t.when === when) ??
    KYC_TRANSITIONS.find((t) => t.from === 'any' && t.move === move && t.when === when);
  return row ? row.to : null;
}

/** Can this move happen at all from `from` (whatever its branch)? */
export function allows(from: KycStatus, move: KycMove): boolean {
  return KYC_TRANSITIONS.some((t) => (t.from === from || t.from === 'any') && t.move === move);
}

/** Statuses on which the state carries an `iframe_url` (spec §2). */
export const ACTIONABLE: ReadonlySet<KycStatus> = new Set([
  'awaiting_documents',
  'needs_information',
  'requires_verification',
]);

/** Statuses on which the state may carry a `reason` (spec §2). */
export const REASON_ALLOWED: ReadonlySet<KycStatus> = new Set([
  'needs_information',
  'awaiting_documents',
  'requires_verification',
  'rejected',
]);
