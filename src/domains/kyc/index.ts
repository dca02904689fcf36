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
