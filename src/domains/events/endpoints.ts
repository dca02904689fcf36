import type { Clock } from '../../core/clock.ts';
import { DAY, unixSeconds } from '../../core/clock.ts';
import { destinationPolicy, type OutboundConfig } from '../../core/http/policy.ts';
import { urlProblem } from '../../core/http/ssrf.ts';
import { newId } from '../../core/ids.ts';
import { cursorOf, DEFAULT_PAGE_LIMIT, type ListPage, pageOf } from '../../core/pagination.ts';
import { invalid, missing, Refusal } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn, type Tenant, tenantOf } from '../../core/tenant.ts';
import type { Db, Dialect } from '../../db/index.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { closestKnown, isKnownEventType, isKnownSubscription, TEST_EVENT_TYPE } from './catalog.ts';
import type { WebhookConfig } from './config.ts';
import type { EventRefusalCode } from './index.ts';
import { newDelivery, type Outbox } from './outbox.ts';
import { newSigningSecret, type SignatureScheme, standardWebhooksKey } from './signing.ts';
import * as store from './store.ts';
import { type EventViews, ownedEndpoint, type WebhookDeliveryView } from './views.ts';

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

/** Where the domain reports what an operator should look at (pino's API; the app's logger when serving). */
export interface EventLog {
  warn(fields: object, message: string): void;
}

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

/** How far back `recover` reaches (issue 29): older failures are read from the events API. */
export const RECOVER_WINDOW_DAYS = 14;

const seconds = (ms: number) => unixSeconds(ms);

/** Webhook endpoints: their CRUD and secrets, test events, resends and recovery. */
export class Endpoints {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    private readonly config: WebhookConfig,
    /** Where destinations may be (core/http/policy.ts). */
    private readonly outbound: OutboundConfig,
    private readonly sealer: Sealer,
    private readonly deps: { orgs: OrgService; notifications: NotificationService },
    private readonly outbox: Outbox,
    private readonly views: EventViews,
    private readonly log: EventLog,
  ) {}

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
      secret_ciphertext: this.sealer.seal(secret, id),
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
    return this.sealer.open(endpoint.secret_ciphertext, id);
  }

  /** Hard cutover (spec §6 "Signature" 4): the old secret stops signing at once. */
  async rollSecret(owner: Tenant, id: string): Promise<WebhookEndpointView> {
    await this.endpoint(owner, id);
    const secret = newSigningSecret();
    await store.updateEndpoint(this.db, id, {
      secret_ciphertext: this.sealer.seal(secret, id),
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
      throw invalid(`A production test event has only the type ${TEST_EVENT_TYPE}.`, {
        type: `must be ${TEST_EVENT_TYPE} in production (any event type in sandbox)`,
      });
    }
    if (eventType.includes('*')) {
      throw invalidEventType(`A test event has one event type, not a pattern ("${eventType}").`, {
        type: 'must be one event type, such as card.created, not a pattern',
      });
    }
    if (!isKnownEventType(eventType)) {
      const closest = closestKnown(eventType);
      throw invalidEventType(`type "${eventType}" is not a known event type; did you mean "${closest}"?`, {
        type: `is not a known event type; closest: ${closest}`,
      });
    }
    const eventId = newId('evt');
    const now = this.clock.now();
    const delivery = newDelivery(eventId, id, owner.organizationId, livemodeColumn(owner.livemode), now);
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
    if (!event) throw missing(`No event ${eventId}.`);
    const delivery = newDelivery(
      eventId,
      endpointId,
      owner.organizationId,
      livemodeColumn(owner.livemode),
      this.clock.now(),
    );
    await store.insertDeliveries(this.db, [delivery]);
    return (
      await this.views.deliveryViews([
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
      throw invalid('since is in the future; it is a Unix time in seconds.', {
        since: 'must be a Unix time in seconds, not in the future',
      });
    }
    if (since < seconds(now - RECOVER_WINDOW_DAYS * DAY)) {
      throw invalid(`since may be at most ${RECOVER_WINDOW_DAYS} days ago.`, {
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
          ...newDelivery(eventId, endpointId, owner.organizationId, livemodeColumn(owner.livemode), at),
          updated_at: now,
        };
      });
      await store.insertDeliveries(trx, deliveries);
      if (deliveries.length > 0) await this.outbox.announceDeliveries(trx);
      return deliveries.length;
    });
    return { object: 'webhook_recovery', endpoint_id: endpointId, since, recovered };
  }

  /** For operators (CLI): the owner of an endpoint, by id alone. */
  async ownerOfEndpoint(id: string): Promise<Tenant> {
    const row = await store.findEndpointById(this.db, id);
    if (!row) throw missing(`No webhook endpoint ${id}.`);
    return tenantOf(row);
  }

  private endpoint(owner: Tenant, id: string): Promise<store.EndpointRow> {
    return ownedEndpoint(this.db, owner, id);
  }

  /** Standard Webhooks libraries read the secret as base64: one minted before secrets took that form cannot sign. */
  private checkStandardWebhooksSecret(endpoint: store.EndpointRow): void {
    if (standardWebhooksKey(this.sealer.open(endpoint.secret_ciphertext, endpoint.id))) return;
    throw invalid(
      `Webhook endpoint ${endpoint.id} has a secret from before Standard Webhooks: roll it first (POST /api/v1/webhook_endpoints/${endpoint.id}/roll_secret), then choose the scheme.`,
      { signature_scheme: 'needs a secret in the Standard Webhooks form: roll the secret first' },
    );
  }

  private checkUrl(owner: Tenant, url: string | undefined): string {
    if (url === undefined || url === '') throw invalid('url is required.', { url: 'is required' });
    if (url.length > 2048) throw invalid('url is too long.', { url: 'must be at most 2048 characters' });
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
      throw invalid(`url ${problem}.`, { url: problem });
    }
    return new URL(url).toString();
  }

  /** Spec §3: the organization's billing email is told when an endpoint is disabled. */
  async notifyDisabled(endpointId: string): Promise<void> {
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

function endpointDisabled(id: string): Refusal<EventRefusalCode> {
  return new Refusal('endpoint_disabled', `Webhook endpoint ${id} is disabled; re-enable it first.`);
}

/** An event type the catalog does not know, or a pattern where one type is asked for. */
function invalidEventType(message: string, fieldErrors: Record<string, string>): Refusal<EventRefusalCode> {
  return new Refusal('invalid_event_type', message, { fieldErrors });
}

function checkSubscriptions(events: string[] | undefined): string[] {
  if (!events || events.length === 0) {
    throw invalid('enabled_events is required.', {
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
    throw invalidEventType(`enabled_events: ${shown} is not a known event type; did you mean "${closest}"?`, {
      enabled_events: `${shown} is not a known event type; closest: ${closest}`,
    });
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
