import type { Clock } from '../../core/clock.ts';
import { DAY } from '../../core/clock.ts';
import type { OutboundConfig } from '../../core/http/policy.ts';
import type { ListPage } from '../../core/pagination.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, type Tenant } from '../../core/tenant.ts';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { WebhookConfig } from './config.ts';
import { DeliveryRunner } from './delivery.ts';
import {
  type EndpointInput,
  Endpoints,
  type EventLog,
  type WebhookEndpointView,
  type WebhookRecovery,
} from './endpoints.ts';
import { Outbox } from './outbox.ts';
import { pruneBefore } from './retention-store.ts';
import type * as store from './store.ts';
import {
  type EventEnvelope,
  type EventListQuery,
  EventViews,
  type TailedEvent,
  type WebhookDeliveryView,
} from './views.ts';

export { TEST_EVENT_TYPE } from './catalog.ts';
export {
  type EndpointInput,
  type EventLog,
  RECOVER_WINDOW_DAYS,
  type WebhookEndpointView,
  type WebhookRecovery,
} from './endpoints.ts';
export { DELIVERIES_CHANNEL } from './outbox.ts';
export type {
  EventEnvelope,
  EventListQuery,
  TailedEvent,
  WebhookAttemptView,
  WebhookDeliveryView,
} from './views.ts';

const stderrLog: EventLog = {
  warn: (fields, message) =>
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...fields })}\n`),
};

/**
 * Events and their webhook delivery, the domain's one door. Domains call `emit` inside their own
 * transaction (the outbox, outbox.ts); the API manages endpoints (endpoints.ts) and reads the event
 * and delivery logs (views.ts); the worker (src/jobs) delivers through `deliveries` (delivery.ts).
 */
export class EventService {
  readonly deliveries: DeliveryRunner;
  private readonly outbox: Outbox;
  private readonly endpoints: Endpoints;
  private readonly views: EventViews;
  private sink: EventLog = stderrLog;
  /** What the parts log through: the sink `useLog` chose, whenever they write. */
  private readonly log: EventLog = { warn: (fields, message) => this.sink.warn(fields, message) };

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    private readonly config: WebhookConfig,
    outbound: OutboundConfig,
    sealer: Sealer,
    deps: { orgs: OrgService; notifications: NotificationService },
  ) {
    this.outbox = new Outbox(db, dialect, clock);
    this.views = new EventViews(db, clock);
    this.endpoints = new Endpoints(
      db,
      dialect,
      clock,
      config,
      outbound,
      sealer,
      deps,
      this.outbox,
      this.views,
      this.log,
    );
    this.deliveries = new DeliveryRunner(
      db,
      dialect,
      clock,
      config,
      outbound,
      sealer,
      (endpointId) => this.endpoints.notifyDisabled(endpointId),
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
    this.sink = log;
  }

  // ---- the outbox (outbox.ts)

  /** Writes the event (and its owed deliveries) in the caller's transaction: the transactional outbox. */
  emit(
    trx: Executor,
    event: { organizationId: string; livemode: boolean; type: string; data: Record<string, unknown> },
  ): Promise<{ id: string }> {
    return this.outbox.emit(trx, event);
  }

  /** Several events of one owner, in this order, written together with the deliveries they owe. */
  emitAll(
    trx: Executor,
    owner: Tenant,
    events: { type: string; data: Record<string, unknown> }[],
  ): Promise<{ id: string }[]> {
    return this.outbox.emitAll(trx, owner, events);
  }

  /** Tells an in-process worker that deliveries were just written (a hint: visible on commit). */
  onEmit(listener: () => void): () => void {
    return this.outbox.onEmit(listener);
  }

  // ---- the event and delivery logs (views.ts)

  getEvent(owner: Tenant, id: string): Promise<EventEnvelope> {
    return this.views.getEvent(owner, id);
  }

  listEvents(owner: Tenant, query: EventListQuery): Promise<ListPage<EventEnvelope>> {
    return this.views.listEvents(owner, query);
  }

  /** One page of a tail (`purser events listen`): events from `fromMs`, oldest first, after `position`. */
  eventsFrom(
    owner: Tenant,
    query: { type?: string[]; fromMs: number; position: store.Position | null; limit: number },
  ): Promise<TailedEvent[]> {
    return this.views.eventsFrom(owner, query);
  }

  /** The delivery log, per endpoint or per event, newest first, each delivery with its attempts. */
  listDeliveries(
    owner: Tenant,
    filter: { endpointId?: string; eventId?: string },
    query: { limit?: number; starting_after?: string },
  ): Promise<ListPage<WebhookDeliveryView>> {
    return this.views.listDeliveries(owner, filter, query);
  }

  /** Pending deliveries by state, and the oldest due one's wait (/metrics), across every organization. */
  backlog(): Promise<{ due: number; inFlight: number; scheduled: number; oldestDueAgeMs: number }> {
    return this.views.backlog();
  }

  // ---- endpoints (endpoints.ts)

  createEndpoint(owner: Tenant, input: EndpointInput): Promise<WebhookEndpointView> {
    return this.endpoints.createEndpoint(owner, input);
  }

  getEndpoint(owner: Tenant, id: string): Promise<WebhookEndpointView> {
    return this.endpoints.getEndpoint(owner, id);
  }

  listEndpoints(
    owner: Tenant,
    query: { limit?: number; starting_after?: string },
  ): Promise<ListPage<WebhookEndpointView>> {
    return this.endpoints.listEndpoints(owner, query);
  }

  updateEndpoint(owner: Tenant, id: string, input: EndpointInput): Promise<WebhookEndpointView> {
    return this.endpoints.updateEndpoint(owner, id, input);
  }

  deleteEndpoint(
    owner: Tenant,
    id: string,
  ): Promise<{ object: 'webhook_endpoint'; id: string; deleted: true }> {
    return this.endpoints.deleteEndpoint(owner, id);
  }

  revealSecret(owner: Tenant, id: string): Promise<string> {
    return this.endpoints.revealSecret(owner, id);
  }

  rollSecret(owner: Tenant, id: string): Promise<WebhookEndpointView> {
    return this.endpoints.rollSecret(owner, id);
  }

  sendTestEvent(
    owner: Tenant,
    id: string,
    type: string | undefined,
  ): Promise<{ object: 'webhook_test'; event_id: string; delivery_id: string }> {
    return this.endpoints.sendTestEvent(owner, id, type);
  }

  resend(owner: Tenant, endpointId: string, eventId: string): Promise<WebhookDeliveryView> {
    return this.endpoints.resend(owner, endpointId, eventId);
  }

  recover(owner: Tenant, endpointId: string, since: number): Promise<WebhookRecovery> {
    return this.endpoints.recover(owner, endpointId, since);
  }

  /** For operators (CLI): the owner of an endpoint, by id alone. */
  ownerOfEndpoint(id: string): Promise<Tenant> {
    return this.endpoints.ownerOfEndpoint(id);
  }

  // ---- retention

  /** Retention sweep: events older than the retention period, once nothing is owed for them. */
  pruneExpired(): Promise<number> {
    return pruneBefore(
      { db: this.db, dialect: this.dialect },
      this.clock.now() - this.config.eventRetentionDays * DAY,
    );
  }
}
