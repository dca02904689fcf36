/** The front door of `ledger` (docs/architecture.md, "Walls"): what other domains may use. */
export type { AccountBalance, LedgerService, LockedAccounts, TransferRequest, Violation } from './service.ts';
export { LedgerRefusal } from './service.ts';
export { accountOwners } from './store.ts';
