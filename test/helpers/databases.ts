/**
 * Databases for tests: each app gets one of its own, on SQLite by default or on PostgreSQL when
 * `PURSER_TEST_POSTGRES=1` (with `TEST_DATABASE_URL`). A migrated one is a copy of a template
 * migrated once per version of src/db/ (a file copied on SQLite, `CREATE DATABASE … TEMPLATE` on
 * PostgreSQL), so an app start does not run every migration again.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src/db/index.ts';

/** Which database this run uses: SQLite, or PostgreSQL when asked. */
export const onPostgres = process.env.PURSER_TEST_POSTGRES === '1';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function postgresBase(): string {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('PURSER_TEST_POSTGRES=1 needs TEST_DATABASE_URL');
  return base;
}

async function onAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresBase() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** An empty database (a fresh SQLite file, or a fresh PostgreSQL schema): for tests of migrating. */
export function freshDatabaseUrl(): TestDatabase {
  if (onPostgres) {
    const schema = `t_${randomBytes(8).toString('hex')}`;
    const url = new URL(postgresBase());
    url.searchParams.set('schema', schema);
    return {
      url: url.toString(),
      drop: () => onAdmin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(() => {}),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'purser-test-'));
  return {
    url: `sqlite:${join(dir, 'purser.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A database migrated to the latest schema, ready for an app. */
export async function migratedDatabaseUrl(): Promise<TestDatabase> {
  return onPostgres ? postgresCopy() : migratedSqliteUrl();
}

const DB_SOURCE = fileURLToPath(new URL('../../src/db', import.meta.url));

/** Names the template: it changes whenever a file under src/db/ (the migrations among them) does. */
function schemaDigest(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(DB_SOURCE, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(DB_SOURCE, file);
    if (!existsSync(path) || !file.match(/\.[jt]s$/)) continue;
    hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

async function sqliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), 'purser-test-templates');
  const path = join(dir, `${schemaDigest()}.db`);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Migrated beside its final name and renamed, so a process never copies a half-made template.
  const staging = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const handle = await openDatabase(`sqlite:${staging}`);
  await migrateToLatest(handle);
  await handle.close();
  // Everything in the one file (no write-ahead log beside it), so that copying the file copies it all.
  const file = new SQLite(staging);
  file.pragma('journal_mode = DELETE');
  file.close();
  renameSync(staging, path);
  return path;
}

/** A migrated SQLite database in either run: for what only SQLite does (another process's lock). */
export async function migratedSqliteUrl(): Promise<TestDatabase> {
  const template = await sqliteTemplate();
  const dir = mkdtempSync(join(tmpdir(), 'purser-test-'));
  const path = join(dir, 'purser.db');
  copyFileSync(template, path);
  return { url: `sqlite:${path}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

function databaseUrl(name: string): string {
  const url = new URL(postgresBase());
  url.pathname = `/${name}`;
  return url.toString();
}

/** The migrated template database, made by the first process to need it (the others wait on a lock). */
async function postgresTemplate(): Promise<string> {
  const name = `purser_template_${schemaDigest()}`;
  const exists = (client: pg.Client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]).then((r) => r.rowCount === 1);
  return onAdmin(async (client) => {
    if (await exists(client)) return name;
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      if (await exists(client)) return name;
      const staging = `${name}_${randomBytes(4).toString('hex')}`;
      await client.query(`CREATE DATABASE ${staging}`);
      const handle = await openDatabase(databaseUrl(staging));
      await migrateToLatest(handle);
      await handle.close();
      // Renamed once complete, so a copy is never taken of a half-migrated template.
      await client.query(`ALTER DATABASE ${staging} RENAME TO ${name}`);
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
}

async function postgresCopy(): Promise<TestDatabase> {
  const template = await postgresTemplate();
  const name = `t_${randomBytes(8).toString('hex')}`;
  await onAdmin((client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: databaseUrl(name),
    drop: () =>
      onAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
