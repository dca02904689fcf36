/** The front door of `wallet-links` (docs/architecture.md, "Walls"): what other domains may use. */
export type { LinkService, WalletLinkObject } from './service.ts';
export {
  type PageForm,
  TEST_FUNDS_CENTS,
  type WalletAction,
  type WalletPageProblem,
  type WalletPageView,
} from './service.ts';
