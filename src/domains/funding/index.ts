/** The front door of `funding` (docs/architecture.md, "Walls"): what other domains may use. */
export type { Chain } from './chain/index.ts';
export { CardFlowFields, cardFlowExample } from './routes.ts';
export type { FundingService } from './service.ts';
export { companyWalletOpened } from './store.ts';

/** Why funding refuses (a card flow, or `purser chain reconcile`). Its routes give each its HTTP status. */
export type FundingRefusalCode =
  | 'not_found'
  | 'kyc_required'
  | 'transfer_not_awaiting_ack'
  | 'ack_deadline_passed'
  | 'chain_unavailable';
