/** The front door of `events` (docs/architecture.md, "Walls"): what other domains may use. */
export { EVENT_TYPES, isKnownEventType } from './catalog.ts';
export { RECOVER_WINDOW_DAYS } from './endpoints.ts';
export type { EventService } from './service.ts';
export { newSigningSecret, SIGNATURE_SCHEMES, type SignatureScheme, signatureHeaders } from './signing.ts';
export { eventPosition, eventsMentioning } from './store.ts';
