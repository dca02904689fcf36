import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { type Clock, systemClock } from './core/clock.ts';
import { ProcessHealth } from './core/dependencies.ts';
import { operatorGuard, operatorPolicy } from './core/http/policy.ts';
import { ProcessMetrics } from './core/metrics.ts';
import {
  DatabaseRateLimiter,
  MemoryRateLimiter,
  type RateLimiter,
  type RateLimitRule,
  RedisRateLimiter,
} from './core/rate-limit.ts';
import { RedisLink } from './core/redis.ts';
import { loadSealer, type Sealer } from './core/sealer.ts';
import { isDatabaseUnavailable } from './db/availability.ts';
import {
  type DatabaseHandle,
  type Db,
  type Dialect,
  migrateToLatest,
  openDatabase,
  type PoolStats,
} from './db/index.ts';
import { storedInstanceSecret } from './db/instance-secrets.ts';
import { AuthService } from './domains/auth/service.ts';
import { CardService } from './domains/cards/service.ts';
import { ConnectService } from './domains/connect/service.ts';
import { EventService } from './domains/events/service.ts';
import { EvmChain } from './domains/funding/chain/evm.ts';
import { OfflineChain } from './domains/funding/chain/index.ts';
import { FundingService } from './domains/funding/service.ts';
import { documentReader } from './domains/kyc/reader/pool.ts';
import { ManualReviewQueue } from './domains/kyc/review.ts';
import { HttpReviewer } from './domains/kyc/review-http.ts';
import { KycService } from './domains/kyc/service.ts';
import { LedgerService } from './domains/ledger/service.ts';
import { MandateService } from './domains/mandates/service.ts';
import { MemberService } from './domains/members/service.ts';
import { MerchantAccountService } from './domains/merchant-accounts/service.ts';
import { ProviderClient } from './domains/messaging/provider.ts';
import { MessagingService } from './domains/messaging/service.ts';
import { LinkDelivery } from './domains/notifications/link-delivery.ts';
import { SmtpMailer } from './domains/notifications/mailer.ts';
import { NotificationService } from './domains/notifications/service.ts';
import { HttpSmsSender } from './domains/notifications/sms.ts';
import { OAuthService } from './domains/oauth/service.ts';
import { CLAIM_CODES_RULE, OnboardingService } from './domains/onboarding/service.ts';
import { OrgService } from './domains/orgs/service.ts';
import { PlatformConnectService } from './domains/platform-connect/service.ts';
import { MerchantConfigs } from './domains/purchases/merchant-config.ts';
import { PurchaseService } from './domains/purchases/service.ts';
import { ReceiptService } from './domains/receipts/service.ts';
import { VaultService } from './domains/vault/service.ts';
import { LinkService } from './domains/wallet-links/service.ts';
import { RequestLog } from './web/request-log.ts';

/** Everything a role needs, built once per process from the configuration. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  /** Applies the migrations not yet applied (once across processes: the migrator locks); their names. */
  migrate(): Promise<string[]>;
  clock: Clock;
  /** The process's own log (JSON lines): dependency state changes and the worker's lines. */
  log: Logger;
  /** The database and Redis as this process sees them, and whether it is shutting down (/readyz). */
  health: ProcessHealth;
  /** PostgreSQL: the connection pool's occupancy now; null on SQLite. */
  poolStats(): PoolStats | null;
  /** Counters the domains add to (webhook attempts, card authorizations), served by /metrics. */
  metrics: ProcessMetrics;
  orgs: OrgService;
  auth: AuthService;
  notifications: NotificationService;
  connect: ConnectService;
  /** AES-256-GCM for data read back (core/sealer.ts): seals with the current key, opens with any of the ring's. */
  sealer: Sealer;
  events: EventService;
  kyc: KycService;
  /** The only code that moves money. */
  ledger: LedgerService;
  /** Cardholders, wallets, cards and the card network. */
  cards: CardService;
  /** Company wallets and the company-funded card flow. */
  funding: FundingService;
  /** Vault links and the hosted card vault. */
  vault: VaultService;
  /** Hosted cardholder onboarding sessions. */
  onboarding: OnboardingService;
  /** Members of organizations and their sign-in by email code. */
  members: MemberService;
  /** Hosted platform connect sessions and connected organizations. */
  platformConnect: PlatformConnectService;
  /** Spending mandates: terms a user signed for an app to buy within, and their budgets. */
  mandates: MandateService;
  /** `/buy`: conversations, carts and orders at merchants. */
  purchases: PurchaseService;
  /** The merchants an operator configured (ACP), which `purchases` lists beside the sandbox ones. */
  merchants: MerchantConfigs;
  /** Cardholders' linked merchant accounts (OAuth at the merchant) and the hosted link page. */
  merchantAccounts: MerchantAccountService;
  /** The user-facing OAuth authorization server. */
  oauth: OAuthService;
  /** Signed receipts of orders placed under a mandate, and the keys that sign them. */
  receipts: ReceiptService;
  /** Wallet links and the hosted wallet page. */
  links: LinkService;
  /** The organizations' messaging-provider connections. */
  messaging: MessagingService;
  /** How wallet, vault and approval links reach users: the one place that picks the channel. */
  linkDelivery: LinkDelivery;
  tokenRateLimiter: RateLimiter;
  /** `{mcp_url}/token`, `/register` and `/revoke`: a budget of their own, apart from the platform's. */
  oauthRateLimiter: RateLimiter;
  /** The API request log the console shows (src/web/request-log.ts). */
  requestLog: RequestLog;
  close(): Promise<void>;
}

export async function createContext(
  config: Config,
  options: { clock?: Clock; migrate?: boolean; logStream?: NodeJS.WritableStream } = {},
): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const log = pino({ level: config.logLevel }, options.logStream ?? process.stdout);
  const health = new ProcessHealth(log, { redis: config.rateLimitStore === 'redis' });
  const metrics = new ProcessMetrics();
  const handle: DatabaseHandle = await openDatabase(config.databaseUrl, {
    groupCommit: config.sqliteGroupCommit,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    pool: config.databasePool,
    observer: {
      failed: (error) => {
        if (isDatabaseUnavailable(error))
          health.database.set('unavailable', { reason: (error as Error).message });
      },
      succeeded: () => health.database.set('ok'),
    },
  });
  if (options.migrate ?? true) await migrateToLatest(handle);
  const { db } = handle;

  // One store for every limiter of the process (config.rateLimitStore; docs/decisions.md).
  const redis = config.rateLimitStore === 'redis' ? new RedisLink(config.redisUrl!, health.redis) : null;
  await redis?.firstConnection();
  const rateLimiter = (rule: RateLimitRule, name: string): RateLimiter => {
    if (redis) return new RedisRateLimiter(redis, rule, `purser:rl:${name}`, clock);
    if (config.rateLimitStore === 'database') {
      return new DatabaseRateLimiter(db, handle.dialect, rule, name, clock);
    }
    return new MemoryRateLimiter(rule, clock);
  };
  const tokenRateLimiter = rateLimiter(config.tokenRateLimit, 'token');
  const oauthRateLimiter = rateLimiter(config.oauthRateLimit, 'oauth');
  const onboardingClaimLimiter = rateLimiter(CLAIM_CODES_RULE, 'onboarding-claim');

  const orgs = new OrgService(db, clock);
  const auth = new AuthService(handle, clock, orgs, config.authCacheTtlMs);
  const sealer = await loadSealer(
    config,
    () => storedInstanceSecret(db, 'encryption_key'),
    (warning) => process.stderr.write(`purser: ${warning}\n`),
  );
  const notifications = new NotificationService(db, clock, sealer, {
    mailer: config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : null,
    sms: config.sms ? new HttpSmsSender(config.sms, operatorGuard(config.outbound)) : null,
    sandboxRealDelivery: config.sandboxRealDelivery,
  });
  const connect = new ConnectService(db, clock, config, {
    auth,
    orgs,
    notifications,
    sealer,
    dialect: handle.dialect,
    reader: handle.reader,
  });
  const oauth = new OAuthService(db, clock, config, {
    orgs,
    connect,
    auth,
    sessionKey: sealer.deriveKey('oauth-browser-session'),
  });
  const events = new EventService(db, handle.dialect, clock, config.webhooks, config.outbound, sealer, {
    orgs,
    notifications,
  });
  const linkSecret = config.kyc.linkSecret ?? sealer.deriveKey('kyc-links').toString('hex');
  const reader = documentReader({
    threads: config.kyc.readerThreads,
    timeoutMs: config.kyc.readerTimeoutMs,
    queue: config.kyc.readerQueue,
  });
  const reviewer = config.kyc.reviewUrl
    ? new HttpReviewer(
        {
          url: config.kyc.reviewUrl,
          apiKey: config.kyc.reviewApiKey,
          baseUrl: config.baseUrl,
          timeoutMs: 10_000,
        },
        operatorGuard(config.outbound),
      )
    : new ManualReviewQueue();
  const kyc = new KycService(
    db,
    clock,
    { baseUrl: config.baseUrl, kyc: { ...config.kyc, linkSecret } },
    { connect, events, sealer, reviewer, reader },
  );

  const ledger = new LedgerService(handle, clock);
  const cards = new CardService(db, clock, config.cards, {
    ledger,
    events,
    sealer,
    outbound: config.outbound,
    orgs,
    users: {
      findUser: (organizationId, livemode, userId) => connect.findUser(organizationId, livemode, userId),
      approvedIdentity: (organizationId, livemode, userId) =>
        kyc.approvedIdentity(organizationId, livemode, userId),
    },
  });
  const funding = new FundingService(db, clock, config.funding, {
    ledger,
    events,
    cards,
    // CHAIN=evm: production money on the chain; sandbox stays offline (docs/funding.md).
    chain: config.funding.evm ? new EvmChain(handle, clock, config.funding.evm) : new OfflineChain(),
    dialect: handle.dialect,
  });
  const provider = config.messaging.provider;
  const messaging = new MessagingService(db, clock, config, {
    sealer,
    // The provider is the operator's choice: reached under the operator's outbound policy, as merchants are.
    provider: provider
      ? new ProviderClient({
          ...provider,
          policy: operatorPolicy(config.outbound),
          resolveHost: config.outbound.resolveHost,
          timeoutMs: config.messaging.timeoutMs,
        })
      : null,
  });
  const linkDelivery = new LinkDelivery(notifications, messaging);
  const vault = new VaultService(db, clock, config.baseUrl, {
    connect,
    delivery: linkDelivery,
    orgs,
    notifications,
    events,
    sealer,
    formKey: sealer.deriveKey('hosted-page-forms'),
  });
  const onboarding = new OnboardingService(db, clock, config, {
    dialect: handle.dialect,
    cards,
    events,
    notifications,
    orgs,
    sealer,
    formKey: sealer.deriveKey('cardholder-onboarding-forms'),
    claimLimiter: onboardingClaimLimiter,
  });
  const members = new MemberService(db, clock, config.baseUrl, {
    notifications,
    orgs,
    formKey: sealer.deriveKey('member-forms'),
  });
  const platformConnect = new PlatformConnectService(db, clock, config, {
    orgs,
    members,
    events,
    sealer,
    formKey: sealer.deriveKey('platform-connect-forms'),
  });
  const mandates = new MandateService(
    handle,
    clock,
    { baseUrl: config.baseUrl },
    {
      events,
      userExists: async (scope, userId) =>
        !!(await connect.findUser(scope.organizationId, scope.livemode, userId)),
      clientExists: async (scope, clientId) => {
        const client = await oauth.findClient(clientId);
        return client?.organizationId === scope.organizationId && client.livemode === scope.livemode;
      },
      linkKey: sealer.deriveKey('mandate-approval-links'),
      vault,
    },
  );
  // Cards held to a mandate (an order's under a mandate, or one its app created): the engine
  // takes their budget with the hold and keeps it in step with the books in the card's own transactions.
  cards.setMandates({
    current: async (scope, userId, clientId) =>
      (await mandates.activeFor({ ...scope, userId, clientId }))[0]?.id ?? null,
    lock: (trx, id) => mandates.lock(trx, id),
    check: (exec, charge) => mandates.check(exec, charge),
    consume: (trx, spend) => mandates.consume(trx, spend),
    follow: (trx, charge) => mandates.follow(trx, charge),
  });
  const receipts = new ReceiptService({
    db,
    clock,
    sealer,
    retentionDays: config.receiptKeyRetentionDays,
  });
  const purchases = new PurchaseService(db, clock, config.purchases, {
    auth,
    orgs,
    cards,
    ledger,
    events,
    vault,
    mandates: {
      activeFor: (scope) => mandates.activeFor(scope),
      check: (charge) => mandates.check(db, charge),
      overflow: (organizationId) => vault.mandateOverflow(organizationId),
      termsHash: async (id) => (await mandates.row(id)).terms_hash,
      receipt: (trx, order, claims) => receipts.issue(trx, order, claims),
    },
    dialect: handle.dialect,
    baseUrl: config.baseUrl,
    outbound: operatorGuard(config.outbound),
  });
  const merchants = new MerchantConfigs({
    db,
    clock,
    sealer,
    outbound: config.outbound,
    acp: config.acp,
  });
  purchases.useMerchants(() => merchants.all());
  const merchantAccounts = new MerchantAccountService(handle, clock, config, {
    sealer,
    events,
    connect,
    orgs,
    merchants,
    // Merchants are the operator's: reached under the operator's outbound policy (docs/acp.md).
    guard: {
      policy: operatorPolicy(config.outbound),
      timeoutMs: config.acp.timeoutMs,
      resolveHost: config.outbound.resolveHost,
    },
    formKey: sealer.deriveKey('merchant-link-forms'),
  });
  const links = new LinkService(db, clock, config, {
    orgs,
    connect,
    kyc,
    cards,
    ledger,
    funding,
    delivery: linkDelivery,
    csrfKey: sealer.deriveKey('wallet-link-forms'),
  });
  cards.network.observeDecisions((decision, seconds) => metrics.authorization(decision, seconds));
  // An approved verification makes the user a cardholder, in the transaction that approves it.
  kyc.onApproved(async (trx, approval) => {
    const user = await connect.findUser(approval.organizationId, approval.livemode, approval.userId, trx);
    if (user) await cards.cardholders.ensureForUser(trx, approval, user, approval.identity);
  });

  const requestLog = new RequestLog({ database: handle, clock });

  return {
    config,
    db,
    dialect: handle.dialect,
    migrate: () => migrateToLatest(handle),
    clock,
    log,
    health,
    poolStats: () => handle.poolStats(),
    metrics,
    orgs,
    auth,
    notifications,
    connect,
    sealer,
    events,
    kyc,
    ledger,
    cards,
    funding,
    purchases,
    mandates,
    vault,
    onboarding,
    members,
    platformConnect,
    merchants,
    merchantAccounts,
    oauth,
    receipts,
    links,
    messaging,
    linkDelivery,
    tokenRateLimiter,
    oauthRateLimiter,
    requestLog,
    async close() {
      await requestLog.flush();
      await tokenRateLimiter.close();
      await oauthRateLimiter.close();
      await onboardingClaimLimiter.close();
      redis?.close();
      await notifications.close();
      await reader.close();
      await handle.close();
    },
  };
}
