/** The front door of platform authentication (docs/architecture.md, "Walls"): what other domains may use. */
export type { ApiKeyPrincipal } from './api-key-guard.ts';
export { apiKeyGuard } from './api-key-guard.ts';
export { platformGuard, testModeOnly } from './guard.ts';
export { basicCredentials, OAuthErrorBody } from './routes.ts';
export type { AuthService, Principal } from './service.ts';
export { ACCESS_TOKEN_TTL_SECONDS } from './service.ts';
