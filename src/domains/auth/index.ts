/** The front door of platform authentication (docs/architecture.md, "Walls"): what other domains may use. */
export type { ApiKeyPrincipal } from './api-key-guard.ts';
export { apiKeyGuard } from './api-key-guard.ts';
export { platformGuard, testModeOnly } from './guard.ts';
export { basicCredentials, INVALID_CLIENT_ANSWER, OAuthErrorBody } from './routes.ts';
export type { AuthService, Principal } from './service.ts';
export { ACCESS_TOKEN_TTL_SECONDS, invalidClient } from './service.ts';

/** Why the platform token endpoint refuses (RFC 6749 §5.2). Its routes give each its HTTP status. */
export type AuthRefusalCode =
  | 'invalid_request'
  | 'unsupported_grant_type'
  | 'unauthorized_client'
  | 'invalid_client'
  | 'access_denied';
