/** The front door of `platform-connect` (docs/architecture.md, "Walls"): what other domains may use. */
export type {
  PlatformConnectProblem,
  PlatformConnectService,
  PlatformConnectSessionObject,
  PlatformConnectView,
} from './service.ts';
