/** The front door of `wallet-links` (docs/architecture.md, "Walls"): what other domains may use. */
export type { LinkService, WalletLinkObject } from './service.ts';
