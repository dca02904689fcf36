import { CompiledQuery } from 'kysely';
import { execute, withHeldConnection } from './compiled.ts';
import type { DatabaseHandle, Executor } from './index.ts';

const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * Runs `work`, which only reads, on one consistent snapshot: what it reads together was true at one
 * moment, whatever commits meanwhile. PostgreSQL: a REPEATABLE READ transaction. SQLite: a deferred
 * transaction, whose first read fixes the snapshot (WAL) and which takes no write lock.
 */
export async function readSnapshot<T>(
  handle: Pick<DatabaseHandle, 'db' | 'dialect'>,
  work: (trx: Executor) => Promise<T>,
): Promise<T> {
  if (handle.dialect === 'postgres')
    return handle.db.transaction().setIsolationLevel('repeatable read').execute(work);
  return withHeldConnection(handle.db, async (connection) => {
    await execute(connection, BEGIN);
    try {
      const result = await work(connection);
      await execute(connection, COMMIT);
      return result;
    } catch (error) {
      await execute(connection, ROLLBACK);
      throw error;
    }
  });
}
