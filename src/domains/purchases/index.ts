/** The front door of `purchases` (docs/architecture.md, "Walls"): what other domains may use. */

export type { ApprovalView, Authorization } from './approvals.ts';
export { CHARGE_STATUSES, PURCHASE_STATUSES } from './conversation.ts';
export { SANDBOX_SLUGS } from './merchant-config.ts';
export { MERCHANT_PROTOCOLS } from './merchants/merchant.ts';
export type { PurchaseService } from './service.ts';
export { ordersOf } from './store.ts';

/**
 * Why `/buy` refuses (a service call, an approval, a merchant's order event). Its routes give each
 * its HTTP status; the approval page puts them in its own words. `order_moved` stops a step another
 * process concluded first, and is caught inside the domain.
 */
export type PurchaseRefusalCode =
  | 'invalid_request'
  | 'not_found'
  | 'passkey_required'
  | 'approval_closed'
  | 'order_not_placed'
  | 'order_moved';
