/** The front door of `funding` (docs/architecture.md, "Walls"): what other domains may use. */
export type { Chain } from './chain/index.ts';
export { CardFlowFields, cardFlowExample } from './routes.ts';
export type { FundingService } from './service.ts';
export { companyWalletOpened } from './store.ts';
