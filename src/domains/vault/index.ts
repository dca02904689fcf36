/** The front door of `vault` (docs/architecture.md, "Walls"): what other domains may use. */
export type { VaultCardView } from './cards.ts';
export {
  closedReason,
  type ResetChannel,
  type ResetContact,
  type ResetPageView,
  ResetRefused,
} from './recovery.ts';
export type { VaultService } from './service.ts';

/**
 * Why the vault refuses (a vault link, a passkey, a reset and its one-time code). Its routes give
 * each its HTTP status; the hosted pages put them in their own words.
 */
export type VaultRefusalCode =
  | 'invalid_request'
  | 'not_found'
  | 'rate_limited'
  | 'contact_missing'
  | 'passkey_invalid'
  | 'passkey_required'
  | 'link_used'
  | 'link_expired'
  | 'auth_provider_error';
