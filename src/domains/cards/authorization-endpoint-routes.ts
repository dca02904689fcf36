import { Type } from 'typebox';
import { documented, errorResponses, LiteralUnion, type RoutesApp, withExample } from '../../core/schemas.ts';
import type { Principal } from '../auth/index.ts';
import { platformGuard } from '../auth/index.ts';
import { ON_TIMEOUT, TIMEOUT_MS } from './platform-authorization.ts';
import type { CardRoutesOptions } from './routes.ts';
import { scopeOf } from './service.ts';

/*
 * The platform's real-time authorization endpoint (docs/cards.md "Real-time authorization"): one
 * per organization and mode. Registered inside the card routes' scope (`cardRoutes`).
 */

const Settings = {
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'Where `authorization.request` is POSTed; `https` in production',
  }),
  timeout_ms: Type.Integer({
    minimum: TIMEOUT_MS.min,
    maximum: TIMEOUT_MS.max,
    description: `How long a charge waits for the answer (default ${TIMEOUT_MS.default}); less when the issuer's deadline leaves less`,
  }),
  on_timeout: LiteralUnion(ON_TIMEOUT, {
    description: 'What no answer in time, or one that is not `{approved}`, decides (default `decline`)',
  }),
};

const EndpointInput = Type.Object(
  {
    url: Settings.url,
    timeout_ms: Type.Optional(Settings.timeout_ms),
    on_timeout: Type.Optional(Settings.on_timeout),
  },
  { additionalProperties: false },
);

const EndpointObject = Type.Object(
  {
    object: Type.Literal('authorization_endpoint'),
    ...Settings,
    livemode: Type.Boolean(),
    secret: Type.Optional(
      Type.String({
        description:
          'The `whsec_…` secret `authorization.request` is signed with (`Service-Signature`, as webhooks): shown when the endpoint is created, never again',
      }),
    ),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    description:
      "The platform's real-time authorization endpoint: every charge the engine would approve waits for its `{approved}`.",
  },
);

const example = {
  object: 'authorization_endpoint' as const,
  url: 'https://platform.example/purser/authorizations',
  timeout_ms: 1500,
  on_timeout: 'decline' as const,
  livemode: false,
  created_at: '2026-11-27T18:00:00.000Z',
  updated_at: '2026-11-27T18:00:00.000Z',
};

export async function authorizationEndpointRoutes(
  app: RoutesApp,
  { auth, platform }: Pick<CardRoutesOptions, 'auth' | 'platform'>,
): Promise<void> {
  const common = { onRequest: platformGuard(auth) };
  const schema = { tags: ['Real-time authorization'], security: [{ platformToken: [] }] };
  const scope = (request: { principal: Principal | null }) => scopeOf(request.principal!);
  const path = '/api/v2/authorization_endpoint';

  app.put(
    path,
    {
      ...common,
      schema: {
        ...schema,
        operationId: 'setAuthorizationEndpoint',
        summary: 'Set the endpoint that decides charges in real time',
        description:
          'Every authorization that passed the card status, the spending controls and the balance is POSTed, signed ' +
          'like a webhook, as `{type: "authorization.request", created, livemode, data: {authorization_id, card_id, user_id, ' +
          'amount_cents, currency, merchant, mcc, merchant_country, spending_controls_passed: true}}`; the endpoint answers ' +
          '`{approved: true}` or `{approved: false, reason?}` within `timeout_ms`. A new endpoint answers `201` with its ' +
          'signing secret; setting it again answers `200`, the secret kept.',
        body: withExample(EndpointInput, { url: example.url, timeout_ms: 1500, on_timeout: 'decline' }),
        response: {
          200: documented(
            EndpointObject,
            'The endpoint, changed; its secret unchanged and not shown.',
            example,
          ),
          201: documented(
            EndpointObject,
            'The endpoint, created, with its signing secret (shown this once).',
            {
              ...example,
              secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3rpHz1RIQuE=',
            },
          ),
          ...errorResponses(400, 401, 403, 503, {
            400: '`url` not http(s), not https in production, or a destination never reached (`invalid_request` naming it).',
          }),
        },
      },
    },
    async (request, reply) => {
      const { created, endpoint } = await platform.put(scope(request), request.body);
      return reply.code(created ? 201 : 200).send(endpoint);
    },
  );

  app.get(
    path,
    {
      ...common,
      schema: {
        ...schema,
        operationId: 'getAuthorizationEndpoint',
        summary: 'The endpoint that decides charges in real time',
        response: {
          200: documented(EndpointObject, 'The endpoint (without its secret).', example),
          ...errorResponses(401, 403, 404, 503, { 404: 'No endpoint is set in this mode.' }),
        },
      },
    },
    async (request) => platform.get(scope(request)),
  );

  app.delete(
    path,
    {
      ...common,
      schema: {
        ...schema,
        operationId: 'deleteAuthorizationEndpoint',
        summary: 'Stop deciding charges in real time',
        description: 'The engine alone decides again, from the next authorization on.',
        response: {
          200: documented(
            Type.Object({ object: Type.Literal('authorization_endpoint'), deleted: Type.Literal(true) }),
            'The endpoint is deleted.',
            { object: 'authorization_endpoint', deleted: true },
          ),
          ...errorResponses(401, 403, 404, 503, { 404: 'No endpoint is set in this mode.' }),
        },
      },
    },
    async (request) => platform.delete(scope(request)),
  );
}
