import { Type } from 'typebox';
import { ListOf } from '../../core/pagination.ts';
import { EVENT_TYPES } from './catalog.ts';
import { SIGNATURE_SCHEMES } from './signing.ts';

/* The API objects of events and webhooks (TypeBox), with the examples the OpenAPI document shows. */

/** Spec §6 "Envelope": exactly these five fields. */
export const Event = Type.Object(
  {
    id: Type.String({ description: 'Stable id, `evt_…`; dedupe on it.' }),
    type: Type.String({
      description: `The event type, one of the catalog (new types are added over time): ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}.`,
    }),
    created: Type.Integer({ description: 'Unix epoch seconds.' }),
    livemode: Type.Boolean(),
    data: Type.Object({}, { additionalProperties: true, description: 'Depends on `type`.' }),
  },
  { $id: 'Event', description: 'An event, as delivered to webhooks and listed by the events API.' },
);

export const Subscriptions = Type.Array(Type.String({ maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description:
    'Known event types, `*` for every type, or prefixes of known families such as `card.*`; an unknown name is `invalid_event_type`.',
});

export const SignatureScheme = Type.Union(
  [Type.Literal(SIGNATURE_SCHEMES[0]), Type.Literal(SIGNATURE_SCHEMES[1])],
  {
    description:
      "How deliveries are signed (docs/webhooks.md): `purser` (the default) sends the spec's `Service-Signature` " +
      "(and the legacy `X-Service-Signature`); `standard_webhooks` sends Standard Webhooks' `webhook-id` (the " +
      'event id), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256>` keyed with the base64 ' +
      'part of the secret), for any Standard Webhooks library to verify.',
  },
);

export const WebhookEndpoint = Type.Object(
  {
    object: Type.Literal('webhook_endpoint'),
    id: Type.String({ description: '`wh_…`' }),
    url: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    enabled_events: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
    livemode: Type.Boolean(),
    signature_scheme: SignatureScheme,
    failure_count: Type.Integer({ description: 'Consecutive failed attempts since the last success.' }),
    disabled_at: Type.Union([Type.Integer(), Type.Null()]),
    created: Type.Integer(),
    secret: Type.Optional(
      Type.String({
        description: 'The `whsec_…` signing secret: only in the create and roll_secret answers.',
      }),
    ),
  },
  { $id: 'WebhookEndpoint', description: 'Where and which events are delivered.' },
);

export const WebhookDelivery = Type.Object(
  {
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
        outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('unknown')], {
          description:
            '`unknown`: the worker making the attempt stopped (a crash, a lost database) before it recorded an answer; the receiver may have received it. The next attempt has the next number.',
        }),
        error: Type.Union([Type.String(), Type.Null()]),
        response_excerpt: Type.Union([Type.String(), Type.Null()], {
          description:
            'First 1 KB of the answer; always null for a private (loopback, private or link-local) destination.',
        }),
      }),
    ),
  },
  { $id: 'WebhookDelivery', description: 'One event owed to one endpoint, with its attempts.' },
);

export const WebhookRecovery = Type.Object(
  {
    object: Type.Literal('webhook_recovery'),
    endpoint_id: Type.String(),
    since: Type.Integer(),
    recovered: Type.Integer({ description: 'How many events were queued for the endpoint again.' }),
  },
  { $id: 'WebhookRecovery', description: 'What a recover queued.' },
);

export const EventList = ListOf(Event, 'EventList', 'A page of events, newest first.');
export const WebhookEndpointList = ListOf(
  WebhookEndpoint,
  'WebhookEndpointList',
  'A page of webhook endpoints, newest first.',
);
export const WebhookDeliveryList = ListOf(
  WebhookDelivery,
  'WebhookDeliveryList',
  'A page of webhook deliveries, newest first.',
);

export const eventExample = {
  id: 'evt_8sDf3GhJ6kL9zXcV',
  type: 'identity.verification.updated',
  created: 1768471200,
  livemode: false,
  data: { user_id: 'usr_7hGt3KqW9mNx2VbR', status: 'approved' },
};

export const endpointExample = {
  object: 'webhook_endpoint' as const,
  id: 'wh_2qWe4RtY6uI8oPaS',
  url: 'https://platform.example.com/purser/webhooks',
  description: 'Production listener',
  enabled_events: ['identity.*', 'card.authorization.created'],
  status: 'active' as const,
  livemode: false,
  signature_scheme: 'purser' as const,
  failure_count: 0,
  disabled_at: null,
  created: 1768471200,
};

export const deliveryExample = {
  object: 'webhook_delivery' as const,
  id: 'whd_5tGb7YhN9uJm2IkL',
  endpoint_id: endpointExample.id,
  event_id: eventExample.id,
  event_type: eventExample.type,
  status: 'succeeded' as const,
  attempt_count: 1,
  next_attempt_at: null,
  last_status_code: 200,
  last_error: null,
  created: 1768471200,
  completed_at: 1768471201,
  attempts: [
    {
      attempt: 1,
      attempted_at: 1768471201,
      status_code: 200,
      duration_ms: 84,
      succeeded: true,
      outcome: 'succeeded' as const,
      error: null,
      response_excerpt: 'ok',
    },
  ],
};
