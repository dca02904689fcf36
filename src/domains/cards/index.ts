/** The front door of `cards` (docs/architecture.md, "Walls"): what other domains may use. */

export { updateCardholder } from './cardholder-store.ts';
export { INTERVALS, REFUSING_RULES, windowStart } from './controls.ts';
export type { EventEmitter } from './events.ts';
export { categoryNamed, codeRanges, inRanges, MCC, merchantCategories } from './merchant-categories.ts';
export { checkCardholderDetails, isEmail } from './objects.ts';
export type { Card, CardService, SpendingControlsInput } from './service.ts';
export { cardFundingId, sandboxScope, scopeOf } from './service.ts';
// The cards' rows as other domains read them (funding's ownership check, a user's ids, a purchase's
// card and charge) or change them (a claimed cardholder's link to the platform's user).
export {
  card as cardInScope,
  cardOwners,
  cardsOfUsers,
  idsOfUser,
  transactionById as cardTransactionById,
} from './store.ts';

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
