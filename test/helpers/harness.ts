import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { CreatedOrganization, Credentials } from '../../src/domains/orgs/service.ts';
import { migratedDatabaseUrl, onPostgres } from './databases.ts';

export { freshDatabaseUrl, migratedDatabaseUrl, onPostgres } from './databases.ts';

/** Collects every log line the app writes, to assert on what reached the log. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(chunk.toString('utf8'));
    done();
  }
  get text(): string {
    return this.lines.join('');
  }
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  clock: ManualClock;
  logs: LogCapture;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** JSON request with an optional bearer token. */
  call(
    method: string,
    url: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  createOrg(name?: string): Promise<CreatedOrganization>;
  /** A platform token for these client credentials. */
  platformToken(credentials: Credentials): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real app on a real database with a movable clock. The token rate limit is raised unless the
 * test sets it, so that tests minting many tokens are not limited by accident.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await migratedDatabaseUrl();
  const config = loadConfig({
    DATABASE_URL: database.url,
    BASE_URL: 'http://purser.test',
    LOG_LEVEL: 'info',
    TOKEN_RATE_LIMIT: '100000',
    OAUTH_RATE_LIMIT: '100000',
    // PostgreSQL refuses to start without a configured key; SQLite keeps the zero-configuration start.
    ...(onPostgres ? { ENCRYPTION_KEY: randomBytes(32).toString('base64') } : {}),
    ...env,
  });
  const clock = new ManualClock(Date.now());
  const logs = new LogCapture();
  const ctx = await createContext(config, { clock, logStream: logs });
  const app = await buildApp(ctx, { logStream: logs });
  await app.ready();

  const request = (options: InjectOptions) => app.inject(options);
  const call: TestApp['call'] = (method, url, options = {}) =>
    app.inject({
      method: method as InjectOptions['method'],
      url,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
    });

  return {
    app,
    ctx,
    clock,
    logs,
    request,
    call,
    createOrg: (name = 'Acme') => ctx.orgs.createOrganization({ name, billingEmail: 'billing@acme.test' }),
    async platformToken(credentials) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v2/oauth/token',
        payload: {
          grant_type: 'client_credentials',
          client_id: credentials.client_id,
          client_secret: credentials.client_secret,
        },
      });
      if (response.statusCode !== 200) throw new Error(`token: ${response.statusCode} ${response.body}`);
      return response.json().access_token as string;
    },
    async close() {
      await app.close();
      await ctx.close();
      await database.drop();
    },
  };
}
