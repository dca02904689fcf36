/** The front door of `connect` (docs/architecture.md, "Walls"): what other domains may use. */
export type { ConnectService } from './service.ts';
export { SANDBOX_CODE } from './service.ts';
export { connectionsOfUsers, connectionsWithUsers, existingUsers, usersOf } from './store.ts';

/** Why connect refuses (start, verify, refresh, consent, disconnect). Its routes give each its HTTP status. */
export type ConnectRefusalCode =
  | 'invalid_request'
  | 'invalid_phone'
  | 'invalid_connect_attempt'
  | 'invalid_code'
  | 'invalid_refresh_token'
  | 'connection_not_found'
  | 'rate_limited'
  | 'auth_provider_error';
