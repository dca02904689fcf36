/** The front door of `events` (docs/architecture.md, "Walls"): what other domains may use. */
export { EVENT_TYPES, isKnownEventType } from './catalog.ts';
export { RECOVER_WINDOW_DAYS } from './endpoints.ts';
export type { EventService } from './service.ts';
export { newSigningSecret, SIGNATURE_SCHEMES, type SignatureScheme, signatureHeaders } from './signing.ts';
export { eventPosition, eventsMentioning } from './store.ts';

/** Why events and webhook endpoints refuse (a service call). Its routes give each its HTTP status. */
export type EventRefusalCode = 'invalid_request' | 'not_found' | 'invalid_event_type' | 'endpoint_disabled';
