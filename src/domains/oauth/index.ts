/** The front door of `oauth` (docs/architecture.md, "Walls"): what other domains may use. */
export {
  type BrowserSession,
  COOKIE_NAMES,
  openSession,
  SESSION_TTL_MS,
  sealSession,
  sessionCookie,
} from './browser-session.ts';
export { type MandateCheck, OAUTH_SCOPES, type OAuthClient, type OAuthService } from './service.ts';

/**
 * Why the user-facing authorization server refuses (RFC 6749 §5.2, RFC 7009, RFC 7591 §3.2.2,
 * RFC 8707 §2), in the OAuth body. Its routes give each its HTTP status.
 */
export type OAuthRefusalCode =
  | 'invalid_request'
  | 'invalid_grant'
  | 'invalid_target'
  | 'invalid_scope'
  | 'unsupported_grant_type'
  | 'unauthorized_client'
  | 'invalid_client'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'access_denied';
