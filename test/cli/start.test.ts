import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
import { countOrganizations } from '../../src/domains/orgs/store.ts';
import { freshDatabaseUrl, onPostgres } from '../helpers/harness.ts';
import { exited, purser, startServer } from './process.ts';

const key = () => randomBytes(32).toString('base64');

/** What a start prints: credentials only ever on plain lines, never inside a JSON log record. */
function expectNoSecretInJson(output: string) {
  for (const line of output.split('\n')) {
    if (line.startsWith('{')) expect(line).not.toMatch(/client_secret|cs_test_|sk_test_/);
  }
}

async function serveOnce(env: Record<string, string>): Promise<string> {
  const server = await startServer(env);
  server.child.kill('SIGTERM');
  expect(await exited(server.child)).toBe(0);
  return server.output();
}

describe('process start', { timeout: 120_000 }, () => {
  it('refuses to start without ENCRYPTION_KEY on PostgreSQL or in production, saying how to make one', async () => {
    const database = freshDatabaseUrl();
    try {
      const env: Record<string, string> = onPostgres
        ? { DATABASE_URL: database.url }
        : { DATABASE_URL: database.url, NODE_ENV: 'production' };
      for (const command of [['serve'], ['worker'], ['outbox']]) {
        const result = await purser(command, env);
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toMatch(/ENCRYPTION_KEY is required/);
        expect(result.stderr).toMatch(/openssl rand -base64 32/);
      }
    } finally {
      await database.drop();
    }
  });

  it('refuses to start in production with WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=true, naming what to set instead', async () => {
    const database = freshDatabaseUrl();
    try {
      const env = {
        DATABASE_URL: database.url,
        NODE_ENV: 'production',
        ENCRYPTION_KEY: key(),
        WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
      };
      for (const command of [['serve'], ['worker']]) {
        const result = await purser(command, env);
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toMatch(/WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=true is for local development/);
        expect(result.stderr).toMatch(/OUTBOUND_ALLOWED_PRIVATE_HOSTS/);
      }
    } finally {
      await database.drop();
    }
  });

  it('creates no demo organization on PostgreSQL, in production, or with PURSER_DEMO=off', async () => {
    const cases: Record<string, string>[] = onPostgres
      ? [{ ENCRYPTION_KEY: key() }]
      : [{ PURSER_DEMO: 'off' }, { NODE_ENV: 'production', ENCRYPTION_KEY: key() }];
    for (const extra of cases) {
      const database = freshDatabaseUrl();
      try {
        const env = { DATABASE_URL: database.url, LOG_LEVEL: 'info', ...extra };
        const output = await serveOnce(env);
        expect(output, JSON.stringify(extra)).not.toMatch(/demo organization|client_secret/);
        const handle = await openDatabase(database.url);
        try {
          expect(await countOrganizations(handle.db)).toBe(0);
        } finally {
          await handle.close();
        }
      } finally {
        await database.drop();
      }
    }
  });

  it.skipIf(onPostgres)(
    'prints the local demo credentials as plain lines, never in a JSON log record',
    async () => {
      const database = freshDatabaseUrl();
      try {
        const output = await serveOnce({ DATABASE_URL: database.url, LOG_LEVEL: 'trace' });
        expect(output).toMatch(/^ {2}client_secret: +cs_test_/m);
        expectNoSecretInJson(output);
      } finally {
        await database.drop();
      }
    },
  );

  it.skipIf(onPostgres)('creates the SQLite directory 0700 and the database and key files 0600', async () => {
    const root = mkdtempSync(join(tmpdir(), 'purser-modes-'));
    try {
      const dir = join(root, 'data');
      const migrated = await purser(['migrate'], { DATABASE_URL: `sqlite:${join(dir, 'p.db')}` });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'p.db')).mode & 0o777).toBe(0o600);
      await serveOnce({ DATABASE_URL: `sqlite:${join(dir, 'p.db')}`, PURSER_DEMO: 'off' });
      expect(statSync(join(dir, 'p.db.key')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
