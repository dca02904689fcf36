/** The front door of `merchant-accounts` (docs/architecture.md, "Walls"): what other domains may use. */
export type { NewLinking } from './linking.ts';
export type { MerchantAccountService } from './service.ts';
export { CALLBACK_PATH, type CallbackOutcome, type LinkPageProblem, type LinkPageView } from './service.ts';
