import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { CreatedOrganization, Credentials } from '../../src/domains/orgs/service.ts';

/** Which database this run uses: a fresh SQLite file, or a fresh PostgreSQL schema when asked. */
export const onPostgres = process.env.PURSER_TEST_POSTGRES === '1';

/** A database of its own for one test app. */
export function freshDatabaseUrl(): { url: string; drop(): Promise<void> } {
  if (onPostgres) {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('PURSER_TEST_POSTGRES=1 needs TEST_DATABASE_URL');
    const schema = `t_${randomBytes(8).toString('hex')}`;
    const url = new URL(base);
    url.searchParams.set('schema', schema);
    return {
      url: url.toString(),
      async drop() {
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'purser-test-'));
  return {
    url: `sqlite:${join(dir, 'purser.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

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
  const database = freshDatabaseUrl();
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
