/** The front door of `connect` (docs/architecture.md, "Walls"): what other domains may use. */
export type { ConnectService } from './service.ts';
export { SANDBOX_CODE } from './service.ts';
export { connectionsOfUsers, connectionsWithUsers, existingUsers, usersOf } from './store.ts';
