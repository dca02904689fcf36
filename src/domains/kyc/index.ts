/** The front door of `kyc` (docs/architecture.md, "Walls"): what other domains may use. */
export { INFORMATION_FIELDS, type InformationField } from './fields.ts';
export { type PageLinkProblem, type PageView, pageCookieName } from './hosted-page.ts';
export type { ReviewDecision } from './review.ts';
/** The KYC state object's schema, which the hosted page renders too. */
export { KycState } from './routes.ts';
export type { KycService } from './service.ts';
export { KYC_STATUSES } from './states.ts';
export { latestOfUsers } from './store.ts';
/** The synthetic documents the sandbox serves at /sandbox/test-documents. */
export { type SampleFile, sampleSet } from './testdocs/index.ts';
/** The hosted page's face scan is an upload too: its frames are read off the API's thread. */
export { photoFields, photoOf, readUploadsOffThread } from './upload-body.ts';

/**
 * Why KYC refuses (the platform API, the operators' review queue, the hosted page). Its routes give
 * each its HTTP status; the hosted page's script shows the message and field errors as they come.
 */
export type KycRefusalCode =
  | 'invalid_request'
  | 'invalid_reason'
  | 'session_expired'
  | 'sandbox_only'
  | 'not_found'
  | 'invalid_kyc_state'
  | 'user_conflict'
  | 'document_unreadable'
  | 'document_expired'
  | 'document_mismatch'
  | 'specimen_document'
  | 'image_too_large'
  | 'face_scan_failed'
  | 'rate_limited'
  | 'verification_error';
