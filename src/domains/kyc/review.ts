import { cursorOf, pageOf } from '../../core/pagination.ts';
import { invalid, missing, Refusal } from '../../core/refusal.ts';
import { INFORMATION_FIELDS, type InformationField } from './fields.ts';
import type { KycRefusalCode } from './index.ts';
import { unsafeReason } from './reason.ts';
import type { KycCondition } from './states.ts';
import type { KycVerification } from './store.ts';
import * as store from './store.ts';
import { DOCUMENT_RESET, invalidState, type Verifications } from './verifications.ts';

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

/** Production review: the queue of live pending verifications, their verdicts, and owed hand-overs. */
export class KycReviews {
  constructor(private readonly v: Verifications) {}

  /**
   * The manual review queue: live verifications in pending, oldest first, in the one list envelope
   * (core/pagination.ts); `startingAfter` must be a verification of the queue.
   */
  async reviewQueue(input: { limit?: number; organizationId?: string; startingAfter?: string } = {}) {
    const limit = Math.min(Math.max(input.limit ?? 50, 1), 500);
    const inQueue = (row: KycVerification | undefined) =>
      row?.livemode === 1 &&
      row.status === 'pending' &&
      (input.organizationId === undefined || row.organization_id === input.organizationId)
        ? row
        : undefined;
    const after = await cursorOf(
      input.startingAfter,
      async (id) => inQueue(await store.findById(this.v.db, id)),
      'a verification',
    );
    const rows = await store.listPending(this.v.db, {
      livemode: 1,
      limit: limit + 1,
      ...(input.organizationId ? { organizationId: input.organizationId } : {}),
      ...(after ? { after } : {}),
    });
    const page = pageOf(rows, limit);
    return { ...page, data: page.data.map((row) => this.item(row)) };
  }

  /** Applies a review verdict to a live verification in pending (spec §3: review results). */
  async applyReview(verificationId: string, decision: ReviewDecision, reviewer: string) {
    const row = await store.findById(this.v.db, verificationId);
    if (!row) throw missing('No such verification.');
    if (row.livemode !== 1)
      throw invalidState(row.status, 'test-mode verifications are decided with the simulate call.');
    if (row.status !== 'pending')
      throw invalidState(row.status, 'only pending verifications can be reviewed.');
    const reason = decision.outcome === 'approved' ? undefined : decision.reason.trim();
    if (decision.outcome !== 'approved') {
      if (!reason) throw invalid('A reason is required.', { reason: 'is required' });
      if (reason.length > 300)
        throw invalid('The reason is too long.', { reason: 'must be at most 300 characters' });
      const problem = unsafeReason(reason);
      if (problem)
        throw new Refusal<KycRefusalCode>('invalid_reason', problem, { fieldErrors: { reason: problem } });
    }
    let requiredFields: InformationField[] | undefined;
    if (decision.outcome === 'needs_information') {
      const unknown = decision.fields.filter((f) => !INFORMATION_FIELDS.includes(f));
      if (decision.fields.length === 0 || unknown.length > 0)
        throw invalid('Name the fields to collect again.', {
          fields: `must be one or more of: ${INFORMATION_FIELDS.join(', ')}`,
        });
      requiredFields = [...new Set(decision.fields)];
    }
    const when: Record<ReviewDecision['outcome'], KycCondition> = {
      approved: 'approved',
      rejected: 'rejected',
      needs_information: 'detail_mismatch',
      needs_documents: 'images_unusable',
    };
    const updated = await this.v.transition(row, 'review_result', when[decision.outcome], {
      actor: `review:${reviewer}`,
      ...(reason !== undefined ? { reason } : {}),
      ...(requiredFields ? { requiredFields } : {}),
      changes:
        decision.outcome === 'needs_documents'
          ? { ...DOCUMENT_RESET, decided_at: null }
          : { decided_at: decision.outcome === 'needs_information' ? null : this.v.clock.now() },
    });
    return this.item(updated);
  }

  /**
   * Worker chore: hands over again every live pending verification whose hand-over is owed and
   * older than `graceMs` (so as not to race the one made right after the move).
   */
  async retryReviewSubmissions(graceMs: number, limit = 100): Promise<{ submitted: number; failed: number }> {
    const owed = await store.listOwedReviews(this.v.db, { before: this.v.clock.now() - graceMs, limit });
    let submitted = 0;
    for (const row of owed) if (await this.v.submitForReview(row)) submitted++;
    return { submitted, failed: owed.length - submitted };
  }

  private item(row: KycVerification) {
    return {
      object: 'kyc_review' as const,
      id: row.id,
      organization_id: row.organization_id,
      user_id: row.user_id,
      status: row.status,
      document_type: row.document_type,
      issuing_country: row.issuing_country,
      extracted: this.v.extractedOf(row) as Record<string, string>,
      information: this.v.open<Record<string, string>>(row, 'information') ?? {},
      national_id_submitted: row.national_id_digest !== null || row.national_id_sealed !== null,
      face_scan_at: row.face_scan_at === null ? null : new Date(row.face_scan_at).toISOString(),
      submitted_at: row.submitted_at === null ? null : new Date(row.submitted_at).toISOString(),
    };
  }
}
