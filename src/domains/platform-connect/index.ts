/** The front door of `platform-connect` (docs/architecture.md, "Walls"): what other domains may use. */
export type {
  PlatformConnectProblem,
  PlatformConnectService,
  PlatformConnectSessionObject,
  PlatformConnectView,
} from './service.ts';

/** Why platform connect sessions refuse. Its routes give each its HTTP status. */
export type PlatformConnectRefusalCode = 'not_found' | 'already_completed';
