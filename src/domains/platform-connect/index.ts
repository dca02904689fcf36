/** The front door of `platform-connect` (docs/architecture.md, "Walls"): what other domains may use. */
export type { PlatformConnectService, PlatformConnectSessionObject } from './service.ts';
