/** The front door of `cards` (docs/architecture.md, "Walls"): what other domains may use. */
export { INTERVALS, REFUSING_RULES, windowStart } from './controls.ts';
export type { EventEmitter } from './events.ts';
export { categoryNamed, codeRanges, inRanges, MCC, merchantCategories } from './merchant-categories.ts';
export { checkCardholderDetails, isEmail } from './objects.ts';
export type { Card, CardService, SpendingControlsInput } from './service.ts';
export { cardFundingId, sandboxScope, scopeOf } from './service.ts';
export { cardsOfUsers, idsOfUser } from './store.ts';
