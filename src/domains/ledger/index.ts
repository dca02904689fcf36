/** The front door of `ledger` (docs/architecture.md, "Walls"): what other domains may use. */
export type { AccountBalance, LedgerService, LockedAccounts, TransferRequest, Violation } from './service.ts';
export { LedgerRefusal } from './service.ts';
export { accountOwners } from './store.ts';
/** The books as `ledger verify` reads them, for the checks other domains add (`LedgerService.addCheck`). */
export { type LedgerBooks, type PairTotal, type PairTransfer, transfersBetween } from './verify-store.ts';
