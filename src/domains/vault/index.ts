/** The front door of `vault` (docs/architecture.md, "Walls"): what other domains may use. */
export type { VaultCardView } from './cards.ts';
export type { VaultService } from './service.ts';
