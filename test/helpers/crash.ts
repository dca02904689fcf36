import { type ChildProcess, spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { BIN } from '../cli/process.ts';
import { testEncryptionKey } from '../events/receiver.ts';
import { migratedDatabaseUrl, type TestDatabase } from './databases.ts';

/**
 * What the crash tests share: an app in the test process on a database that child `purser`
 * processes (killed by `PURSER_FAILPOINT`) open too, an organization's sandbox platform token, and
 * one connected user. Set up before the file's tests, closed after them, children killed.
 */
export interface CrashApp {
  ctx: AppContext;
  app: FastifyInstance;
  /** The settings the children run with (the test's database and key). */
  env: Record<string, string>;
  /** The organization every request acts for. */
  org: CreatedOrganization;
  platform: string;
  userId: string;
  userToken: string;
  /** An injected request with this bearer that must succeed; its JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: the JSON answers of many routes, read loosely by the tests
  call(token: string, method: 'POST' | 'GET', url: string, body?: unknown): Promise<any>;
  /** `purser worker` as a child, with the runner's environment less what Vite adds, and `extra`. */
  worker(extra?: Record<string, string>): ChildProcess;
  /** What a child from `worker` printed so far (for a failure's message). */
  printed(child: ChildProcess): string;
  /** Children to kill once the file is done (servers started elsewhere). */
  children: ChildProcess[];
}

export function useCrashApp(name: string, settings: Record<string, string> = {}): CrashApp {
  const f = { env: {}, children: [] as ChildProcess[] } as unknown as CrashApp;
  const printed = new WeakMap<ChildProcess, () => string>();
  let database: TestDatabase;
  beforeAll(async () => {
    database = await migratedDatabaseUrl();
    Object.assign(f.env, {
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: testEncryptionKey(),
      BASE_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'warn',
      TOKEN_RATE_LIMIT: '100000',
      PURSER_DEMO: 'off',
      ...settings,
    });
    f.ctx = await createContext(loadConfig(f.env));
    f.app = await buildApp(f.ctx);
    f.call = async (token, method, url, body) => {
      const response = await f.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(body ? { payload: body as object } : {}),
      });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    f.worker = (extra = {}) => {
      const { BASE_URL: _base, MODE: _mode, DEV: _dev, PROD: _prod, SSR: _ssr, ...rest } = process.env;
      const child = spawn(process.execPath, [BIN, 'worker'], {
        env: { ...rest, ...f.env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const keep = (chunk: Buffer) => {
        output += chunk;
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      printed.set(child, () => output);
      f.children.push(child);
      return child;
    };
    f.printed = (child) => printed.get(child)?.() ?? '';
    f.org = await f.ctx.orgs.createOrganization({ name, billingEmail: 'billing@crash.test' });
    const { org } = f;
    const minted = await f.app.inject({
      method: 'POST',
      url: '/api/v2/oauth/token',
      payload: {
        grant_type: 'client_credentials',
        client_id: org.sandbox.client_id,
        client_secret: org.sandbox.client_secret,
      },
    });
    f.platform = minted.json().access_token;
    const started = await f.call(f.platform, 'POST', '/api/v2/connect/start', {
      email: 'crash.user@example.com',
    });
    const verified = await f.call(f.platform, 'POST', '/api/v2/connect/verify', {
      connect_id: started.id,
      code: '111111',
    });
    f.userId = verified.user.id;
    f.userToken = verified.access_token;
  });
  afterAll(async () => {
    for (const child of f.children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await f.app?.close();
    await f.ctx?.close();
    await database?.drop();
  });
  return f;
}
