import { Type } from 'typebox';
import { listOf, PageQuery } from '../../core/pagination.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import { documented, errorResponses, type RoutesApp, withExample } from '../../core/schemas.ts';
import type { Tenant } from '../../core/tenant.ts';
import { type AuthService, apiKeyGuard, platformGuard } from '../auth/index.ts';
import type { OrgService } from '../orgs/index.ts';
import type { EventRefusalCode } from './index.ts';
import {
  deliveryExample,
  Event,
  EventList,
  endpointExample,
  eventExample,
  SignatureScheme,
  Subscriptions,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookRecovery,
} from './schemas.ts';
import { type EventService, RECOVER_WINDOW_DAYS } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<EventRefusalCode>({
  invalid_request: 400,
  not_found: 404,
  invalid_event_type: 400,
  endpoint_disabled: 409,
});

const unixTime = (description: string) => Type.Optional(Type.Integer({ minimum: 0, description }));

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export async function eventRoutes(
  app: RoutesApp,
  { auth, orgs, events }: { auth: AuthService; orgs: OrgService; events: EventService },
): Promise<void> {
  for (const schema of [
    Event,
    WebhookEndpoint,
    WebhookDelivery,
    EventList,
    WebhookEndpointList,
    WebhookDeliveryList,
    WebhookRecovery,
  ])
    app.addSchema(schema);
  app.decorateRequest('apiKey', null);
  // Refused destinations and disabled endpoints are warnings an operator should see in the app's log.
  events.useLog(app.log);
  // roll_secret and test take no (or an optional) body: an empty one sent as application/json is
  // no body, not malformed JSON.
  app.addHook('onRequest', async (request) => {
    if (request.headers['content-length'] === '0') delete request.headers['content-type'];
  });
  // onRequest: the credential is checked before the body is even parsed.
  const platform = { onRequest: platformGuard(auth) };
  const v1 = { onRequest: apiKeyGuard(orgs) };
  const owner = (principal: { organizationId: string; livemode: boolean } | null): Tenant => ({
    organizationId: principal!.organizationId,
    livemode: principal!.livemode,
  });
  const eventTags = { tags: ['Events'], security: [{ platformToken: [] }] };
  const webhooks = { tags: ['Webhook endpoints'], security: [{ apiKey: [] }] };
  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/v2/events',
    {
      ...platform,
      schema: {
        ...eventTags,
        operationId: 'listEvents',
        summary: 'List events, newest first',
        description:
          'Events of the calling mode, kept at least 30 days. Filter by `type` (repeat it or separate with ' +
          'commas; exact names, `*`, or prefixes such as `card.*`) and by `created[gt|gte|lt|lte]` (Unix ' +
          'seconds). Page with `limit` and `starting_after`.',
        querystring: Type.Object(
          {
            type: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 20 })),
            'created[gt]': unixTime('Created after this Unix time.'),
            'created[gte]': unixTime('Created at or after this Unix time.'),
            'created[lt]': unixTime('Created before this Unix time.'),
            'created[lte]': unixTime('Created at or before this Unix time.'),
            ...PageQuery,
          },
          { additionalProperties: false },
        ),
        response: {
          200: documented(EventList, 'A page of events.', listOf([eventExample])),
          ...errors,
          ...errorResponses(503),
        },
      },
    },
    async (request) => events.listEvents(owner(request.principal), request.query),
  );

  app.get(
    '/api/v2/events/:id',
    {
      ...platform,
      schema: {
        ...eventTags,
        operationId: 'getEvent',
        summary: 'Retrieve an event',
        params: IdParams,
        response: {
          200: documented(Event, 'The event.', eventExample),
          ...errors,
          ...errorResponses(503),
        },
      },
    },
    async (request) => events.getEvent(owner(request.principal), request.params.id),
  );

  const EndpointBody = {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'https in production.' }),
    enabled_events: Subscriptions,
    description: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 500 })])),
    signature_scheme: Type.Optional(SignatureScheme),
  };

  app.post(
    '/api/v1/webhook_endpoints',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint (answers its signing secret, shown once)',
        body: withExample(Type.Object(EndpointBody, { additionalProperties: false }), {
          url: endpointExample.url,
          enabled_events: endpointExample.enabled_events,
          description: endpointExample.description,
        }),
        response: {
          201: documented(WebhookEndpoint, 'The endpoint, with its signing secret (shown only now).', {
            ...endpointExample,
            secret: 'whsec_q3B1m8N0yVxk6b2Jr5T9sLw4Hc7Pz1Ea2Df0Gh6Ui8o=',
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return events.createEndpoint(owner(request.apiKey), request.body);
    },
  );

  app.get(
    '/api/v1/webhook_endpoints',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints, newest first',
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: documented(WebhookEndpointList, 'A page of webhook endpoints.', listOf([endpointExample])),
          ...errors,
        },
      },
    },
    async (request) => events.listEndpoints(owner(request.apiKey), request.query),
  );

  app.get(
    '/api/v1/webhook_endpoints/:id',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'getWebhookEndpoint',
        summary: 'Retrieve a webhook endpoint',
        params: IdParams,
        response: {
          200: documented(WebhookEndpoint, 'The endpoint (without its secret).', endpointExample),
          ...errors,
        },
      },
    },
    async (request) => events.getEndpoint(owner(request.apiKey), request.params.id),
  );

  app.patch(
    '/api/v1/webhook_endpoints/:id',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'updateWebhookEndpoint',
        summary: 'Update a webhook endpoint; `status: "active"` re-enables it and resets its failure counter',
        params: IdParams,
        body: withExample(
          Type.Object(
            {
              url: Type.Optional(EndpointBody.url),
              enabled_events: Type.Optional(Subscriptions),
              description: EndpointBody.description,
              status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
              signature_scheme: Type.Optional(SignatureScheme),
            },
            { additionalProperties: false },
          ),
          { status: 'active' },
        ),
        response: {
          200: documented(WebhookEndpoint, 'The endpoint as updated.', endpointExample),
          ...errors,
        },
      },
    },
    async (request) => events.updateEndpoint(owner(request.apiKey), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/webhook_endpoints/:id',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint; what it is still owed is dropped with it',
        params: IdParams,
        response: {
          200: documented(
            Type.Object({
              object: Type.Literal('webhook_endpoint'),
              id: Type.String(),
              deleted: Type.Literal(true),
            }),
            'The endpoint is deleted.',
            { object: 'webhook_endpoint', id: endpointExample.id, deleted: true },
          ),
          ...errors,
        },
      },
    },
    async (request) => events.deleteEndpoint(owner(request.apiKey), request.params.id),
  );

  app.post(
    '/api/v1/webhook_endpoints/:id/roll_secret',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'rollWebhookEndpointSecret',
        summary: 'Roll the signing secret: answers the new one; the old one stops at once',
        params: IdParams,
        response: {
          200: documented(WebhookEndpoint, 'The endpoint with its new signing secret (shown only now).', {
            ...endpointExample,
            secret: 'whsec_Lk9Jh7Gf5Ds3Ap1Qw8Er6Ty4Ui2Op0Zx+Mn3Bv5Cx7Z=',
          }),
          ...errors,
        },
      },
    },
    async (request) => events.rollSecret(owner(request.apiKey), request.params.id),
  );

  app.post(
    '/api/v1/webhook_endpoints/:id/test',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'sendWebhookEndpointTest',
        summary: 'Send a test event to this endpoint only (delivered and signed like any other)',
        params: IdParams,
        body: Type.Optional(
          withExample(
            Type.Object(
              {
                type: Type.Optional(
                  Type.String({
                    maxLength: 100,
                    description:
                      'Default `webhook_endpoint.test`, the only type allowed in production; sandbox accepts any known type.',
                  }),
                ),
              },
              { additionalProperties: false },
            ),
            { type: 'webhook_endpoint.test' },
          ),
        ),
        response: {
          202: documented(
            Type.Object({
              object: Type.Literal('webhook_test'),
              event_id: Type.String(),
              delivery_id: Type.String(),
            }),
            'The test event is queued for delivery to this endpoint.',
            { object: 'webhook_test', event_id: eventExample.id, delivery_id: deliveryExample.id },
          ),
          ...errorResponses(400, 401, 403, 404, 409, {
            409: 'The endpoint is disabled (`endpoint_disabled`); PATCH it with `status: "active"` first.',
          }),
        },
      },
      // The body is optional: none means the default test type.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      reply.code(202);
      return events.sendTestEvent(owner(request.apiKey), request.params.id, request.body?.type);
    },
  );

  app.get(
    '/api/v1/webhook_endpoints/:id/deliveries',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'listWebhookEndpointDeliveries',
        summary: "The endpoint's delivery log, newest first, each delivery with its attempts",
        params: IdParams,
        querystring: Type.Object(
          { event_id: Type.Optional(Type.String({ maxLength: 64 })), ...PageQuery },
          { additionalProperties: false },
        ),
        response: {
          200: documented(
            WebhookDeliveryList,
            'A page of the endpoint’s deliveries.',
            listOf([deliveryExample]),
          ),
          ...errors,
        },
      },
    },
    async (request) => {
      const query = request.query;
      return events.listDeliveries(
        owner(request.apiKey),
        { endpointId: request.params.id, eventId: query.event_id },
        query,
      );
    },
  );

  app.post(
    '/api/v1/webhook_endpoints/:id/resend',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'resendWebhookEvent',
        summary: 'Send one event to this endpoint again, with a fresh set of attempts',
        params: IdParams,
        body: withExample(
          Type.Object(
            { event_id: Type.String({ minLength: 1, maxLength: 64 }) },
            { additionalProperties: false },
          ),
          { event_id: eventExample.id },
        ),
        response: {
          202: documented(WebhookDelivery, 'The new delivery, queued.', {
            ...deliveryExample,
            status: 'pending',
            attempt_count: 0,
            next_attempt_at: 1768471300,
            last_status_code: null,
            completed_at: null,
            attempts: [],
          }),
          ...errorResponses(400, 401, 403, 404, 409, {
            409: 'The endpoint is disabled (`endpoint_disabled`); PATCH it with `status: "active"` first.',
          }),
        },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return events.resend(owner(request.apiKey), request.params.id, request.body.event_id);
    },
  );

  app.post(
    '/api/v1/webhook_endpoints/:id/recover',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'recoverWebhookEndpoint',
        summary: 'Queue again every delivery to this endpoint that failed or was cancelled since a time',
        description:
          'Every event whose delivery to this endpoint failed (all its attempts spent) or was cancelled ' +
          `(the endpoint was disabled) at or after \`since\`, at most ${RECOVER_WINDOW_DAYS} days ago, is ` +
          'owed to it once more: one new delivery per event, with a fresh set of attempts, queued in the ' +
          'order the events happened. An event the endpoint is still owed, or has received since, is left ' +
          'alone, so a second call queues nothing twice. Answers how many were queued.',
        params: IdParams,
        body: withExample(
          Type.Object(
            {
              since: Type.Integer({
                minimum: 0,
                description: `Unix seconds; at most ${RECOVER_WINDOW_DAYS} days ago, not in the future.`,
              }),
            },
            { additionalProperties: false },
          ),
          { since: 1768384800 },
        ),
        response: {
          202: documented(
            WebhookRecovery,
            'The failed and cancelled deliveries since `since` are queued again.',
            { object: 'webhook_recovery', endpoint_id: endpointExample.id, since: 1768384800, recovered: 12 },
          ),
          ...errorResponses(400, 401, 403, 404, 409, {
            400: `\`since\` is more than ${RECOVER_WINDOW_DAYS} days ago or in the future (\`invalid_request\`, \`field_errors.since\`).`,
            409: 'The endpoint is disabled (`endpoint_disabled`); PATCH it with `status: "active"` first.',
          }),
        },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return events.recover(owner(request.apiKey), request.params.id, request.body.since);
    },
  );

  app.get(
    '/api/v1/events/:id/deliveries',
    {
      ...v1,
      schema: {
        ...webhooks,
        operationId: 'listEventDeliveries',
        summary: "An event's deliveries to every endpoint of the mode, each with its attempts",
        params: IdParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: {
          200: documented(
            WebhookDeliveryList,
            'A page of the event’s deliveries.',
            listOf([deliveryExample]),
          ),
          ...errors,
        },
      },
    },
    async (request) =>
      events.listDeliveries(owner(request.apiKey), { eventId: request.params.id }, request.query),
  );
}
