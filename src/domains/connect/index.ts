/** The front door of `connect` (docs/architecture.md, "Walls"): what other domains may use. */
export type { ConnectService } from './service.ts';
export { SANDBOX_CODE } from './service.ts';
/** Whether a connection is live, for read models that list connections (the console). */
export { isLive } from './store.ts';
