/** The front door of spending mandates (docs/architecture.md, "Walls"): what other domains may use. */
export type { MandateObject, MandateService } from './service.ts';
export { MANDATE_STATUSES } from './states.ts';
export { mandatesOf } from './store.ts';
export { BUDGET_INTERVALS, type MandateTerms } from './terms.ts';
