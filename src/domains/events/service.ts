import { sql } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { DAY, unixSeconds } from '../../core/clock.ts';
import type { Sealer } from '../../core/crypto-aead.ts';
import { ApiError, invalidRequest, notFound } from '../../core/errors.ts';
import { destinationPolicy, type OutboundConfig } from '../../core/http/policy.ts';
import { urlProblem } from '../../core/http/ssrf.ts';
import { newId } from '../../core/ids.ts';
import { cursorOf, DEFAULT_PAGE_LIMIT, type ListPage, pageOf } from '../../core/pagination.ts';
import { isLivemode, livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { closestKnown, isKnownEventType, isKnownSubscription, TEST_EVENT_TYPE } from './catalog.ts';
import type { WebhookConfig } from './config.ts';
import { DeliveryRunner } from './delivery.ts';
import { isEventType, isSubscription, matchesSubscription } from './matching.ts';
import { envelopeJson, newSigningSecret, type SignatureScheme, standardWebhooksKey } from './signing.ts';
import * as store from './store.ts';

/** Spec §6 "Envelope": exactly these fields, as listed and as delivered. */
export interface EventEnvelope {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: Record<string, unknown>;
}

export interface WebhookEndpointView {
  object: 'webhook_endpoint';
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: 'active' | 'disabled';
  livemode: boolean;
  signature_scheme: SignatureScheme;
  /** Consecutive failed attempts since the last success. */
  failure_count: number;
  disabled_at: number | null;
  created: number;
  /** Only when created and when rolled: the `whsec_…` signing secret. */
  secret?: string;
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

/** Where the domain reports what an operator should look at (pino's API; the app's logger when serving). */
export interface EventLog {
  warn(fields: object, message: string): void;
}

const stderrLog: EventLog = {
  warn: (fields, message) =>
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...fields })}\n`),
};

export interface EndpointInput {
  url?: string;
  enabled_events?: string[];
  description?: string | null;
  status?: 'active' | 'disabled';
  signature_scheme?: SignatureScheme;
}

/** The answer of `recover`: how many events are owed to the endpoint again. */
export interface WebhookRecovery {
  object: 'webhook_recovery';
  endpoint_id: string;
  since: number;
  recovered: number;
}

export { TEST_EVENT_TYPE } from './catalog.ts';
/** The PostgreSQL NOTIFY channel that announces new deliveries. */
export const DELIVERIES_CHANNEL = 'purser_webhook_deliveries';
/** How far back `recover` reaches (issue 29): older failures are read from the events API. */
export const RECOVER_WINDOW_DAYS = 14;

const seconds = (ms: number) => unixSeconds(ms);
/**
 * Events and their webhook delivery. Domains call `emit` inside their own transaction
 * (transactional outbox): the event and the deliveries it owes commit or roll back with the change.
 * The worker (src/jobs) then delivers through `deliveries`.
 */
export class EventService {
  readonly deliveries: DeliveryRunner;
  private readonly emitListeners = new Set<() => void>();
  /** Per open transaction: each owner's active endpoints (see `activeEndpoints`). */
  private readonly endpointsIn = new WeakMap<
    Executor,
    Map<string, { id: string; enabledEvents: string[] }[]>
  >();
  private log: EventLog = stderrLog;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    private readonly config: WebhookConfig,
    /** Where destinations may be (core/http/policy.ts). */
    private readonly outbound: OutboundConfig,
    private readonly aead: Sealer,
    private readonly deps: { orgs: OrgService; notifications: NotificationService },
  ) {
    this.deliveries = new DeliveryRunner(
      db,
      dialect,
      clock,
      config,
      outbound,
      aead,
      (endpointId) => this.notifyDisabled(endpointId),
      (delivery, reason) =>
        this.log.warn(
          {
            delivery_id: delivery.id,
            endpoint_id: delivery.endpoint_id,
            livemode: isLivemode(delivery.livemode),
            reason,
          },
          'webhook destination refused at delivery',
        ),
    );
  }

  /** Sends this domain's warnings to the app's logger (pino) instead of stderr. */
  useLog(log: EventLog): void {
    this.log = log;
  }

  /** Writes the event (and its owed deliveries) in the caller's transaction: the transactional outbox. */
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
    const owed = rows.flatMap((row) =>
      endpoints
        .filter((endpoint) => matchesSubscription(endpoint.enabledEvents, row.type))
        .map((endpoint) => this.newDelivery(row.id, endpoint.id, owner.organizationId, livemode, now)),
    );
    await store.insertDeliveries(trx, owed);
    if (owed.length > 0) await this.announceDeliveries(trx);
    return rows.map((row) => ({ id: row.id }));
  }

  /** Wakes the workers for deliveries written in `trx`: those in this process now, others on commit. */
  private async announceDeliveries(trx: Executor): Promise<void> {
    // PostgreSQL delivers a NOTIFY on commit (and drops it on rollback): workers in other
    // processes, LISTENing on this channel, wake at once instead of at their next poll.
    if (this.dialect === 'postgres') await sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(trx);
    for (const listener of this.emitListeners) listener();
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
    const cached = inTransaction ? this.endpointsIn.get(trx)?.get(key) : undefined;
    if (cached) {
      await store.insertEvents(trx, rows);
      return cached;
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
      known.set(key, endpoints);
      this.endpointsIn.set(trx, known);
    }
    return endpoints;
  }

  /**
   * Tells an in-process worker that deliveries were just written, so an idle one need not wait for
   * its next poll. Only a hint: the deliveries are visible once the caller's transaction commits.
   */
  onEmit(listener: () => void): () => void {
    this.emitListeners.add(listener);
    return () => this.emitListeners.delete(listener);
  }

  // ---- events API ----

  async getEvent(owner: Tenant, id: string): Promise<EventEnvelope> {
    requireId('evt', id, 'event');
    const row = await store.findEvent(this.db, owner, id);
    if (!row) throw notFound(`No event ${id}.`);
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

  // ---- endpoints ----

  async createEndpoint(owner: Tenant, input: EndpointInput): Promise<WebhookEndpointView> {
    const url = this.checkUrl(owner, input.url);
    const enabledEvents = checkSubscriptions(input.enabled_events);
    const id = newId('wh');
    const secret = newSigningSecret();
    const now = this.clock.now();
    await store.insertEndpoint(this.db, {
      id,
      organization_id: owner.organizationId,
      livemode: livemodeColumn(owner.livemode),
      url,
      description: input.description ?? null,
      enabled_events: JSON.stringify(enabledEvents),
      status: 'active',
      secret_ciphertext: this.aead.seal(secret, id),
      signature_scheme: input.signature_scheme ?? 'purser',
      consecutive_failures: 0,
      failing_since: null,
      disabled_at: null,
      created_at: now,
      updated_at: now,
    });
    return { ...endpointView(await this.endpoint(owner, id)), secret };
  }

  async getEndpoint(owner: Tenant, id: string): Promise<WebhookEndpointView> {
    return endpointView(await this.endpoint(owner, id));
  }

  async listEndpoints(
    owner: Tenant,
    query: { limit?: number; starting_after?: string },
  ): Promise<ListPage<WebhookEndpointView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const position = await cursorOf(
      query.starting_after,
      (id) => this.endpoint(owner, id),
      'a webhook endpoint',
    );
    const rows = await store.listEndpoints(this.db, owner, position ?? null, limit + 1);
    return pageOf(rows.map(endpointView), limit);
  }

  /** Spec §3: `status: "active"` re-enables a disabled endpoint and resets its failure counter. */
  async updateEndpoint(owner: Tenant, id: string, input: EndpointInput): Promise<WebhookEndpointView> {
    const current = await this.endpoint(owner, id);
    const now = this.clock.now();
    const changes: store.EndpointChanges = { updated_at: now };
    if (input.url !== undefined) changes.url = this.checkUrl(owner, input.url);
    if (input.enabled_events !== undefined)
      changes.enabled_events = JSON.stringify(checkSubscriptions(input.enabled_events));
    if (input.description !== undefined) changes.description = input.description;
    if (input.signature_scheme !== undefined && input.signature_scheme !== current.signature_scheme) {
      if (input.signature_scheme === 'standard_webhooks') this.checkStandardWebhooksSecret(current);
      changes.signature_scheme = input.signature_scheme;
    }
    if (input.status === 'active') {
      Object.assign(changes, {
        status: 'active',
        consecutive_failures: 0,
        failing_since: null,
        disabled_at: null,
      });
    } else if (input.status === 'disabled' && current.status !== 'disabled') {
      Object.assign(changes, { status: 'disabled', disabled_at: now });
    }
    await this.db.transaction().execute(async (trx) => {
      await store.updateEndpoint(trx, id, changes);
      if (changes.status === 'disabled') await store.cancelPending(trx, id, now, 'endpoint disabled');
    });
    return endpointView(await this.endpoint(owner, id));
  }

  async deleteEndpoint(
    owner: Tenant,
    id: string,
  ): Promise<{ object: 'webhook_endpoint'; id: string; deleted: true }> {
    await this.endpoint(owner, id);
    await this.db.transaction().execute((trx) => store.deleteEndpoint(trx, id));
    return { object: 'webhook_endpoint', id, deleted: true };
  }

  /** The endpoint's signing secret, for the console's audited "reveal" (docs/console.md). */
  async revealSecret(owner: Tenant, id: string): Promise<string> {
    const endpoint = await this.endpoint(owner, id);
    return this.aead.open(endpoint.secret_ciphertext, id);
  }

  /** Hard cutover (spec §6 "Signature" 4): the old secret stops signing at once. */
  async rollSecret(owner: Tenant, id: string): Promise<WebhookEndpointView> {
    await this.endpoint(owner, id);
    const secret = newSigningSecret();
    await store.updateEndpoint(this.db, id, {
      secret_ciphertext: this.aead.seal(secret, id),
      updated_at: this.clock.now(),
    });
    return { ...endpointView(await this.endpoint(owner, id)), secret };
  }

  /**
   * A test event for one endpoint only, whatever it subscribes to; delivered and signed like any
   * other. In production it carries only the test type, so a receiver cannot be made to act on what
   * looks like a real `card.created`; sandbox may send any known type to exercise a receiver.
   */
  async sendTestEvent(
    owner: Tenant,
    id: string,
    type: string | undefined,
  ): Promise<{ object: 'webhook_test'; event_id: string; delivery_id: string }> {
    const endpoint = await this.endpoint(owner, id);
    if (endpoint.status !== 'active') throw endpointDisabled(id);
    // The destination as the rules stand now (they may have tightened since it was registered);
    // the delivery checks the resolved address again.
    this.checkUrl(owner, endpoint.url);
    const eventType = type ?? TEST_EVENT_TYPE;
    if (owner.livemode && eventType !== TEST_EVENT_TYPE) {
      throw invalidRequest(`A production test event has only the type ${TEST_EVENT_TYPE}.`, {
        type: `must be ${TEST_EVENT_TYPE} in production (any event type in sandbox)`,
      });
    }
    if (eventType.includes('*')) {
      throw new ApiError(
        400,
        'invalid_event_type',
        `A test event has one event type, not a pattern ("${eventType}").`,
        {
          fieldErrors: { type: 'must be one event type, such as card.created, not a pattern' },
        },
      );
    }
    if (!isKnownEventType(eventType)) {
      const closest = closestKnown(eventType);
      throw new ApiError(
        400,
        'invalid_event_type',
        `type "${eventType}" is not a known event type; did you mean "${closest}"?`,
        {
          fieldErrors: { type: `is not a known event type; closest: ${closest}` },
        },
      );
    }
    const eventId = newId('evt');
    const now = this.clock.now();
    const delivery = this.newDelivery(eventId, id, owner.organizationId, livemodeColumn(owner.livemode), now);
    await this.db.transaction().execute(async (trx) => {
      await store.insertEvent(trx, {
        id: eventId,
        organization_id: owner.organizationId,
        livemode: livemodeColumn(owner.livemode),
        type: eventType,
        data: JSON.stringify({ test: true, endpoint_id: id, message: 'A test event sent to this endpoint.' }),
        created_at: now,
      });
      await store.insertDeliveries(trx, [delivery]);
    });
    return { object: 'webhook_test', event_id: eventId, delivery_id: delivery.id };
  }

  /** Owes the event to the endpoint once more, with a fresh set of attempts. */
  async resend(owner: Tenant, endpointId: string, eventId: string): Promise<WebhookDeliveryView> {
    const endpoint = await this.endpoint(owner, endpointId);
    if (endpoint.status !== 'active') throw endpointDisabled(endpointId);
    const event = await store.findEvent(this.db, owner, eventId);
    if (!event) throw notFound(`No event ${eventId}.`);
    const delivery = this.newDelivery(
      eventId,
      endpointId,
      owner.organizationId,
      livemodeColumn(owner.livemode),
      this.clock.now(),
    );
    await store.insertDeliveries(this.db, [delivery]);
    return (
      await this.deliveryViews([
        { ...delivery, last_status_code: null, last_error: null, completed_at: null },
      ])
    )[0]!;
  }

  /**
   * Owes the endpoint once more every event whose delivery to it failed or was cancelled at or after
   * `since` (Unix seconds, at most 14 days back): one new delivery per event, queued in the order
   * the events happened; none for an event the endpoint is still owed or has received since (so a
   * second recover queues nothing twice). Answers how many.
   */
  async recover(owner: Tenant, endpointId: string, since: number): Promise<WebhookRecovery> {
    const endpoint = await this.endpoint(owner, endpointId);
    if (endpoint.status !== 'active') throw endpointDisabled(endpointId);
    const now = this.clock.now();
    if (since > seconds(now)) {
      throw invalidRequest('since is in the future; it is a Unix time in seconds.', {
        since: 'must be a Unix time in seconds, not in the future',
      });
    }
    if (since < seconds(now - RECOVER_WINDOW_DAYS * DAY)) {
      throw invalidRequest(`since may be at most ${RECOVER_WINDOW_DAYS} days ago.`, {
        since: `must be within the last ${RECOVER_WINDOW_DAYS} days`,
      });
    }
    const recovered = await writeTransaction({ db: this.db, dialect: this.dialect }, async (trx) => {
      // Two recovers at once would both find the same failures: one after the other, the second finds them owed.
      await store.lockEndpoint(trx, this.dialect, endpointId);
      const eventIds = await store.failedEventsSince(trx, endpointId, since * 1000);
      // Due at once, a millisecond apart in the events' order: the worker claims the earliest first.
      const deliveries = eventIds.map((eventId, i) => {
        const at = now - (eventIds.length - 1 - i);
        return {
          ...this.newDelivery(eventId, endpointId, owner.organizationId, livemodeColumn(owner.livemode), at),
          updated_at: now,
        };
      });
      await store.insertDeliveries(trx, deliveries);
      if (deliveries.length > 0) await this.announceDeliveries(trx);
      return deliveries.length;
    });
    return { object: 'webhook_recovery', endpoint_id: endpointId, since, recovered };
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
    if (filter.endpointId === undefined && filter.eventId === undefined) throw notFound('No deliveries.');
    if (filter.endpointId !== undefined) await this.endpoint(owner, filter.endpointId);
    if (filter.eventId !== undefined) {
      requireId('evt', filter.eventId, 'event');
      if (!(await store.findEvent(this.db, owner, filter.eventId)))
        throw notFound(`No event ${filter.eventId}.`);
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

  /** For operators (CLI): the owner of an endpoint, by id alone. */
  async ownerOfEndpoint(id: string): Promise<Tenant> {
    const row = await store.findEndpointById(this.db, id);
    if (!row) throw notFound(`No webhook endpoint ${id}.`);
    return tenantOf(row);
  }

  /** Retention sweep: events older than the retention period, once nothing is owed for them. */
  async pruneExpired(): Promise<number> {
    return store.pruneBefore(this.db, this.clock.now() - this.config.eventRetentionDays * DAY);
  }

  // ---- internals ----

  private newDelivery(
    eventId: string,
    endpointId: string,
    organizationId: string,
    livemode: number,
    now: number,
  ) {
    return {
      id: newId('whd'),
      event_id: eventId,
      endpoint_id: endpointId,
      organization_id: organizationId,
      livemode,
      status: 'pending' as const,
      attempts: 0,
      next_attempt_at: now,
      lease_token: null,
      created_at: now,
      updated_at: now,
    };
  }

  private async endpoint(owner: Tenant, id: string): Promise<store.EndpointRow> {
    requireId('wh', id, 'webhook endpoint');
    const row = await store.findEndpoint(this.db, owner, id);
    if (!row) throw notFound(`No webhook endpoint ${id}.`);
    return row;
  }

  /** Standard Webhooks libraries read the secret as base64: one minted before secrets took that form cannot sign. */
  private checkStandardWebhooksSecret(endpoint: store.EndpointRow): void {
    if (standardWebhooksKey(this.aead.open(endpoint.secret_ciphertext, endpoint.id))) return;
    throw invalidRequest(
      `Webhook endpoint ${endpoint.id} has a secret from before Standard Webhooks: roll it first (POST /api/v1/webhook_endpoints/${endpoint.id}/roll_secret), then choose the scheme.`,
      { signature_scheme: 'needs a secret in the Standard Webhooks form: roll the secret first' },
    );
  }

  private checkUrl(owner: Tenant, url: string | undefined): string {
    if (url === undefined || url === '') throw invalidRequest('url is required.', { url: 'is required' });
    if (url.length > 2048)
      throw invalidRequest('url is too long.', { url: 'must be at most 2048 characters' });
    const problem = urlProblem(url, destinationPolicy(this.outbound, owner.livemode));
    if (problem) {
      // The host only: a refused URL may carry credentials in its user info or query.
      this.log.warn(
        {
          organization_id: owner.organizationId,
          livemode: owner.livemode,
          host: hostOf(url),
          reason: problem,
        },
        'webhook destination refused',
      );
      throw invalidRequest(`url ${problem}.`, { url: problem });
    }
    return new URL(url).toString();
  }

  private async deliveryViews(
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

  /** Spec §3: the organization's billing email is told when an endpoint is disabled. */
  private async notifyDisabled(endpointId: string): Promise<void> {
    const endpoint = await store.findEndpointById(this.db, endpointId);
    if (!endpoint) return;
    const organization = await this.deps.orgs.getOrganization(endpoint.organization_id);
    const days = Math.round(this.config.disableAfterMs / DAY);
    this.log.warn(
      {
        endpoint_id: endpoint.id,
        organization_id: endpoint.organization_id,
        livemode: isLivemode(endpoint.livemode),
      },
      'webhook endpoint disabled after repeated failures',
    );
    await this.deps.notifications.sendEmail(tenantOf(endpoint), {
      to: organization.billing_email,
      subject: `Webhook endpoint ${endpoint.id} was disabled`,
      text: [
        `Every delivery to your ${endpoint.livemode ? 'production' : 'sandbox'} webhook endpoint`,
        `  ${endpoint.url}  (${endpoint.id})`,
        `has failed for ${days >= 1 ? `${days} consecutive days` : 'too long'}, so it has been disabled and no`,
        'further events will be sent to it.',
        '',
        'Once the endpoint answers again, re-enable it with PATCH /api/v1/webhook_endpoints/' +
          `${endpoint.id} and the body {"status": "active"}. Events from the time it was disabled can`,
        'be fetched from GET /api/v2/events.',
      ].join('\n'),
    });
  }
}

/** A path id that is empty, malformed or of another kind names nothing here: 404, like an unknown one. */
function requireId(prefix: string, id: string, what: string): void {
  if (!new RegExp(`^${prefix}_[0-9A-Za-z]{1,60}$`).test(id)) throw notFound(`No ${what} ${id}.`);
}

function endpointDisabled(id: string): ApiError {
  return new ApiError(409, 'endpoint_disabled', `Webhook endpoint ${id} is disabled; re-enable it first.`);
}

function checkSubscriptions(events: string[] | undefined): string[] {
  if (!events || events.length === 0) {
    throw invalidRequest('enabled_events is required.', {
      enabled_events: 'must list event types, "*" or prefixes like "card.*"',
    });
  }
  // A misspelt name would be accepted and then never match: refuse what the catalog does not know,
  // however it is misspelt (case, spaces, an empty name, a stray dot or star), naming the closest.
  // `find` would miss an empty name (it is falsy): look for the index.
  const at = events.findIndex((e) => !isKnownSubscription(e));
  if (at >= 0) {
    const unknown = events[at] as string;
    const closest = closestKnown(unknown.trim());
    const shown = JSON.stringify(unknown.slice(0, 100));
    throw new ApiError(
      400,
      'invalid_event_type',
      `enabled_events: ${shown} is not a known event type; did you mean "${closest}"?`,
      { fieldErrors: { enabled_events: `${shown} is not a known event type; closest: ${closest}` } },
    );
  }
  return [...new Set(events)];
}

/** The host of a URL for a log line, without user info, path or query. */
function hostOf(raw: string): string | null {
  try {
    return new URL(raw).host;
  } catch {
    return null;
  }
}

/** `type` filters (exact names, `*`, prefixes like `card.*`; comma lists allowed) as a store filter. */
function typeFilter(types: string[] | undefined): Pick<store.EventFilter, 'exactTypes' | 'typePrefixes'> {
  const patterns = (types ?? [])
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  const bad = patterns.find((p) => !isSubscription(p));
  if (bad) {
    throw invalidRequest(`type "${bad}" is not an event type, "*" or a prefix like "card.*".`, {
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

function endpointView(row: store.EndpointRow): WebhookEndpointView {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    description: row.description,
    enabled_events: JSON.parse(row.enabled_events),
    status: row.status,
    livemode: isLivemode(row.livemode),
    signature_scheme: row.signature_scheme,
    failure_count: row.consecutive_failures,
    disabled_at: row.disabled_at === null ? null : seconds(row.disabled_at),
    created: seconds(row.created_at),
  };
}

/** The sealed signing secrets, bound to the endpoint id (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  { table: 'webhook_endpoints', column: 'secret_ciphertext', key: ['id'], aad: (row) => String(row.id) },
];
