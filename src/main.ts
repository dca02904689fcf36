import type { FastifyInstance } from 'fastify';
import { UsageError } from './cli/args.ts';
import { runCommand, USAGE } from './cli/commands.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type AppContext, createContext } from './context.ts';
import { ApiError } from './core/errors.ts';
import { watchEventLoop } from './core/event-loop.ts';
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

async function serve(ctx: AppContext): Promise<void> {
  await ensureDemoOrganization(ctx);
  // Loaded here: the HTTP surface is most of the code, and the CLI's other commands never need it.
  const { buildApp } = await import('./app.ts');
  const app: FastifyInstance = await buildApp(ctx);
  const worker = new Worker(ctx, app.log);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, ctx.config.shutdownTimeoutMs);
    force.unref();
    // Fastify stops accepting, lets in-flight requests finish, then resolves.
    await app.close();
    await worker.stop();
    await ctx.close();
    process.exit(0);
  };
  // Before listening: a signal that arrives as the server comes up still stops it cleanly.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.listen({ port: ctx.config.port, host: ctx.config.host });
  if (stopping) return;
  worker.start();
  watchEventLoop(ctx.config.eventLoopStallMs, (fields, message) => app.log.warn(fields, message));
}

/** The worker role alone: deliveries and sweeps; SIGTERM lets the attempts in flight finish. */
async function work(ctx: AppContext): Promise<void> {
  const worker = new Worker(ctx);
  worker.start();
  watchEventLoop(ctx.config.eventLoopStallMs, (fields, message) =>
    process.stdout.write(`${JSON.stringify({ level: 'warn', ...fields, msg: message })}\n`),
  );
  process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'worker started' })}\n`);
  const stop = async () => {
    setTimeout(() => process.exit(1), ctx.config.shutdownTimeoutMs).unref();
    await worker.stop();
    await ctx.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
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

  const ctx = await createContext(config);
  if (command === 'serve') return serve(ctx);
  if (command === 'worker') return work(ctx);
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
  if (error instanceof ConfigError || error instanceof ApiError) {
    process.stderr.write(`purser: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`purser: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
