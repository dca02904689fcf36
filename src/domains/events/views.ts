import type { Clock } from '../../core/clock.ts';
import { unixSeconds } from '../../core/clock.ts';
import { cursorOf, DEFAULT_PAGE_LIMIT, type ListPage, pageOf } from '../../core/pagination.ts';
import { invalid, missing } from '../../core/refusal.ts';
import { isLivemode, livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import { isSubscription } from './matching.ts';
import { envelopeJson } from './signing.ts';
import * as store from './store.ts';

/** Spec §6 "Envelope": exactly these fields, as listed and as delivered. */
export interface EventEnvelope {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: Record<string, unknown>;
}

export interface WebhookAttemptView {
  attempt: number;
  attempted_at: number;
  status_code: number | null;
  duration_ms: number;
  succeeded: boolean;
  /** `unknown`: interrupted before an answer was recorded (see events/store.ts `claimDue`). */
  outcome: 'succeeded' | 'failed' | 'unknown';
  error: string | null;
  response_excerpt: string | null;
}

export interface WebhookDeliveryView {
  object: 'webhook_delivery';
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempt_count: number;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created: number;
  completed_at: number | null;
  attempts: WebhookAttemptView[];
}

export interface EventListQuery {
  type?: string[];
  'created[gt]'?: number;
  'created[gte]'?: number;
  'created[lt]'?: number;
  'created[lte]'?: number;
  limit?: number;
  starting_after?: string;
}

export interface TailedEvent {
  event: EventEnvelope;
  /** The envelope exactly as a delivery sends it. */
  body: string;
  position: store.Position;
}

const seconds = (ms: number) => unixSeconds(ms);

/** What the event log and the delivery log show: events, deliveries and their attempts, read only. */
export class EventViews {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async getEvent(owner: Tenant, id: string): Promise<EventEnvelope> {
    requireId('evt', id, 'event');
    const row = await store.findEvent(this.db, owner, id);
    if (!row) throw missing(`No event ${id}.`);
    return envelope(row);
  }

  async listEvents(owner: Tenant, query: EventListQuery): Promise<ListPage<EventEnvelope>> {
    const types = typeFilter(query.type);
    const bounds = [
      query['created[gte]'] !== undefined ? query['created[gte]'] * 1000 : null,
      query['created[gt]'] !== undefined ? (query['created[gt]'] + 1) * 1000 : null,
    ].filter((v): v is number => v !== null);
    const uppers = [
      query['created[lte]'] !== undefined ? (query['created[lte]'] + 1) * 1000 : null,
      query['created[lt]'] !== undefined ? query['created[lt]'] * 1000 : null,
    ].filter((v): v is number => v !== null);
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const position = await cursorOf(
      query.starting_after,
      (id) => store.findEvent(this.db, owner, id),
      'an event',
    );
    const rows = await store.listEvents(
      this.db,
      owner,
      {
        ...types,
        createdFrom: bounds.length ? Math.max(...bounds) : null,
        createdBefore: uppers.length ? Math.min(...uppers) : null,
      },
      position ?? null,
      limit + 1,
    );
    return pageOf(rows.map(envelope), limit);
  }

  /**
   * Events created at or after `fromMs`, oldest first, strictly after `position`: one page of a
   * tail (`purser events listen`). Each comes with its delivered body and its keyset position.
   */
  async eventsFrom(
    owner: Tenant,
    query: { type?: string[]; fromMs: number; position: store.Position | null; limit: number },
  ): Promise<TailedEvent[]> {
    const rows = await store.listEvents(
      this.db,
      owner,
      { ...typeFilter(query.type), createdFrom: query.fromMs, createdBefore: null },
      query.position,
      query.limit,
      'oldest',
    );
    return rows.map((row) => ({
      event: envelope(row),
      body: envelopeJson(row),
      position: { created_at: row.created_at, id: row.id },
    }));
  }

  /** Pending deliveries by state, and the oldest due one's wait (/metrics), across every organization. */
  async backlog(): Promise<{ due: number; inFlight: number; scheduled: number; oldestDueAgeMs: number }> {
    const now = this.clock.now();
    const { oldestDueAt, ...counts } = await store.backlog(this.db, now);
    return { ...counts, oldestDueAgeMs: oldestDueAt === null ? 0 : now - oldestDueAt };
  }

  /** The delivery log, per endpoint or per event, newest first, each delivery with its attempts. */
  async listDeliveries(
    owner: Tenant,
    filter: { endpointId?: string; eventId?: string },
    query: { limit?: number; starting_after?: string },
  ): Promise<ListPage<WebhookDeliveryView>> {
    // An empty or malformed id names nothing: never "no filter", which would list every delivery.
    if (filter.endpointId === undefined && filter.eventId === undefined) throw missing('No deliveries.');
    if (filter.endpointId !== undefined) await ownedEndpoint(this.db, owner, filter.endpointId);
    if (filter.eventId !== undefined) {
      requireId('evt', filter.eventId, 'event');
      if (!(await store.findEvent(this.db, owner, filter.eventId)))
        throw missing(`No event ${filter.eventId}.`);
    }
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const position = await cursorOf(
      query.starting_after,
      async (id) => {
        const row = await store.findDelivery(this.db, id);
        const owned =
          row?.organization_id === owner.organizationId && row.livemode === livemodeColumn(owner.livemode);
        return owned ? row : undefined;
      },
      'a delivery',
    );
    const rows = await store.listDeliveries(this.db, owner, filter, position ?? null, limit + 1);
    return pageOf(await this.deliveryViews(rows), limit);
  }

  async deliveryViews(
    rows: Pick<
      store.DeliveryRow,
      | 'id'
      | 'endpoint_id'
      | 'event_id'
      | 'status'
      | 'attempts'
      | 'next_attempt_at'
      | 'last_status_code'
      | 'last_error'
      | 'created_at'
      | 'completed_at'
    >[],
  ): Promise<WebhookDeliveryView[]> {
    const attempts = await store.attemptsOf(
      this.db,
      rows.map((r) => r.id),
    );
    const types = await store.eventTypesOf(this.db, [...new Set(rows.map((r) => r.event_id))]);
    return rows.map((row) => ({
      object: 'webhook_delivery',
      id: row.id,
      endpoint_id: row.endpoint_id,
      event_id: row.event_id,
      event_type: types.get(row.event_id) ?? null,
      status: row.status,
      attempt_count: row.attempts,
      next_attempt_at: row.status === 'pending' ? seconds(row.next_attempt_at) : null,
      last_status_code: row.last_status_code,
      last_error: row.last_error,
      created: seconds(row.created_at),
      completed_at: row.completed_at === null ? null : seconds(row.completed_at),
      attempts: attempts
        .filter((a) => a.delivery_id === row.id)
        .map((a) => ({
          attempt: a.attempt,
          attempted_at: seconds(a.attempted_at),
          status_code: a.status_code,
          duration_ms: a.duration_ms,
          succeeded: a.succeeded === 1,
          outcome: a.interrupted === 1 ? 'unknown' : a.succeeded === 1 ? 'succeeded' : 'failed',
          error: a.error,
          response_excerpt: a.response_excerpt,
        })),
    }));
  }
}

/** A path id that is empty, malformed or of another kind names nothing here: 404, like an unknown one. */
export function requireId(prefix: string, id: string, what: string): void {
  if (!new RegExp(`^${prefix}_[0-9A-Za-z]{1,60}$`).test(id)) throw missing(`No ${what} ${id}.`);
}

/** The owner's endpoint by its path id: 404 when there is none. */
export async function ownedEndpoint(db: Db, owner: Tenant, id: string): Promise<store.EndpointRow> {
  requireId('wh', id, 'webhook endpoint');
  const row = await store.findEndpoint(db, owner, id);
  if (!row) throw missing(`No webhook endpoint ${id}.`);
  return row;
}

/** `type` filters (exact names, `*`, prefixes like `card.*`; comma lists allowed) as a store filter. */
function typeFilter(types: string[] | undefined): Pick<store.EventFilter, 'exactTypes' | 'typePrefixes'> {
  const patterns = (types ?? [])
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  const bad = patterns.find((p) => !isSubscription(p));
  if (bad) {
    throw invalid(`type "${bad}" is not an event type, "*" or a prefix like "card.*".`, {
      type: 'must be event types, "*" or prefixes like "card.*"',
    });
  }
  if (patterns.includes('*')) return { exactTypes: [], typePrefixes: [] };
  return {
    exactTypes: patterns.filter((p) => !p.endsWith('.*')),
    typePrefixes: patterns.filter((p) => p.endsWith('.*')).map((p) => p.slice(0, -1)),
  };
}

function envelope(row: store.EventRow): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    created: seconds(row.created_at),
    livemode: isLivemode(row.livemode),
    data: JSON.parse(row.data),
  };
}
