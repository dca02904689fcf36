/** The front door of `purchases` (docs/architecture.md, "Walls"): what other domains may use. */

export type { ApprovalView, Authorization } from './approvals.ts';
export { SANDBOX_SLUGS } from './merchant-config.ts';
export type { PurchaseService } from './service.ts';
export { ordersOf } from './store.ts';
