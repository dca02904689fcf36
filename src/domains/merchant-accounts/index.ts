/** The front door of `merchant-accounts` (docs/architecture.md, "Walls"): what other domains may use. */
export type { NewLinking } from './linking.ts';
export type { MerchantAccountService } from './service.ts';
export { CALLBACK_PATH, type CallbackOutcome, type LinkPageProblem, type LinkPageView } from './service.ts';

/** Why merchant account linking refuses (a service call). Its routes give each its HTTP status. */
export type MerchantAccountRefusalCode = 'invalid_request' | 'not_found' | 'merchant_linking_unsupported';
