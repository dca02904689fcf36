/** The front door of `kyc` (docs/architecture.md, "Walls"): what other domains may use. */
export type { KycService } from './service.ts';
export { latestOfUsers } from './store.ts';
