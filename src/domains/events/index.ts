/** The front door of `events` (docs/architecture.md, "Walls"): what other domains may use. */
export { newSigningSecret, signatureHeaders } from './signing.ts';
export { eventPosition, eventsMentioning } from './store.ts';
