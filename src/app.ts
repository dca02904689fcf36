import AjvCompiler from '@fastify/ajv-compiler';
import Fastify, { type FastifyInstance, type FastifyRequest, type preValidationHookHandler } from 'fastify';
import FindMyWay from 'find-my-way';
import type { AppContext } from './context.ts';
import { clientErrorHandler, frameworkErrors } from './core/edge-errors.ts';
import { installErrorHandler, sendError } from './core/error-handler.ts';
import { ApiError, invalidRequest, serviceUnavailable } from './core/errors.ts';
import { installIdempotency } from './core/idempotency.ts';
import { sequentialIds } from './core/ids.ts';
import { requestLogFields } from './core/log-redaction.ts';
import { lazyRequestLogger } from './core/request-logger.ts';
import { serializersBySchema } from './core/serializers.ts';
import { installTextGuard } from './core/text-guard.ts';
import { authRoutes } from './domains/auth/routes.ts';
import { lithicWebhookRoutes } from './domains/cards/lithic/routes.ts';
import { cardRoutes } from './domains/cards/routes.ts';
import { cardV1Routes } from './domains/cards/v1-routes.ts';
import { checkoutRoutes } from './domains/checkout-coverage/routes.ts';
import { connectRoutes } from './domains/connect/routes.ts';
import { eventRoutes } from './domains/events/routes.ts';
import { fundingRoutes } from './domains/funding/routes.ts';
import { kycReviewRoutes, kycRoutes } from './domains/kyc/routes.ts';
import { mandateRoutes } from './domains/mandates/routes.ts';
import { mcpRoutes } from './domains/mcp/routes.ts';
import { merchantAccountRoutes } from './domains/merchant-accounts/routes.ts';
import { messagingRoutes } from './domains/messaging/routes.ts';
import { oauthRoutes } from './domains/oauth/routes.ts';
import { onboardingRoutes } from './domains/onboarding/routes.ts';
import { orgRoutes } from './domains/orgs/routes.ts';
import { platformConnectRoutes } from './domains/platform-connect/routes.ts';
import { acpWebhookRoutes } from './domains/purchases/acp-webhook-routes.ts';
import { purchaseRoutes } from './domains/purchases/routes.ts';
import { receiptRoutes } from './domains/receipts/routes.ts';
import { vaultRoutes } from './domains/vault/routes.ts';
import { walletLinkRoutes } from './domains/wallet-links/routes.ts';
import { consoleRoutes } from './web/console/routes.ts';
import { docsRoutes } from './web/docs.ts';
import { kycPageRoutes } from './web/kyc/page.ts';
import { mandateApprovalPageRoutes } from './web/mandates/page.ts';
import { merchantAccountPageRoutes } from './web/merchant-accounts/page.ts';
import { oauthPageRoutes } from './web/oauth/routes.ts';
import { onboardingPageRoutes } from './web/onboarding/page.ts';
import { registerOpenApi } from './web/openapi.ts';
import { operationsRoutes, type WorkerStatus } from './web/operations.ts';
import { platformConnectPageRoutes } from './web/platform-connect/page.ts';
import { installRequestLog } from './web/request-log.ts';
import { testDocumentRoutes } from './web/test-documents.ts';
import { approvalPageRoutes } from './web/vault/approval-page.ts';
import { vaultPageRoutes } from './web/vault/page.ts';
import { passkeyResetPageRoutes } from './web/vault/reset-page.ts';
import { walletPageRoutes } from './web/wallet/page.ts';

export interface AppOptions {
  /** A pino destination for the request log (tests capture it); defaults to stdout. */
  logStream?: NodeJS.WritableStream;
  /** The worker of this process, if it runs one: its chores' lag goes to /metrics. */
  worker?: WorkerStatus | null;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Query strings and path parameters arrive as text, so their validator coerces (`?limit=10`, a
 * single `?type=` as a list); a JSON body is validated as sent: `{"limit": "10"}` or a string where
 * a list belongs is a 400, not silently converted.
 *
 * One pair of validators serves the whole app. Fastify asks for a validator per plugin context,
 * each with the shared schemas (`app.addSchema`) known there; a new Ajv instance per context
 * compiled JSON Schema's meta-schema again each time, most of an app start. Every shared schema's
 * `$id` names one OpenAPI component, so the pair takes each context's new ones as they come.
 */
function validatorsByPart(): AjvCompiler.BuildCompilerFromPool {
  const build = AjvCompiler();
  const common = { allErrors: true, removeAdditional: false } as const;
  const instances: AjvCompiler.Ajv[] = [];
  const known = new Set<string>();
  let parts: { coercing: AjvCompile; strict: AjvCompile } | undefined;
  return (externalSchemas, options) => {
    if (!parts) {
      const settings = {
        plugins: options?.plugins ?? [],
        onCreate: (ajv: AjvCompiler.Ajv) => instances.push(ajv),
      };
      parts = {
        coercing: build(externalSchemas, { ...settings, customOptions: { ...common, coerceTypes: 'array' } }),
        strict: build(externalSchemas, { ...settings, customOptions: { ...common, coerceTypes: false } }),
      };
      for (const id of Object.keys(externalSchemas)) known.add(id);
    }
    for (const [id, schema] of Object.entries(externalSchemas)) {
      if (known.has(id)) continue;
      known.add(id);
      for (const ajv of instances) ajv.addSchema(schema as SharedSchema);
    }
    const { coercing, strict } = parts;
    // Fastify calls the validator factory with its route definition, not a bare schema.
    return ((route: { httpPart?: string }) =>
      (route.httpPart === 'body' ? strict : coercing)(
        route as never,
      )) as unknown as ReturnType<AjvCompiler.BuildCompilerFromPool>;
  };
}

type AjvCompile = ReturnType<AjvCompiler.BuildCompilerFromPool>;
type SharedSchema = Parameters<AjvCompiler.Ajv['addSchema']>[0];

/** The Fastify instance every role serves from: logging, limits, error bodies. */
function createServer(ctx: AppContext, options: AppOptions): FastifyInstance {
  // Time-ordered, so that the request log's index takes its rows at one end.
  const nextRequestId = sequentialIds('req');
  return Fastify({
    logger: {
      level: ctx.config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Credentials never reach the log: headers that carry them are redacted, bodies are not logged.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      // Paths and query strings can carry link tokens: the request line is logged redacted.
      serializers: { req: (request) => requestLogFields(request as unknown as FastifyRequest) },
    },
    childLoggerFactory: lazyRequestLogger,
    trustProxy: ctx.config.trustProxy,
    bodyLimit: ctx.config.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : nextRequestId();
    },
    schemaController: {
      compilersFactory: { buildValidator: validatorsByPart(), buildSerializer: serializersBySchema() },
    },
    return503OnClosing: true,
    frameworkErrors: frameworkErrors(ctx.config.baseUrl),
    clientErrorHandler: clientErrorHandler(ctx.config.baseUrl),
  });
}

/** What a process answers before its database is there (a load balancer's and a scraper's routes). */
const HEALTH_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** What /healthz, /readyz and /metrics read, in the API's process and in the worker's. */
const operationsOptions = (ctx: AppContext, options: AppOptions) => ({
  db: ctx.db,
  health: ctx.health,
  poolStats: () => ctx.poolStats(),
  metrics: ctx.metrics,
  events: ctx.events,
  funding: ctx.funding,
  reconciler: ctx.cards.reconciler,
  metricsToken: ctx.config.metricsToken,
  production: ctx.config.production,
  worker: options.worker ?? null,
});

/** A request the database could not serve: the process's view of it changes (/readyz, one log line). */
const databaseLost = (ctx: AppContext) => (error: unknown) =>
  ctx.health.database.set('unavailable', { reason: (error as Error | undefined)?.message });

/**
 * The worker role's own HTTP surface, on `HEALTH_PORT`: `/healthz`, `/readyz` and `/metrics` (the
 * worker's chores among them), nothing else.
 */
export async function buildHealthApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = createServer(ctx, options);
  installErrorHandler(app, ctx.config.baseUrl, databaseLost(ctx));
  await app.register(operationsRoutes, operationsOptions(ctx, options));
  return app;
}

/** Builds the HTTP surface: core plugins, then each domain's routes. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = createServer(ctx, options);

  app.decorateRequest('principal', null);
  // Shutting down: every answer from then on, also to a request that came before, closes its
  // connection, so that clients move their keep-alive connections elsewhere.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (ctx.health.stopping) reply.header('connection', 'close');
    done(null, payload);
  });

  installErrorHandler(app, ctx.config.baseUrl, databaseLost(ctx));
  // Every answer carries its request id. Started before its database: nothing but the health
  // endpoints until the migrations are applied. One callback hook, not async ones: every request
  // runs it, and a promise or a hook more each cost more than the work.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (!ctx.health.migrated && !HEALTH_ROUTES.has(request.routeOptions.url ?? ''))
      return done(serviceUnavailable());
    done();
  });
  installRequestLog(app, ctx.requestLog);
  const refuseBadText = installTextGuard(app);
  installIdempotency(app, { db: ctx.db, clock: ctx.clock, sealer: ctx.sealer });
  installNotFound(app, ctx.config.baseUrl, refuseBadText);

  // JSON only, except where a route says otherwise (the token endpoint takes form bodies).
  app.removeContentTypeParser('text/plain');
  acceptEmptyBodies(app);
  refuseBodiesWhereNone(app);
  await registerOpenApi(app, ctx.config);

  await app.register(operationsRoutes, operationsOptions(ctx, options));
  await app.register(docsRoutes);
  await app.register(authRoutes, {
    auth: ctx.auth,
    tokenLimiter: ctx.tokenRateLimiter,
    tokenLimit: ctx.config.tokenRateLimit,
  });
  await app.register(connectRoutes, { auth: ctx.auth, connect: ctx.connect });
  await app.register(orgRoutes, { auth: ctx.auth, orgs: ctx.orgs });
  await app.register(eventRoutes, { auth: ctx.auth, orgs: ctx.orgs, events: ctx.events });
  await app.register(kycRoutes, {
    auth: ctx.auth,
    kyc: ctx.kyc,
    uploadLimitBytes: ctx.config.kyc.uploadLimitBytes,
  });
  await app.register(kycReviewRoutes, { kyc: ctx.kyc, reviewerToken: ctx.config.kyc.reviewerToken });
  await app.register(kycPageRoutes, {
    kyc: ctx.kyc,
    orgs: ctx.orgs,
    clock: ctx.clock,
    baseUrl: ctx.config.baseUrl,
    uploadLimitBytes: ctx.config.kyc.uploadLimitBytes,
  });
  await app.register(cardRoutes, {
    auth: ctx.auth,
    cards: ctx.cards,
    controls: ctx.cards.controls,
    network: ctx.cards.network,
    platform: ctx.cards.platform,
    funding: ctx.funding,
    db: ctx.db,
  });
  await app.register(cardV1Routes, {
    orgs: ctx.orgs,
    cards: ctx.cards,
    cardholders: ctx.cards.cardholders,
    clock: ctx.clock,
    baseUrl: ctx.config.baseUrl,
  });
  await app.register(lithicWebhookRoutes, {
    db: ctx.db,
    cards: ctx.cards,
    clock: ctx.clock,
    lithic: ctx.config.cards.lithic,
  });
  await app.register(fundingRoutes, { auth: ctx.auth, orgs: ctx.orgs, funding: ctx.funding });
  await app.register(purchaseRoutes, { orgs: ctx.orgs, purchases: ctx.purchases });
  await app.register(receiptRoutes, { auth: ctx.auth, receipts: ctx.receipts });
  await app.register(checkoutRoutes, { auth: ctx.auth });
  await app.register(vaultRoutes, { auth: ctx.auth, vault: ctx.vault, recovery: ctx.vault.recovery });
  await app.register(mandateRoutes, { auth: ctx.auth, mandates: ctx.mandates });
  await app.register(walletLinkRoutes, { auth: ctx.auth, links: ctx.links });
  await app.register(walletPageRoutes, { links: ctx.links, orgs: ctx.orgs });
  await app.register(onboardingRoutes, { orgs: ctx.orgs, onboarding: ctx.onboarding });
  await app.register(onboardingPageRoutes, {
    onboarding: ctx.onboarding,
    orgs: ctx.orgs,
    baseUrl: ctx.config.baseUrl,
  });
  await app.register(platformConnectRoutes, { auth: ctx.auth, platformConnect: ctx.platformConnect });
  await app.register(platformConnectPageRoutes, {
    platformConnect: ctx.platformConnect,
    members: ctx.members,
    clock: ctx.clock,
    baseUrl: ctx.config.baseUrl,
  });
  await app.register(consoleRoutes, {
    members: ctx.members,
    orgs: ctx.orgs,
    events: ctx.events,
    cards: ctx.cards,
    network: ctx.cards.network,
    funding: ctx.funding,
    kyc: ctx.kyc,
    mandates: ctx.mandates,
    purchases: ctx.purchases,
    receipts: ctx.receipts,
    messaging: ctx.messaging,
    requestLog: ctx.requestLog,
    db: ctx.db,
    clock: ctx.clock,
    baseUrl: ctx.config.baseUrl,
  });
  await app.register(messagingRoutes, {
    auth: ctx.auth,
    messaging: ctx.messaging,
    linkDelivery: ctx.linkDelivery,
  });
  await app.register(vaultPageRoutes, { vault: ctx.vault, orgs: ctx.orgs });
  await app.register(approvalPageRoutes, {
    approvals: ctx.purchases.approvals,
    orgs: ctx.orgs,
    formKey: ctx.vault.formKey,
  });
  await app.register(mandateApprovalPageRoutes, {
    mandates: ctx.mandates,
    approvals: ctx.mandates.approvals,
    orgs: ctx.orgs,
    oauth: ctx.oauth,
    formKey: ctx.vault.formKey,
    baseUrl: ctx.config.baseUrl,
  });
  await app.register(passkeyResetPageRoutes, {
    recovery: ctx.vault.recovery,
    orgs: ctx.orgs,
    formKey: ctx.vault.formKey,
    baseUrl: ctx.config.baseUrl,
  });
  await app.register(merchantAccountRoutes, { auth: ctx.auth, merchantAccounts: ctx.merchantAccounts });
  await app.register(merchantAccountPageRoutes, {
    merchantAccounts: ctx.merchantAccounts,
    baseUrl: ctx.config.baseUrl,
  });
  await app.register(acpWebhookRoutes, {
    merchants: ctx.merchants,
    clock: ctx.clock,
    onOrderEvent: (slug, event) => ctx.purchases.checkout.merchantOrderEvent(slug, event),
  });
  await app.register(mcpRoutes, {
    auth: ctx.auth,
    tools: {
      cards: ctx.cards,
      controls: ctx.cards.controls,
      network: ctx.cards.network,
      connect: ctx.connect,
      kyc: ctx.kyc,
      mandates: ctx.mandates,
      purchases: ctx.purchases,
    },
    clock: ctx.clock,
    mcpUrl: ctx.config.mcpUrl,
    baseUrl: ctx.config.baseUrl,
    authCacheTtlMs: ctx.config.authCacheTtlMs,
  });
  await app.register(oauthRoutes, {
    oauth: ctx.oauth,
    limiter: ctx.oauthRateLimiter,
    mcpUrl: ctx.config.mcpUrl,
    baseUrl: ctx.config.baseUrl,
    pages: (scope) =>
      oauthPageRoutes(scope, {
        oauth: ctx.oauth,
        orgs: ctx.orgs,
        mandates: ctx.mandates,
        approvals: ctx.mandates.approvals,
        passkeys: ctx.vault.passkeys,
        clock: ctx.clock,
        mcpUrl: ctx.config.mcpUrl,
        baseUrl: ctx.config.baseUrl,
      }),
  });
  await app.register(testDocumentRoutes);
  return app;
}

/**
 * An empty body sent as JSON is no body, as it is without a media type: many clients send
 * `Content-Type: application/json` on every request, also to actions that take none (closing a
 * card, pausing it). A route that needs a body refuses its absence in validation (`400`).
 */
function acceptEmptyBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * An API operation that takes no body (closing a card, rolling a secret) refuses one with fields, as
 * the others refuse a field they do not know (`400 invalid_request` naming each); no body, or `{}`,
 * is none.
 */
function refuseBodiesWhereNone(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!route.url.startsWith('/api/') || route.schema?.body || !methods.some((m) => BODY_METHODS.has(m)))
      return;
    const refuse = async (request: FastifyRequest) => {
      const { body } = request;
      if (body === undefined) return;
      const fields =
        body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : null;
      if (fields?.length === 0) return;
      throw invalidRequest(
        'This operation takes no body.',
        fields
          ? Object.fromEntries(fields.map((field) => [field, 'is not a recognised field']))
          : { body: 'must be empty: this operation takes none' },
      );
    };
    route.preValidation = [route.preValidation ?? []].flat().concat(refuse);
  });
}

/**
 * Unknown paths answer 404 and known paths with the wrong method 405, both in the error body: a
 * token endpoint's own (OAuth) body on its path, the v2 body elsewhere. Fastify's router cannot tell
 * the two apart, so a second router records every path.
 */
function installNotFound(
  app: FastifyInstance,
  baseUrl: string,
  refuseBadText: preValidationHookHandler,
): void {
  const known = FindMyWay();
  const methodsByPath = new Map<string, Set<string>>();
  const oauthPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let set = methodsByPath.get(route.url);
    if (!set) {
      set = new Set();
      methodsByPath.set(route.url, set);
      known.on('GET', route.url, () => {}, { path: route.url });
    }
    for (const method of methods) set.add(method);
    if (methods.includes('POST') && route.config?.errorFormat === 'oauth') oauthPaths.add(route.url);
  });
  // What no route matches has its text checked as a route's is (a bad query is a 400, not a 404).
  app.setNotFoundHandler({ preValidation: refuseBadText }, (request, reply) => {
    const match = known.find('GET', request.url.split('?')[0] ?? '/');
    const path = (match?.store as { path: string } | undefined)?.path;
    const allowed = path ? methodsByPath.get(path) : undefined;
    if (path && allowed && allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      return sendError(
        reply.header('allow', allow),
        new ApiError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allow}.`),
        baseUrl,
        oauthPaths.has(path) ? 'oauth' : 'v2',
      );
    }
    return sendError(
      reply,
      new ApiError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
      baseUrl,
    );
  });
}
