import { sql } from 'kysely';
import type { DependencyState } from '../core/dependencies.ts';
import type { Db } from './index.ts';

/**
 * Whether an error means the database could not be reached or dropped the connection (as opposed
 * to a query it refused): the server is down, restarting or unreachable, or terminated the session.
 * Such a request is answered `503 service_unavailable` with `Retry-After`, not `500`, and the
 * process waits for the database to come back rather than exiting.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * SQLite's lock wait ran out (`SQLITE_BUSY` and its extended codes): another process held the
 * database past the busy timeout (`SQLITE_BUSY_TIMEOUT_MS`). The database is there; the operation
 * did not get its turn, and nothing of it was written.
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
  }
  return false;
}

/** Socket errors on the way to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shut the session down or is
 * starting: `pg_terminate_backend`, a restart, recovery) and 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATES = (code: string) =>
  /^08[0-9A-Z]{3}$/.test(code) ||
  code === '57P01' ||
  code === '57P02' ||
  code === '57P03' ||
  code === '53300';

/** What node-postgres throws when a connection died or never came up (these carry no code). */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Connection is closed/i;

/** Asks the database for `select 1`, and records what it found in `state`; true when it answered. */
export async function probeDatabase(
  db: Db,
  state: Pick<DependencyState<'ok' | 'unavailable'>, 'set'>,
): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    state.set('ok');
    return true;
  } catch (error) {
    state.set('unavailable', { reason: (error as Error).message });
    return false;
  }
}
