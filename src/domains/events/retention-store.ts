import type { Db, Dialect } from '../../db/index.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

/*
 * The events' retention: what the worker's hourly sweep (`EventService.pruneExpired`) removes of the
 * events, deliveries and attempts once they are older than the retention period.
 */

/** How many deliveries, then events, one step of the retention sweep removes (each in its own transaction). */
const PRUNED_PER_STEP = 1_000;

/**
 * Retention: events older than `before` go, with their finished deliveries and attempts. Anything
 * still owed is kept until it is settled, so no delivery is dropped by the sweep.
 *
 * Deliveries are found through their old events (`events_created`, then `webhook_deliveries_event`),
 * not by a scan of every delivery: a delivery is made with or after its event, so each delivery made
 * before `before` belongs to an event made before it, and the sweep costs what has expired, not what
 * the tables hold (hourly scans of a million deliveries held SQLite's write lock 0.7 s each). It
 * goes a thousand rows a transaction, so that a large expiry never holds the lock long either.
 */
export async function pruneBefore(handle: { db: Db; dialect: Dialect }, before: number): Promise<number> {
  const { db } = handle;
  // A finished delivery stays finished (a resend or a recovery makes a new one): these ids stay removable.
  for (;;) {
    const finished = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('event_id', 'in', (eb) => eb.selectFrom('events').select('id').where('created_at', '<', before))
      .where('created_at', '<', before)
      .where('status', '!=', 'pending')
      .limit(PRUNED_PER_STEP)
      .execute();
    const ids = finished.map((row) => row.id);
    if (ids.length > 0)
      await writeTransaction(handle, async (trx) => {
        await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).execute();
        await trx.deleteFrom('webhook_deliveries').where('id', 'in', ids).execute();
      });
    if (ids.length < PRUNED_PER_STEP) break;
  }
  let pruned = 0;
  for (;;) {
    const result = await db
      .deleteFrom('events')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('events')
          .select('events.id')
          .where('events.created_at', '<', before)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_deliveries')
                  .select('webhook_deliveries.id')
                  .whereRef('webhook_deliveries.event_id', '=', 'events.id'),
              ),
            ),
          )
          .limit(PRUNED_PER_STEP),
      )
      .executeTakeFirst();
    const removed = Number(result.numDeletedRows);
    pruned += removed;
    if (removed < PRUNED_PER_STEP) return pruned;
  }
}
