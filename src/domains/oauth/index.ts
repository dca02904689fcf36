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
