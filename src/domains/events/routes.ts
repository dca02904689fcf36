import type { FastifyInstance } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { errorResponses } from '../../core/schemas.ts';
import { apiKeyGuard } from '../auth/api-key-guard.ts';
import { platformGuard } from '../auth/guard.ts';
import type { EndpointInput, EventListQuery, Owner } from './service.ts';

/** Spec §6 "Envelope": exactly these five fields. */
const Event = Type.Object({
  id: Type.String({ description: 'Stable id, `evt_…`; dedupe on it.' }),
  type: Type.String(),
  created: Type.Integer({ description: 'Unix epoch seconds.' }),
  livemode: Type.Boolean(),
  data: Type.Object({}, { additionalProperties: true, description: 'Depends on `type`.' }),
});

const Subscriptions = Type.Array(Type.String({ maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description:
    'Known event types, `*` for every type, or prefixes of known families such as `card.*`; an unknown name is `invalid_event_type`.',
});

const WebhookEndpoint = Type.Object({
  object: Type.Literal('webhook_endpoint'),
  id: Type.String({ description: '`wh_…`' }),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  enabled_events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  livemode: Type.Boolean(),
  failure_count: Type.Integer({ description: 'Consecutive failed attempts since the last success.' }),
  disabled_at: Type.Union([Type.Integer(), Type.Null()]),
  created: Type.Integer(),
  secret: Type.Optional(
    Type.String({ description: 'The `whsec_…` signing secret: only in the create and roll_secret answers.' }),
  ),
});

const WebhookDelivery = Type.Object({
  object: Type.Literal('webhook_delivery'),
  id: Type.String({ description: '`whd_…`' }),
  endpoint_id: Type.String(),
  event_id: Type.String(),
  event_type: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('succeeded'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ]),
  attempt_count: Type.Integer(),
  next_attempt_at: Type.Union([Type.Integer(), Type.Null()]),
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created: Type.Integer(),
  completed_at: Type.Union([Type.Integer(), Type.Null()]),
  attempts: Type.Array(
    Type.Object({
      attempt: Type.Integer(),
      attempted_at: Type.Integer(),
      status_code: Type.Union([Type.Integer(), Type.Null()]),
      duration_ms: Type.Integer(),
      succeeded: Type.Boolean(),
      error: Type.Union([Type.String(), Type.Null()]),
      response_excerpt: Type.Union([Type.String(), Type.Null()], {
        description:
          'First 1 KB of the answer; always null for a private (loopback, private or link-local) destination.',
      }),
    }),
  ),
});

const list = (item: TSchema) =>
  Type.Object({
    object: Type.Literal('list'),
    url: Type.String(),
    data: Type.Array(item),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `starting_after` to read the next page; null on the last one.',
    }),
  });

const Paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 10.' })),
  starting_after: Type.Optional(
    Type.String({ maxLength: 64, description: 'The `next_cursor` of the previous page.' }),
  ),
};

const unixTime = (description: string) => Type.Optional(Type.Integer({ minimum: 0, description }));

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export async function eventRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.decorateRequest('apiKey', null);
  // Refused destinations and disabled endpoints are warnings an operator should see in the app's log.
  ctx.events.useLog(app.log);
  // roll_secret and test take no (or an optional) body: an empty one sent as application/json is
  // no body, not malformed JSON.
  app.addHook('onRequest', async (request) => {
    if (request.headers['content-length'] === '0') delete request.headers['content-type'];
  });
  // onRequest: the credential is checked before the body is even parsed.
  const platform = { onRequest: platformGuard(ctx.auth) };
  const v1 = { onRequest: apiKeyGuard(ctx.orgs) };
  const owner = (principal: { organizationId: string; livemode: boolean } | null): Owner => ({
    organizationId: principal!.organizationId,
    livemode: principal!.livemode,
  });
  const events = { tags: ['Events'], security: [{ platformToken: [] }] };
  const webhooks = { tags: ['Webhook endpoints'], security: [{ apiKey: [] }] };
  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/v2/events',
    {
      ...platform,
      schema: {
        ...events,
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
            ...Paging,
          },
          { additionalProperties: false },
        ),
        response: { 200: list(Event), ...errors },
      },
    },
    async (request) => ctx.events.listEvents(owner(request.principal), request.query as EventListQuery),
  );

  app.get(
    '/api/v2/events/:id',
    {
      ...platform,
      schema: {
        ...events,
        summary: 'Retrieve an event',
        params: IdParams,
        response: { 200: Event, ...errors },
      },
    },
    async (request) => ctx.events.getEvent(owner(request.principal), (request.params as { id: string }).id),
  );

  const EndpointBody = {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'https in production.' }),
    enabled_events: Subscriptions,
    description: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 500 })])),
  };

  app.post(
    '/api/v1/webhook_endpoints',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: 'Create a webhook endpoint (answers its signing secret, shown once)',
        body: Type.Object(EndpointBody, { additionalProperties: false }),
        response: { 201: WebhookEndpoint, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return ctx.events.createEndpoint(owner(request.apiKey), request.body as EndpointInput);
    },
  );

  app.get(
    '/api/v1/webhook_endpoints',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: 'List webhook endpoints, newest first',
        querystring: Type.Object(Paging, { additionalProperties: false }),
        response: { 200: list(WebhookEndpoint), ...errors },
      },
    },
    async (request) =>
      ctx.events.listEndpoints(
        owner(request.apiKey),
        request.query as { limit?: number; starting_after?: string },
      ),
  );

  app.get(
    '/api/v1/webhook_endpoints/:id',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: 'Retrieve a webhook endpoint',
        params: IdParams,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => ctx.events.getEndpoint(owner(request.apiKey), (request.params as { id: string }).id),
  );

  app.patch(
    '/api/v1/webhook_endpoints/:id',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: 'Update a webhook endpoint; `status: "active"` re-enables it and resets its failure counter',
        params: IdParams,
        body: Type.Object(
          {
            url: Type.Optional(EndpointBody.url),
            enabled_events: Type.Optional(Subscriptions),
            description: EndpointBody.description,
            status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
          },
          { additionalProperties: false },
        ),
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) =>
      ctx.events.updateEndpoint(
        owner(request.apiKey),
        (request.params as { id: string }).id,
        request.body as EndpointInput,
      ),
  );

  app.delete(
    '/api/v1/webhook_endpoints/:id',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: 'Delete a webhook endpoint; what it is still owed is dropped with it',
        params: IdParams,
        response: {
          200: Type.Object({
            object: Type.Literal('webhook_endpoint'),
            id: Type.String(),
            deleted: Type.Literal(true),
          }),
          ...errors,
        },
      },
    },
    async (request) =>
      ctx.events.deleteEndpoint(owner(request.apiKey), (request.params as { id: string }).id),
  );

  app.post(
    '/api/v1/webhook_endpoints/:id/roll_secret',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: 'Roll the signing secret: answers the new one; the old one stops at once',
        params: IdParams,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => ctx.events.rollSecret(owner(request.apiKey), (request.params as { id: string }).id),
  );

  app.post(
    '/api/v1/webhook_endpoints/:id/test',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: 'Send a test event to this endpoint only (delivered and signed like any other)',
        params: IdParams,
        body: Type.Optional(
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
        ),
        response: {
          202: Type.Object({
            object: Type.Literal('webhook_test'),
            event_id: Type.String(),
            delivery_id: Type.String(),
          }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
      // The body is optional: none means the default test type.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      reply.code(202);
      return ctx.events.sendTestEvent(
        owner(request.apiKey),
        (request.params as { id: string }).id,
        (request.body as { type?: string } | undefined)?.type,
      );
    },
  );

  app.get(
    '/api/v1/webhook_endpoints/:id/deliveries',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: "The endpoint's delivery log, newest first, each delivery with its attempts",
        params: IdParams,
        querystring: Type.Object(
          { event_id: Type.Optional(Type.String({ maxLength: 64 })), ...Paging },
          { additionalProperties: false },
        ),
        response: { 200: list(WebhookDelivery), ...errors },
      },
    },
    async (request) => {
      const query = request.query as { event_id?: string; limit?: number; starting_after?: string };
      return ctx.events.listDeliveries(
        owner(request.apiKey),
        { endpointId: (request.params as { id: string }).id, eventId: query.event_id },
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
        summary: 'Send one event to this endpoint again, with a fresh set of attempts',
        params: IdParams,
        body: Type.Object(
          { event_id: Type.String({ minLength: 1, maxLength: 64 }) },
          { additionalProperties: false },
        ),
        response: { 202: WebhookDelivery, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      reply.code(202);
      return ctx.events.resend(
        owner(request.apiKey),
        (request.params as { id: string }).id,
        (request.body as { event_id: string }).event_id,
      );
    },
  );

  app.get(
    '/api/v1/events/:id/deliveries',
    {
      ...v1,
      schema: {
        ...webhooks,
        summary: "An event's deliveries to every endpoint of the mode, each with its attempts",
        params: IdParams,
        querystring: Type.Object(Paging, { additionalProperties: false }),
        response: { 200: list(WebhookDelivery), ...errors },
      },
    },
    async (request) =>
      ctx.events.listDeliveries(
        owner(request.apiKey),
        { eventId: (request.params as { id: string }).id },
        request.query as { limit?: number; starting_after?: string },
      ),
  );
}
