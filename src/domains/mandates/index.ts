/** The front door of spending mandates (docs/architecture.md, "Walls"): what other domains may use. */
export type { ApprovalPageView } from './approval.ts';
export type { MandateObject, MandateService } from './service.ts';
export { MANDATE_STATUSES } from './states.ts';
/** The mandate as `MandateService.fromLink` hands it to the approval page. */
export { type MandateRow, mandatesOf } from './store.ts';
export { BUDGET_INTERVALS, type MandateTerms } from './terms.ts';

/** Why the mandates refuse (a service call or the hosted approval). Its routes give each its HTTP status. */
export type MandateRefusalCode =
  | 'invalid_request'
  | 'passkey_invalid'
  | 'passkey_required'
  | 'not_found'
  | 'invalid_mandate_state'
  | 'link_used'
  | 'terms_changed'
  | 'link_expired';
