import { boolean, ConfigError, type Env, integer, optional } from './core/env.ts';
import { loadOutboundConfig, type OutboundConfig } from './core/http/policy.ts';
import { type CardConfig, loadCardConfig } from './domains/cards/config.ts';
import { loadWebhookConfig, type WebhookConfig } from './domains/events/config.ts';
import { type FundingConfig, loadFundingConfig } from './domains/funding/config.ts';
import { type KycConfig, loadKycConfig } from './domains/kyc/config.ts';
import { loadMessagingConfig, type MessagingConfig } from './domains/messaging/config.ts';
import { loadOAuthConfig, type OAuthConfig } from './domains/oauth/config.ts';
import { loadPurchaseConfig, type PurchaseConfig } from './domains/purchases/config.ts';
import { type AcpConfig, loadAcpConfig } from './domains/purchases/merchant-config.ts';

export { ConfigError };

/**
 * Every setting of the service, read once from the environment and validated. docs/operations.md
 * lists each variable with its default and meaning (test/docs/operations.test.ts keeps them in step).
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL: connections per process and how long opening one may take (`DATABASE_POOL_SIZE`, …). */
  databasePool: { size: number; connectTimeoutMs: number };
  /** SQLite: write transactions that arrive together share one commit (`SQLITE_GROUP_COMMIT`). */
  sqliteGroupCommit: boolean;
  /** SQLite: how long a statement waits for another process's lock before failing (`SQLITE_BUSY_TIMEOUT_MS`). */
  sqliteBusyTimeoutMs: number;
  baseUrl: string;
  mcpUrl: string;
  redisUrl: string | null;
  logLevel: string;
  trustProxy: boolean;
  bodyLimitBytes: number;
  tokenRateLimit: { max: number; windowSeconds: number };
  /** The user-facing authorization server's token, registration and revocation endpoints, per IP. */
  oauthRateLimit: { max: number; windowSeconds: number };
  /**
   * Where rate-limit logs live: `redis` (needs REDIS_URL), `database` (shared by every process on the
   * database) or `memory` (per process). Default: redis with REDIS_URL, else database on PostgreSQL,
   * memory on SQLite.
   */
  rateLimitStore: 'memory' | 'database' | 'redis';
  /** `POST /api/v2/connect/start` throttles (docs/decisions.md, Connect). */
  connectRateLimit: {
    resendCooldownSeconds: number;
    destinationMax: number;
    destinationWindowSeconds: number;
    clientMax: number;
    clientWindowSeconds: number;
  };
  refreshTokenTtlDays: number;
  /**
   * For how many seconds (10 by default, at most 30) an exact retry of a just-rotated refresh token
   * gets the same successor pair instead of revoking the family; 0: never, reuse revokes at once.
   */
  refreshRetryGraceSeconds: number;
  /** How long a process may reuse a token lookup; revocations elsewhere reach it within this. */
  authCacheTtlMs: number;
  smtpUrl: string | null;
  mailFrom: string;
  sms: { apiUrl: string; accountSid: string; authToken: string; from: string } | null;
  /** Sandbox never sends real email or SMS unless this is set. */
  sandboxRealDelivery: boolean;
  /** SIGTERM: how long past the drain in-flight requests and deliveries may take before a forced exit. */
  shutdownTimeoutMs: number;
  /** SIGTERM: seconds the API keeps serving, not ready, so that a load balancer stops sending first. */
  shutdownDrainSeconds: number;
  /** The worker role's own port for /healthz, /readyz and /metrics (0: any free port, logged). */
  healthPort: number;
  /** AES-256-GCM key for data read back (base64, 32 bytes); older keys still open what they sealed. */
  encryptionKey: string | null;
  encryptionPreviousKeys: string[];
  /** Days a retired receipt-signing key stays published for verification (docs/mandates.md). */
  receiptKeyRetentionDays: number;
  webhooks: WebhookConfig;
  /** Where every outbound call may go (`OUTBOUND_ALLOWED_PRIVATE_HOSTS`; core/http/policy.ts). */
  outbound: OutboundConfig;
  kyc: KycConfig;
  cards: CardConfig;
  funding: FundingConfig;
  purchases: PurchaseConfig;
  /** ACP merchants (`ACP_*`; docs/acp.md). */
  acp: AcpConfig;
  /** The user-facing authorization server (docs/oauth-mcp.md). */
  oauth: OAuthConfig;
  /** The organizations' messaging provider (`MESSAGING_*`; docs/messaging.md). */
  messaging: MessagingConfig;
  /** `NODE_ENV=production`: no generated encryption key, no demo organization. */
  production: boolean;
  /** Bearer that `/metrics` requires; unset, `/metrics` is open, but answers 404 in production. */
  metricsToken: string | null;
  /** Create (and print) a demo organization on an empty local SQLite database (`PURSER_DEMO=off` skips it). */
  demo: boolean;
  /** An event-loop delay longer than this is logged at warn level; 0 turns the check off. */
  eventLoopStallMs: number;
}

function url(name: string, value: string): string {
  try {
    const parsed = new URL(value);
    return parsed.toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${value}"`);
  }
}

function metricsToken(env: Env): string | null {
  const token = optional(env, 'METRICS_TOKEN');
  if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token))
    throw new ConfigError('METRICS_TOKEN must be at least 16 printable ASCII characters without spaces');
  return token;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/purser.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
  }
  const baseUrl = url('BASE_URL', env.BASE_URL || `http://localhost:${port}`);
  const smsApiUrl = optional(env, 'SMS_API_URL');
  const redisUrl = optional(env, 'REDIS_URL');
  const rateLimitStore =
    env.RATE_LIMIT_STORE || (redisUrl ? 'redis' : databaseUrl.startsWith('sqlite:') ? 'memory' : 'database');
  if (rateLimitStore !== 'memory' && rateLimitStore !== 'database' && rateLimitStore !== 'redis') {
    throw new ConfigError('RATE_LIMIT_STORE must be memory, database or redis');
  }
  if (rateLimitStore === 'redis' && !redisUrl)
    throw new ConfigError('RATE_LIMIT_STORE=redis needs REDIS_URL');
  return {
    port,
    host: env.HOST || 'localhost',
    databaseUrl,
    databasePool: {
      size: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    },
    sqliteGroupCommit: boolean(env, 'SQLITE_GROUP_COMMIT', true),
    sqliteBusyTimeoutMs: integer(env, 'SQLITE_BUSY_TIMEOUT_MS', 5000, 0, 600_000),
    baseUrl,
    mcpUrl: url('MCP_URL', env.MCP_URL || baseUrl),
    redisUrl,
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    tokenRateLimit: {
      max: integer(env, 'TOKEN_RATE_LIMIT', 30, 1),
      windowSeconds: integer(env, 'TOKEN_RATE_WINDOW_SECONDS', 300, 1),
    },
    oauthRateLimit: {
      max: integer(env, 'OAUTH_RATE_LIMIT', 300, 1),
      windowSeconds: integer(env, 'OAUTH_RATE_WINDOW_SECONDS', 300, 1),
    },
    rateLimitStore,
    connectRateLimit: {
      resendCooldownSeconds: integer(env, 'CONNECT_RESEND_COOLDOWN_SECONDS', 30, 0, 3600),
      destinationMax: integer(env, 'CONNECT_DESTINATION_RATE_LIMIT', 5, 1),
      destinationWindowSeconds: integer(env, 'CONNECT_DESTINATION_RATE_WINDOW_SECONDS', 900, 1),
      clientMax: integer(env, 'CONNECT_CLIENT_RATE_LIMIT', 300, 1),
      clientWindowSeconds: integer(env, 'CONNECT_CLIENT_RATE_WINDOW_SECONDS', 60, 1),
    },
    refreshTokenTtlDays: integer(env, 'REFRESH_TOKEN_TTL_DAYS', 30, 1),
    refreshRetryGraceSeconds: integer(env, 'REFRESH_RETRY_GRACE_SECONDS', 10, 0, 30),
    authCacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS', 1000, 0, 60_000),
    smtpUrl: optional(env, 'SMTP_URL'),
    mailFrom: env.MAIL_FROM || 'Purser <no-reply@purser.localhost>',
    sms: smsApiUrl
      ? {
          apiUrl: url('SMS_API_URL', smsApiUrl),
          accountSid: env.SMS_ACCOUNT_SID ?? '',
          authToken: env.SMS_AUTH_TOKEN ?? '',
          from: env.SMS_FROM ?? '',
        }
      : null,
    sandboxRealDelivery: boolean(env, 'SANDBOX_REAL_DELIVERY', false),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    shutdownDrainSeconds: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 5, 0, 300),
    healthPort: integer(env, 'HEALTH_PORT', 0, 0, 65535),
    encryptionKey: optional(env, 'ENCRYPTION_KEY'),
    encryptionPreviousKeys: (env.ENCRYPTION_PREVIOUS_KEYS ?? '').split(',').filter(Boolean),
    receiptKeyRetentionDays: integer(env, 'RECEIPT_KEY_RETENTION_DAYS', 540, 1),
    webhooks: loadWebhookConfig(env),
    outbound: loadOutboundConfig(env, { production: env.NODE_ENV === 'production' }),
    kyc: loadKycConfig(env),
    cards: loadCardConfig(env),
    funding: loadFundingConfig(env),
    purchases: loadPurchaseConfig(env),
    acp: loadAcpConfig(env),
    oauth: loadOAuthConfig(env),
    messaging: loadMessagingConfig(env),
    production: env.NODE_ENV === 'production',
    metricsToken: metricsToken(env),
    demo: boolean(env, 'PURSER_DEMO', true),
    eventLoopStallMs: integer(env, 'EVENT_LOOP_STALL_MS', 200, 0, 60_000),
  };
}
