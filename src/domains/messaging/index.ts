/** The front door of `messaging` (docs/architecture.md, "Walls"): what other domains may use. */
export { s256Challenge } from './provider.ts';
export type { MessagingLog, MessagingService, ProviderSendOutcome } from './service.ts';
