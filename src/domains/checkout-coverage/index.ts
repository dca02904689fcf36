/** The front door of `checkout-coverage` (docs/architecture.md, "Walls"): what other domains may use. */
export type { Coverage } from './coverage.ts';
