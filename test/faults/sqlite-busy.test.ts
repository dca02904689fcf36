import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedSqliteUrl, type TestDatabase } from '../helpers/databases.ts';
import { type OrgApp, startOrgApp } from '../helpers/fixtures.ts';

/**
 * On SQLite another process can hold the database's write lock (a `purser worker`, a CLI command, a
 * backup): a write that waits past `SQLITE_BUSY_TIMEOUT_MS` for it answers `503 database_busy` with
 * Retry-After (Connect: `503 auth_unavailable`, spec §7), never a 500, and changes nothing; reads go
 * on meanwhile, and the same write passes once the lock is let go. On a SQLite database in either
 * run: PostgreSQL locks rows, not the database, and its way to `503 database_busy` (conflicts that
 * outlast the retries) is checked on PostgreSQL by test/ledger/conflicts.test.ts.
 */
describe('a SQLite database locked by another process', () => {
  let f: OrgApp;
  let other: SQLite.Database;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await migratedSqliteUrl();
    f = await startOrgApp({
      env: {
        DATABASE_URL: database.url,
        SQLITE_BUSY_TIMEOUT_MS: '50',
        WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
      },
    });
    other = new SQLite(f.t.ctx.config.databaseUrl.slice('sqlite:'.length));
  });
  afterAll(async () => {
    if (other.inTransaction) other.exec('rollback');
    other.close();
    await f.close();
    await database.drop();
  });

  const createEndpoint = () =>
    f.t.call('POST', '/api/v1/webhook_endpoints', {
      token: f.org.sandbox.api_key,
      body: { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] },
    });
  const endpoints = async () =>
    (await f.t.call('GET', '/api/v1/webhook_endpoints', { token: f.org.sandbox.api_key })).json().data;

  it('answers a write 503 database_busy with Retry-After, changes nothing, and takes it once the lock is gone', async () => {
    other.exec('begin immediate');
    const busy = await createEndpoint();
    expect(busy.statusCode, busy.body).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json().error).toMatchObject({ code: 'database_busy', docs: expect.any(String) });
    const connect = await f.t.call('POST', '/api/v2/connect/start', {
      token: f.sandbox,
      body: { email: 'busy@example.com' },
    });
    expect(connect.statusCode, connect.body).toBe(503);
    expect(connect.json().error.code).toBe('auth_unavailable');
    // Reads do not wait for the writer.
    expect(await endpoints()).toEqual([]);
    other.exec('commit');

    const created = await createEndpoint();
    expect(created.statusCode, created.body).toBe(201);
    expect(await endpoints()).toHaveLength(1);
  });
});
