/** The front door of `oauth` (docs/architecture.md, "Walls"): what other domains may use. */
export type { OAuthService } from './service.ts';
