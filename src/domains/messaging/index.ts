/** The front door of `messaging` (docs/architecture.md, "Walls"): what other domains may use. */
export { s256Challenge } from './provider.ts';
export type { MessagingLog, MessagingService, ProviderSendOutcome } from './service.ts';

/** Why the messaging-provider connection refuses. Its routes give each its HTTP status. */
export type MessagingRefusalCode = 'not_found' | 'messaging_not_configured' | 'messaging_provider_error';
