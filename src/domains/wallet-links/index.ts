/** The front door of `wallet-links` (docs/architecture.md, "Walls"): what other domains may use. */
export type { LinkService, WalletLinkObject } from './service.ts';
export {
  type PageForm,
  TEST_FUNDS_CENTS,
  type WalletAction,
  type WalletActionRefusal,
  type WalletPageProblem,
  type WalletPageView,
} from './service.ts';

/** Why a wallet link is not created. Its routes give each its HTTP status. */
export type WalletLinkRefusalCode =
  | 'not_found'
  | 'subscription_required'
  | 'wallet_link_unavailable'
  | 'user_info_required'
  | 'contact_missing';
