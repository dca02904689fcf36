/** The front door of `merchant-accounts` (docs/architecture.md, "Walls"): what other domains may use. */
export type { NewLinking } from './linking.ts';
