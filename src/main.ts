import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { runCommand, USAGE } from './cli/commands.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type AppContext, createContext } from './context.ts';
import { oneOf, parse, UsageError } from './core/args.ts';
import { ApiError } from './core/errors.ts';
import { watchEventLoop } from './core/event-loop.ts';
import { Refusal } from './core/refusal.ts';
import { isDatabaseUnavailable } from './db/availability.ts';
import { migrateToLatest, openDatabase } from './db/index.ts';
import { Worker } from './jobs/worker.ts';

const print = (text: string) => process.stdout.write(`${text}\n`);

/**
 * The local quick start only (SQLite, not production, not `PURSER_DEMO=off`): on an empty database,
 * a demo organization whose sandbox credentials are printed this once, as plain lines on standard
 * output, never inside a JSON log record (log pipelines keep and ship those).
 */
async function ensureDemoOrganization(ctx: AppContext): Promise<void> {
  const { config } = ctx;
  if (!config.demo || config.production || !config.databaseUrl.startsWith('sqlite:')) return;
  if ((await ctx.orgs.countOrganizations()) > 0) return;
  const demo = await ctx.orgs.createOrganization({
    name: 'Demo organization',
    billingEmail: 'billing@demo.invalid',
  });
  print(
    [
      '',
      'Created a demo organization. Its sandbox credentials are shown only this once:',
      `  organization_id: ${demo.organization_id}`,
      `  client_id:       ${demo.sandbox.client_id}`,
      `  client_secret:   ${demo.sandbox.client_secret}`,
      `  api_key:         ${demo.sandbox.api_key}`,
      '',
    ].join('\n'),
  );
}

/** What a `purser serve` process runs: the HTTP API, the worker, or both (the default). */
export type Role = 'api' | 'worker' | 'all';

/**
 * One process of the service. Every role answers `/healthz`, `/readyz` and `/metrics`: the API on
 * `PORT` beside everything else, the worker alone on `HEALTH_PORT`. SIGTERM (or SIGINT) shuts it
 * down without dropping anything:
 * 1. `/readyz` answers 503 at once and every response says `Connection: close`; the worker stops
 *    claiming deliveries;
 * 2. the API keeps serving for `SHUTDOWN_DRAIN_SECONDS`, long enough for a load balancer to notice;
 * 3. the listener closes: no new connections, idle keep-alive connections closed, requests in
 *    flight finish; the worker's attempts in flight are recorded;
 * 4. exit 0, or 1 if all that took more than `SHUTDOWN_TIMEOUT_MS` past the drain.
 */
async function serve(ctx: AppContext, role: Role): Promise<void> {
  ctx.health.migrated = await migrateUnlessUnreachable(ctx);
  if (ctx.health.migrated && role !== 'worker') await ensureDemoOrganization(ctx);
  // Loaded here: the HTTP surface is most of the code, and the CLI's other commands never need it.
  const { buildApp, buildHealthApp } = await import('./app.ts');
  const worker = role === 'api' ? null : new Worker(ctx);
  const app: FastifyInstance =
    role === 'worker' ? await buildHealthApp(ctx, { worker }) : await buildApp(ctx, { worker });
  const { config, health } = ctx;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    health.beginStopping();
    const drainMs = role === 'worker' ? 0 : config.shutdownDrainSeconds * 1000;
    ctx.log.info({ signal, drain_seconds: drainMs / 1000 }, 'shutting down: not ready, draining');
    const force = setTimeout(() => {
      ctx.log.error({ timeout_ms: config.shutdownTimeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, drainMs + config.shutdownTimeoutMs);
    force.unref();
    const workerStopped = worker?.stop();
    await sleep(drainMs);
    // Fastify stops accepting, closes idle connections, lets requests in flight finish, then resolves.
    await app.close();
    await workerStopped;
    await ctx.close();
    ctx.log.info({ signal }, 'shut down');
    process.exit(0);
  };
  // Before listening: a signal that arrives as the server comes up still stops it cleanly.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  const address = await app.listen({
    port: role === 'worker' ? config.healthPort : config.port,
    host: config.host,
  });
  if (stopping) return;
  if (ctx.health.migrated) worker?.start();
  else
    void migrateOnceReachable(ctx).then(() => {
      if (!stopping) worker?.start();
    });
  watchEventLoop(config.eventLoopStallMs, (fields, message) => ctx.log.warn(fields, message));
  // Tests and supervisors wait for this line, whatever LOG_LEVEL says.
  if (role === 'worker') print(JSON.stringify({ level: 30, msg: 'worker started', health: address }));
}

/**
 * Applies the migrations before serving; false when the database cannot be reached. A process
 * started before its database is not a process that failed: it serves its health endpoints and
 * answers 503 until the database comes (docs/operations.md, Runbook).
 */
async function migrateUnlessUnreachable(ctx: AppContext): Promise<boolean> {
  try {
    await ctx.migrate();
    return true;
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    ctx.health.database.set('unavailable', { reason: (error as Error).message });
    return false;
  }
}

/** Tries the migrations again every second until the database answers, then marks the process migrated. */
async function migrateOnceReachable(ctx: AppContext): Promise<void> {
  while (!ctx.health.stopping) {
    await sleep(1000);
    if (await migrateUnlessUnreachable(ctx)) {
      ctx.health.database.set('ok');
      ctx.health.migrated = true;
      return;
    }
  }
}

/** `purser serve [--role api|worker|all]`, `all` by default. */
function serveRole(argv: string[]): Role {
  const { values } = parse(argv, { role: { type: 'string' } });
  return oneOf(values.role, 'role', ['api', 'worker', 'all'] as const) ?? 'all';
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  if (command === '--help' || command === 'help' || command === '-h') {
    print(USAGE);
    return;
  }
  const config = loadConfig();

  if (command === 'migrate') {
    const handle = await openDatabase(config.databaseUrl);
    try {
      const applied = await migrateToLatest(handle);
      print(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
    } finally {
      await handle.close();
    }
    return;
  }

  const role = command === 'serve' ? serveRole(argv.slice(1)) : command === 'worker' ? 'worker' : null;
  // A serving process applies the migrations itself, waiting for the database if need be.
  const ctx = await createContext(config, { migrate: role === null });
  if (role) return serve(ctx, role);
  try {
    await runCommand(ctx, argv, print);
  } finally {
    await ctx.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`purser: ${error.message}\n${error.showUsage ? `\n${USAGE}\n` : ''}`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof ApiError || error instanceof Refusal) {
    process.stderr.write(`purser: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`purser: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
