/** The front door of `receipts` (docs/architecture.md, "Walls"): what other domains may use. */
export type { Receipt, ReceiptService } from './service.ts';
export { mandatesOfOrders } from './store.ts';
