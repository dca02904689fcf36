/** The front door of `cards` (docs/architecture.md, "Walls"): what other domains may use. */
export { INTERVALS, REFUSING_RULES, windowStart } from './controls.ts';
export type { EventEmitter } from './events.ts';
export { categoryNamed, codeRanges, inRanges, MCC, merchantCategories } from './merchant-categories.ts';
export { checkCardholderDetails, isEmail } from './objects.ts';
export type { Card, CardService, SpendingControlsInput } from './service.ts';
export { cardFundingId, sandboxScope, scopeOf } from './service.ts';
export { cardOwners, cardsOfUsers, idsOfUser } from './store.ts';

/** Why the cards refuse (a service call or `purser issuer reconcile`). Its routes give each its HTTP status. */
export type CardRefusalCode =
  | 'invalid_request'
  | 'insufficient_funds'
  | 'sandbox_only'
  | 'card_details_unavailable'
  | 'not_found'
  | 'card_closed'
  | 'card_not_multi_use'
  | 'company_funded_card'
  | 'spend_limit_below_spent'
  | 'transaction_not_pending'
  | 'transaction_not_refundable'
  | 'transaction_not_settled'
  | 'transaction_refunded'
  | 'kyc_required'
  | 'issuer_error'
  | 'issuer_unavailable';
