import { sql } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import { isEventType, matchesSubscription } from './matching.ts';
import * as store from './store.ts';

/** The PostgreSQL NOTIFY channel that announces new deliveries. */
export const DELIVERIES_CHANNEL = 'purser_webhook_deliveries';

/** A delivery owed now: due at `now`, no attempt yet. */
export function newDelivery(
  eventId: string,
  endpointId: string,
  organizationId: string,
  livemode: number,
  now: number,
): store.NewDelivery {
  return {
    id: newId('whd'),
    event_id: eventId,
    endpoint_id: endpointId,
    organization_id: organizationId,
    livemode,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    lease_token: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The transactional outbox: domains call `emit` inside their own transaction, and the event and the
 * deliveries it owes commit or roll back with the change.
 */
export class Outbox {
  private readonly emitListeners = new Set<() => void>();
  /** Per open transaction: each owner's active endpoints, as of `store.endpointWrites` (see `insertEvents`). */
  private readonly endpointsIn = new WeakMap<
    Executor,
    Map<string, { writes: number; endpoints: { id: string; enabledEvents: string[] }[] }>
  >();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
  ) {}

  /** Writes the event (and its owed deliveries) in the caller's transaction. */
  async emit(
    trx: Executor,
    event: { organizationId: string; livemode: boolean; type: string; data: Record<string, unknown> },
  ): Promise<{ id: string }> {
    const [emitted] = await this.emitAll(trx, event, [event]);
    return emitted as { id: string };
  }

  /**
   * Several events of one owner, in this order, written together (one insert) with the deliveries
   * they owe: what one change reports (an authorization and its card's update).
   */
  async emitAll(
    trx: Executor,
    owner: Tenant,
    events: { type: string; data: Record<string, unknown> }[],
  ): Promise<{ id: string }[]> {
    for (const event of events)
      if (!isEventType(event.type)) throw new Error(`not an event type: ${event.type}`);
    if (events.length === 0) return [];
    const now = this.clock.now();
    const livemode = livemodeColumn(owner.livemode);
    const rows = events.map((event) => ({
      id: newId('evt'),
      organization_id: owner.organizationId,
      livemode,
      type: event.type,
      data: JSON.stringify(event.data),
      created_at: now,
    }));
    const endpoints = await this.insertEvents(trx, rows);
    if (endpoints.length === 0) return rows.map((row) => ({ id: row.id }));
    const owed = rows.flatMap((row) =>
      endpoints
        .filter((endpoint) => matchesSubscription(endpoint.enabledEvents, row.type))
        .map((endpoint) => newDelivery(row.id, endpoint.id, owner.organizationId, livemode, now)),
    );
    await store.insertDeliveries(trx, owed);
    if (owed.length > 0) await this.announceDeliveries(trx);
    return rows.map((row) => ({ id: row.id }));
  }

  /** Wakes the workers for deliveries written in `trx`: those in this process now, others on commit. */
  async announceDeliveries(trx: Executor): Promise<void> {
    // PostgreSQL delivers a NOTIFY on commit (and drops it on rollback): workers in other
    // processes, LISTENing on this channel, wake at once instead of at their next poll.
    if (this.dialect === 'postgres') await sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(trx);
    for (const listener of this.emitListeners) listener();
  }

  /**
   * Tells an in-process worker that deliveries were just written, so an idle one need not wait for
   * its next poll. Only a hint: the deliveries are visible once the caller's transaction commits.
   */
  onEmit(listener: () => void): () => void {
    this.emitListeners.add(listener);
    return () => this.emitListeners.delete(listener);
  }

  /**
   * Inserts events of one owner and returns the owner's active endpoints and their subscriptions,
   * read once per transaction (a transaction emitting several times looks them up once); on
   * PostgreSQL the first read shares the insert's round trip.
   */
  private async insertEvents(trx: Executor, rows: store.NewEvent[]) {
    const { organization_id: organizationId, livemode } = rows[0] as store.NewEvent;
    const key = `${organizationId}|${livemode}`;
    const inTransaction = trx !== this.db;
    const writes = store.endpointWrites.count;
    const cached = inTransaction ? this.endpointsIn.get(trx)?.get(key) : undefined;
    if (cached?.writes === writes) {
      await store.insertEvents(trx, rows);
      return cached.endpoints;
    }
    let found: Awaited<ReturnType<typeof store.activeEndpoints>>;
    if (this.dialect === 'postgres')
      found = await store.insertEventsReadingEndpoints(trx, rows, organizationId, livemode);
    else {
      await store.insertEvents(trx, rows);
      found = await store.activeEndpoints(trx, organizationId, livemode);
    }
    const endpoints = found.map((row) => ({
      id: row.id,
      enabledEvents: JSON.parse(row.enabled_events) as string[],
    }));
    if (inTransaction) {
      const known = this.endpointsIn.get(trx) ?? new Map();
      known.set(key, { writes, endpoints });
      this.endpointsIn.set(trx, known);
    }
    return endpoints;
  }
}
