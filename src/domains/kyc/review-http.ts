import { guardedRequest, type OutboundGuard } from '../../core/http/client.ts';
import type { KycReviewer, ReviewSubmission } from './review.ts';

export interface HttpReviewerConfig {
  /** The provider's endpoint that takes review requests (`KYC_REVIEW_URL`). */
  url: string;
  /** Sent as `Authorization: Bearer …` when set (`KYC_REVIEW_API_KEY`). */
  apiKey: string | null;
  /** Where the provider sends its verdict: the review API, `{baseUrl}/operator/kyc/reviews/{id}/…`. */
  baseUrl: string;
  timeoutMs: number;
}

/**
 * An identity-review provider over HTTP. Each live verification that enters pending is POSTed to
 * the provider as a `kyc_review_request`; any 2xx means the provider has it. The provider answers
 * later through the review API (bearer `KYC_REVIEWER_TOKEN`) at the URLs the request names, so its
 * verdict takes the same path as a person's. A request may arrive more than once (a retry after a
 * lost answer): `id` identifies the verification, `Idempotency-Key` the hand-over.
 */
export class HttpReviewer implements KycReviewer {
  readonly name = 'http';

  constructor(
    private readonly config: HttpReviewerConfig,
    /** The operator's outbound policy (core/http/policy.ts): the provider is reached through the guard. */
    private readonly guard: OutboundGuard,
  ) {}

  async submit(submission: ReviewSubmission): Promise<void> {
    const decide = `${this.config.baseUrl}/operator/kyc/reviews/${encodeURIComponent(submission.verificationId)}`;
    const answer = await guardedRequest(
      new URL(this.config.url),
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `${submission.verificationId}.${submission.submittedAt}`,
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          object: 'kyc_review_request',
          id: submission.verificationId,
          organization_id: submission.organizationId,
          user_id: submission.userId,
          document_type: submission.documentType,
          issuing_country: submission.issuingCountry,
          extracted: submission.extracted,
          information: submission.information,
          national_id_number: submission.nationalIdNumber,
          decide: {
            approve: `${decide}/approve`,
            reject: `${decide}/reject`,
            request_information: `${decide}/request_information`,
            request_documents: `${decide}/request_documents`,
          },
        }),
      },
      { ...this.guard, timeoutMs: this.config.timeoutMs },
    );
    if (answer.kind === 'failure') throw new Error(`review provider not reached: ${answer.error}`);
    if (answer.status < 200 || answer.status > 299)
      throw new Error(`review provider answered ${answer.status}`);
  }
}
