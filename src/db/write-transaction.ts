import { sql } from 'kysely';
import type { DatabaseHandle, Executor } from './index.ts';

/**
 * Runs `work` in a transaction that writes. On SQLite it begins `IMMEDIATE`, taking the write lock
 * before the first read, so that what the transaction reads (a balance) cannot change under it in
 * another process before it writes; a deferred transaction would fail to upgrade instead. On
 * PostgreSQL it is an ordinary transaction: writers lock the rows they read (`FOR UPDATE`).
 */
export async function writeTransaction<T>(
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
  work: (trx: Executor) => Promise<T>,
): Promise<T> {
  if (handle.dialect === 'postgres') return handle.db.transaction().execute(work);
  // Kysely holds SQLite's one connection for the whole callback, so nothing else interleaves.
  return handle.db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}
