import type { InformationField } from './fields.ts';

/**
 * Production identity review, behind one interface. When a live verification enters `pending` the
 * service hands it to the reviewer; the verdict comes back later through `KycService.applyReview`
 * (from the manual queue's API or CLI, or from a provider adapter). Sandbox verifications are never
 * submitted: they stay pending until the simulate call decides them.
 */
export interface KycReviewer {
  /** A name for the audit trail (`kyc_transitions.actor`). */
  readonly name: string;
  /** Called after the move into pending has committed. Must not throw for a queued submission. */
  submit(submission: ReviewSubmission): Promise<void>;
}

export interface ReviewSubmission {
  verificationId: string;
  /** When it entered pending (ms): with the id, names this hand-over. */
  submittedAt: number | null;
  organizationId: string;
  userId: string;
  documentType: string | null;
  issuingCountry: string | null;
  /** What was read off the documents, merged, and what the user confirmed or submitted. */
  extracted: Record<string, string>;
  information: Record<string, string>;
  /** As the user submitted it, when asked for; erased from storage once the reviewer has it. */
  nationalIdNumber: string | null;
}

/** The verdicts a review can reach (spec §3: review results from pending). */
export type ReviewDecision =
  | { outcome: 'approved' }
  | { outcome: 'rejected'; reason: string }
  /** A detail did not match the document: re-collect these fields. */
  | { outcome: 'needs_information'; fields: InformationField[]; reason: string }
  /** The images were unusable: upload both sides again. */
  | { outcome: 'needs_documents'; reason: string };

/**
 * The built-in reviewer: the queue is simply every live verification in `pending`, oldest first,
 * worked by people through `GET /operator/kyc/reviews` or `purser kyc review …`.
 */
export class ManualReviewQueue implements KycReviewer {
  readonly name = 'manual';
  async submit(_submission: ReviewSubmission): Promise<void> {
    // Nothing to send: being pending is being in the queue.
  }
}
