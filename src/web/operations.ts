import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { formatUnits } from 'viem';
import { digest, safeEqual } from '../core/crypto.ts';
import type { ProcessHealth } from '../core/dependencies.ts';
import { ApiError, notFound } from '../core/errors.ts';
import type { ProcessMetrics } from '../core/metrics.ts';
import type { RoutesApp } from '../core/schemas.ts';
import { probeDatabase } from '../db/availability.ts';
import type { Db, PoolStats } from '../db/index.ts';
import type { CardService } from '../domains/cards/index.ts';
import type { EventService } from '../domains/events/index.ts';
import type { FundingService } from '../domains/funding/index.ts';
import { HttpMetrics } from './http-metrics.ts';

/** `/healthz` (the process is up), `/readyz` (the database answers), `/metrics` (Prometheus). */
/** What /metrics reads from the worker of the process, when it runs one. */
export interface WorkerStatus {
  choreLag(): { chore: string; lagMs: number; lastDoneAt: number | null }[];
}

/**
 * What the operations routes read: the process's health and counters, the database (readiness),
 * and the backlogs and checks the domains keep. The app-wide parts are named here, as a route's are.
 */
export interface OperationsOptions {
  db: Db;
  health: ProcessHealth;
  poolStats: () => PoolStats | null;
  metrics: ProcessMetrics;
  events: EventService;
  funding: FundingService;
  reconciler: CardService['reconciler'];
  /** METRICS_TOKEN: the bearer /metrics asks for; none: open (not in production). */
  metricsToken: string | null;
  production: boolean;
  worker?: WorkerStatus | null;
}

async function operations(app: RoutesApp, options: OperationsOptions): Promise<void> {
  const { worker } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'purser_' });
  const http = new HttpMetrics(registry);

  registerDependencyMetrics(registry, options);
  registerBacklogMetrics(registry, options);
  if (worker) registerWorkerMetrics(registry, worker);

  // The chain against the books (CHAIN=evm): what the worker's last check recorded, read at scrape
  // time from the database, so that any API process shows what any worker found.
  const chainCheck = () => options.funding.onChain.chainDrifts().catch(() => null);
  new Gauge({
    name: 'purser_chain_drift_tokens',
    help: 'Tokens an address holds on the chain less what the books say it should, per drifting address (last worker check)',
    labelNames: ['address', 'kind', 'organization_id'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const check = await chainCheck();
      for (const d of check?.drifts ?? [])
        this.set(
          { address: d.address, kind: d.kind, organization_id: d.organization_id },
          Number(formatUnits(BigInt(d.chain_units) - BigInt(d.ledger_units), check?.decimals ?? 0)),
        );
    },
  });
  new Gauge({
    name: 'purser_chain_drift_addresses',
    help: 'Addresses whose tokens on the chain disagree with the books (last worker check)',
    registers: [registry],
    async collect() {
      this.set((await chainCheck())?.drifts.length ?? 0);
    },
  });
  new Gauge({
    name: 'purser_chain_reconciled_timestamp_seconds',
    help: 'When the worker last compared the chain with the books (0: never)',
    registers: [registry],
    async collect() {
      const last = (await chainCheck())?.last;
      this.set(last ? last.at / 1000 : 0);
    },
  });

  // The issuer against the books (CARD_ISSUER=lithic): what the worker's last check recorded.
  const issuerCheck = () => options.reconciler.last().catch(() => null);
  new Gauge({
    name: 'purser_issuer_drift_transactions',
    help: 'Issuer transactions the books disagree with, by kind: missing, status, amount, unreadable (last worker check)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const check = await issuerCheck();
      if (!check) return;
      for (const kind of ['missing', 'status', 'amount', 'unreadable'] as const)
        this.set({ kind }, check.drifts.filter((d) => d.kind === kind).length);
    },
  });
  new Gauge({
    name: 'purser_issuer_reconciled_timestamp_seconds',
    help: 'When the worker last compared the issuer with the books (0: never)',
    registers: [registry],
    async collect() {
      const check = await issuerCheck();
      this.set(check ? check.checkedAt / 1000 : 0);
    },
  });

  // Each route gets its own hook that knows its path (reading `request.routeOptions` builds an
  // object per call); requests no route matched share one label.
  type Measure = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;
  const measure = (route: string): Measure => {
    const record = http.recorder(route);
    return (request, reply, done) => {
      record(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
  };
  app.addHook('onRoute', (route) => {
    const own = route.onResponse ? [route.onResponse].flat() : [];
    route.onResponse = [...own, measure(route.url) as onResponseHookHandler];
  });
  const unmatched = measure('unmatched');
  app.addHook('onResponse', (request, reply, done) =>
    request.is404 ? unmatched(request, reply, done) : done(),
  );

  const hide = { schema: { hide: true } };
  app.get('/healthz', hide, async () => ({ status: 'ok' }));
  app.get('/readyz', hide, async (_request, reply) => readiness(options, reply));
  // The metrics name every route and its traffic: with METRICS_TOKEN set only a scraper holding it
  // reads them; without one they are open outside production (a developer's machine) and do not
  // exist on a production instance's public port.
  const { metricsToken, production } = options;
  app.get('/metrics', hide, async (request, reply) => {
    if (metricsToken === null && production) throw notFound(`No route ${request.method} /metrics.`);
    const presented = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (metricsToken !== null && !safeEqual(digest(presented), digest(metricsToken))) {
      throw new ApiError(401, 'unauthorized', 'Send the metrics token as a bearer token.', {
        headers: { 'www-authenticate': 'Bearer realm="metrics"' },
      });
    }
    reply.header('content-type', registry.contentType);
    // The process's own counters (webhook attempts, card authorizations) beside this app's.
    return Registry.merge([registry, options.metrics.registry]).metrics();
  });
}

/**
 * The process's view of its dependencies: the database (and its pool, on PostgreSQL) and Redis
 * (when `REDIS_URL` is used): series that do not apply are absent rather than 0.
 */
function registerDependencyMetrics(
  registry: Registry,
  { health, poolStats }: Pick<OperationsOptions, 'health' | 'poolStats'>,
): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('purser_db_up', 'Whether the database answered this process last time it asked (1) or not (0)', () =>
    health.database.ok ? 1 : 0,
  );
  if (poolStats()) {
    const pool = (read: (stats: PoolStats) => number) => () => read(poolStats()!);
    gauge(
      'purser_db_pool_max',
      'PostgreSQL connections this process may open (DATABASE_POOL_SIZE)',
      pool((s) => s.max),
    );
    gauge(
      'purser_db_pool_size',
      'PostgreSQL connections open now',
      pool((s) => s.size),
    );
    gauge(
      'purser_db_pool_in_use',
      'PostgreSQL connections running a query or transaction now',
      pool((s) => s.inUse),
    );
    gauge(
      'purser_db_pool_waiting',
      'Queries waiting for a PostgreSQL connection now',
      pool((s) => s.waiting),
    );
  }
  if (health.redis.state !== 'off')
    gauge(
      'purser_redis_up',
      'Redis (REDIS_URL) ready (1), or lost or still connecting (0: rate limits are per process)',
      () => (health.redis.ok ? 1 : 0),
    );
}

/**
 * Webhook deliveries owed, read from the database at scrape time (the same in every process): a
 * growing `due` count or oldest due age means the workers do not keep up, or are paused.
 */
function registerBacklogMetrics(registry: Registry, { events }: Pick<OperationsOptions, 'events'>): void {
  // One query per scrape serves both gauges: a scrape collects them together, and they share the
  // query in flight.
  let pending: Promise<Awaited<ReturnType<EventService['backlog']>> | null> | null = null;
  const backlog = () => {
    pending ??= events
      .backlog()
      .catch(() => null)
      .finally(() => {
        pending = null;
      });
    return pending;
  };
  new Gauge({
    name: 'purser_webhook_backlog',
    help: 'Pending webhook deliveries: due (waiting for a worker), in_flight (an attempt under way) or scheduled (a retry later)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const now = await backlog();
      if (!now) return;
      this.set({ state: 'due' }, now.due);
      this.set({ state: 'in_flight' }, now.inFlight);
      this.set({ state: 'scheduled' }, now.scheduled);
    },
  });
  new Gauge({
    name: 'purser_webhook_oldest_due_age_seconds',
    help: 'How long the longest-waiting due webhook delivery has been due (0: none waiting)',
    registers: [registry],
    async collect() {
      const now = await backlog();
      if (now) this.set(now.oldestDueAgeMs / 1000);
    },
  });
}

/** The worker's periodic chores: how late each is, and when it last completed. */
function registerWorkerMetrics(registry: Registry, worker: WorkerStatus): void {
  new Gauge({
    name: 'purser_worker_chore_lag_seconds',
    help: 'How long past its due time each worker chore has not run (0: on schedule)',
    labelNames: ['chore'] as const,
    registers: [registry],
    collect() {
      for (const { chore, lagMs } of worker.choreLag()) this.set({ chore }, lagMs / 1000);
    },
  });
  new Gauge({
    name: 'purser_worker_chore_last_success_timestamp_seconds',
    help: 'When each worker chore last completed without error (absent: not yet)',
    labelNames: ['chore'] as const,
    registers: [registry],
    collect() {
      for (const { chore, lastDoneAt } of worker.choreLag())
        if (lastDoneAt !== null) this.set({ chore }, lastDoneAt / 1000);
    },
  });
}

/**
 * Ready when the database answers and the process is not shutting down (SIGTERM turns it to 503 at
 * once, so that a load balancer stops sending before the listener closes). Redis down is `degraded`
 * but ready: rate limits fall back to each process's own (docs/operations.md, Runbook).
 */
async function readiness({ db, health }: Pick<OperationsOptions, 'db' | 'health'>, reply: FastifyReply) {
  const redis = health.redis.state;
  if (health.stopping) return reply.code(503).send({ status: 'stopping', redis });
  const reachable = await probeDatabase(db, health.database);
  if (!reachable) return reply.code(503).send({ status: 'unavailable', database: 'unreachable', redis });
  // Started before its database: reachable now, the migrations about to be applied.
  if (!health.migrated) return reply.code(503).send({ status: 'unavailable', database: 'migrating', redis });
  return { status: 'ready', database: 'ok', redis };
}

/** Not encapsulated: the metrics hook must see every route of the app. */
export const operationsRoutes = fp(operations, { name: 'operations' });
