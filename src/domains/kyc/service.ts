import type { Clock } from '../../core/clock.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Db } from '../../db/index.ts';
import type { Principal } from '../auth/index.ts';
import { type DocumentUpload, KycDocuments } from './documents.ts';
import type { Information } from './fields.ts';
import { KycHostedPage, type PageLinkProblem, type PageView } from './hosted-page.ts';
import type { KycRefusalCode } from './index.ts';
import type { UploadBody, UploadBodyTask } from './reader/upload.ts';
import { unsafeReason } from './reason.ts';
import { KycRetention } from './retention.ts';
import { KycReviews, type ReviewDecision } from './review.ts';
import { allows } from './states.ts';
import type { KycVerification } from './store.ts';
import {
  type ApprovalListener,
  type ApprovedIdentity,
  DOCUMENT_RESET,
  invalidState,
  type KycDeps,
  type KycServiceConfig,
  type KycStateObject,
  TEXT,
  Verifications,
} from './verifications.ts';

export type { DocumentUpload } from './documents.ts';
export { decodeBase64Image } from './documents.ts';
export { type PageLinkProblem, type PageView, pageCookieName } from './hosted-page.ts';
export { NATIONAL_ID_RETENTION_MS } from './retention.ts';
export type { KycStatus } from './states.ts';
export {
  type ApprovalListener,
  type ApprovedIdentity,
  KYC_EVENT,
  type KycEventEmitter,
  type KycStateObject,
} from './verifications.ts';

export const SIMULATE_OUTCOMES = ['approved', 'rejected', 'requires_input'] as const;
export type SimulateOutcome = (typeof SIMULATE_OUTCOMES)[number];

/**
 * The door of the KYC domain: the platform API's use cases, and the parts it is split into
 * (documents, review, hosted page, retention) behind the methods others call.
 */
export class KycService {
  private readonly v: Verifications;
  private readonly documents: KycDocuments;
  private readonly reviews: KycReviews;
  private readonly page: KycHostedPage;
  private readonly retention: KycRetention;

  constructor(db: Db, clock: Clock, config: KycServiceConfig, deps: KycDeps) {
    this.v = new Verifications(db, clock, config, deps);
    this.documents = new KycDocuments(this.v);
    this.reviews = new KycReviews(this.v);
    this.page = new KycHostedPage(this.v);
    this.retention = new KycRetention(this.v);
  }

  /** Runs `listener` in every transaction that moves a verification into `approved`. */
  onApproved(listener: ApprovalListener): void {
    this.v.approvalListeners.push(listener);
  }

  /** The identity an approved verification established, or null while the user is not approved. */
  async approvedIdentity(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<ApprovedIdentity | null> {
    const row = await this.v.inTenant(organizationId, livemode, userId);
    return row?.status === 'approved' ? this.v.identityOf(row) : null;
  }

  /** The user's verification status in this organization and mode; null before any verification. */
  async verificationStatus(
    organizationId: string,
    livemode: boolean,
    userId: string,
  ): Promise<KycVerification['status'] | null> {
    return (await this.v.inTenant(organizationId, livemode, userId))?.status ?? null;
  }

  /** Parses an upload's body and decodes its photos, off the API's thread (upload-body.ts). */
  readUploadBody(task: UploadBodyTask): Promise<UploadBody> {
    return this.v.deps.reader.readUploadBody(task);
  }

  // ---- platform API -------------------------------------------------------------------------

  /** GET /api/v2/kyc: the current state (a verification starts at awaiting_documents). */
  async state(principal: Principal, userId: string): Promise<KycStateObject> {
    const row = await this.v.of(principal, userId);
    return this.v.present(row);
  }

  /** POST /api/v2/kyc/documents/{front,back}. */
  uploadDocument(
    principal: Principal,
    side: 'front' | 'back',
    input: DocumentUpload,
  ): Promise<KycStateObject> {
    return this.documents.uploadDocument(principal, side, input);
  }

  /** POST /api/v2/kyc/information: exactly the fields `required_fields` listed. */
  async submitInformation(
    principal: Principal,
    input: { user_id: string } & Information,
  ): Promise<KycStateObject> {
    const row = await this.v.of(principal, input.user_id);
    if (!allows(row.status, 'information_submitted'))
      throw invalidState(row.status, 'no information is requested now.');
    const { user_id: _userId, ...fields } = input;
    const updated = await this.v.acceptInformation(row, fields, { actor: 'api', exact: true });
    return this.v.present(updated);
  }

  /** POST /api/v2/kyc/simulate: test mode only; decides the verification from any status. */
  async simulate(
    principal: Principal,
    input: { user_id: string; outcome: SimulateOutcome; reason?: string },
  ): Promise<KycStateObject> {
    if (principal.livemode)
      throw new Refusal<KycRefusalCode>(
        'sandbox_only',
        'Simulating an outcome needs a test-mode credential.',
      );
    const row = await this.v.of(principal, input.user_id);
    const reason = input.reason?.trim() || undefined;
    if (reason !== undefined) {
      const problem = unsafeReason(reason);
      if (problem)
        throw new Refusal<KycRefusalCode>('invalid_reason', problem, { fieldErrors: { reason: problem } });
    }
    const defaults: Record<SimulateOutcome, string | undefined> = {
      approved: undefined,
      rejected: TEXT.simulatedRejected,
      requires_input: TEXT.simulatedRequiresInput,
    };
    const now = this.v.clock.now();
    await this.v.transition(row, 'simulate', input.outcome, {
      actor: 'simulate',
      reason: reason ?? defaults[input.outcome],
      alwaysEmit: true,
      changes:
        input.outcome === 'requires_input'
          ? { ...DOCUMENT_RESET, submitted_at: null, decided_at: null }
          : { decided_at: now },
    });
    return this.state(principal, input.user_id);
  }

  // ---- production review ----------------------------------------------------------------------

  /** The manual review queue: live verifications in pending, oldest first. */
  reviewQueue(input: { limit?: number; organizationId?: string; startingAfter?: string } = {}) {
    return this.reviews.reviewQueue(input);
  }

  /** Applies a review verdict to a live verification in pending (spec §3: review results). */
  applyReview(verificationId: string, decision: ReviewDecision, reviewer: string) {
    return this.reviews.applyReview(verificationId, decision, reviewer);
  }

  /** Worker chore: hands over again the owed hand-overs older than `graceMs`. */
  retryReviewSubmissions(graceMs: number, limit?: number): Promise<{ submitted: number; failed: number }> {
    return this.reviews.retryReviewSubmissions(graceMs, limit);
  }

  // ---- hosted page ----------------------------------------------------------------------------

  /** Opens the hosted page from a link (see KycHostedPage.openPage). */
  openPage(
    token: string,
    browserSession?: string,
    options: { takeOver?: boolean } = {},
  ): Promise<PageView | PageLinkProblem> {
    return this.page.openPage(token, browserSession, options);
  }

  /** The verification behind an open page session of this browser, or null. */
  pageSession(sessionToken: string, cookies: Record<string, string> = {}): Promise<KycVerification | null> {
    return this.page.pageSession(sessionToken, cookies);
  }

  /** The hosted page's submission; returns the new state. */
  submitPage(
    sessionToken: string,
    input: { fields: Information; frames?: (string | Buffer)[] },
    cookies: Record<string, string> = {},
  ): Promise<KycStateObject> {
    return this.page.submitPage(sessionToken, input, cookies);
  }

  // ---- retention ------------------------------------------------------------------------------

  /** Worker chore: erases overdue sealed national ids and re-keys stale document keys. */
  sweepPersonalData(limit?: number): Promise<{ nationalIdsErased: number; documentKeysRekeyed: number }> {
    return this.retention.sweepPersonalData(limit);
  }
}
