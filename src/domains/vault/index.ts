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
