import { Type } from 'typebox';
import type { Clock } from '../../core/clock.ts';
import { invalidRequest, notFound } from '../../core/errors.ts';
import { documented, errorResponses, Nullable, type RoutesApp, withExample } from '../../core/schemas.ts';
import { apiKeyGuard } from '../auth/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { checkCardholderDetails } from './objects.ts';
import type { CardService } from './service.ts';

const CardholderObject = Type.Object(
  {
    object: Type.Literal('cardholder'),
    id: Type.String(),
    first_name: Nullable(Type.String({ description: 'Null when not known (made from a verification)' })),
    last_name: Nullable(Type.String({ description: 'Null when not known (made from a verification)' })),
    email: Nullable(Type.String()),
    date_of_birth: Nullable(Type.String()),
    phone_number: Nullable(Type.String()),
    external_user_id: Nullable(Type.String()),
    user_id: Nullable(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Cardholder', description: 'The person cards are issued to.' },
);

const details = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  date_of_birth: '1990-12-10',
  phone_number: '+14155550123',
};
const cardholderExample = {
  object: 'cardholder' as const,
  id: 'ch_5Gh8JkL1mNp4QrSt',
  ...details,
  external_user_id: 'user-42',
  user_id: null,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
};
const v1Errors = { 401: 'A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`).' };

// A name has at least one character that is not white space: " " is as empty as "".
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Email = Type.String({ format: 'email', maxLength: 320 });
const BirthDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });
const Phone = Type.String({ maxLength: 32, description: 'E.164, e.g. +14155550123' });
const ExternalUserId = Type.String({ maxLength: 255 });

/** The spec's deprecated payment-method status endpoint sunsets ~30 days after wallet funding (§9.4). */
const PAYMENT_METHOD_SUNSET = 'Wed, 30 Dec 2026 00:00:00 GMT';

/** What the v1 routes use (API key): cardholders and the organization's revenue settings. */
export interface CardV1RoutesOptions {
  orgs: OrgService;
  cards: CardService;
  cardholders: CardService['cardholders'];
  clock: Clock;
  /** The deprecation link's origin. */
  baseUrl: string;
}

/**
 * v1 endpoints for cards (API key, spec §4 "v1 endpoints referenced"): cardholders, the deprecated
 * payment-method status, and the organization's revenue configuration. Errors use the v2 body.
 */
export async function cardV1Routes(
  app: RoutesApp,
  { orgs, cards, cardholders, clock, baseUrl }: CardV1RoutesOptions,
): Promise<void> {
  app.decorateRequest('apiKey', null);
  app.addSchema(CardholderObject);
  const v1 = { onRequest: apiKeyGuard(orgs) };
  const schemaBase = { tags: ['Cardholders (v1)'], security: [{ apiKey: [] }] };
  const scope = (request: { apiKey: { organizationId: string; livemode: boolean } | null }) => ({
    organizationId: request.apiKey!.organizationId,
    livemode: request.apiKey!.livemode,
  });
  const Params = Type.Object({ id: Type.String() });

  app.post(
    '/api/v1/cardholders',
    {
      ...v1,
      schema: {
        ...schemaBase,
        operationId: 'createCardholder',
        summary: 'Create a cardholder',
        description: 'Fires `cardholder.created`. Personal details are sealed at rest.',
        body: withExample(
          Type.Object(
            {
              first_name: Name,
              last_name: Name,
              email: Email,
              date_of_birth: BirthDate,
              phone_number: Phone,
              external_user_id: Type.Optional(ExternalUserId),
            },
            { additionalProperties: false },
          ),
          { ...details, external_user_id: 'user-42' },
        ),
        response: {
          201: documented(CardholderObject, 'The new cardholder.', cardholderExample),
          ...errorResponses(400, 401, 403, 503, v1Errors),
        },
      },
    },
    async (request, reply) => {
      checkDetails(request.body, clock.now());
      return reply.code(201).send(await cardholders.create(scope(request), request.body));
    },
  );

  app.get(
    '/api/v1/cardholders/:id',
    {
      ...v1,
      schema: {
        ...schemaBase,
        operationId: 'getCardholder',
        summary: 'A cardholder',
        params: Params,
        response: {
          200: documented(CardholderObject, 'The cardholder.', cardholderExample),
          ...errorResponses(401, 403, 404, 503, v1Errors),
        },
      },
    },
    async (request) => cardholders.get(scope(request), request.params.id),
  );

  app.patch(
    '/api/v1/cardholders/:id',
    {
      ...v1,
      schema: {
        ...schemaBase,
        operationId: 'updateCardholder',
        summary: "Change a cardholder's details",
        description: 'Fires `cardholder.updated` naming the `updated_fields` when a detail changed.',
        params: Params,
        body: withExample(
          Type.Object(
            {
              first_name: Type.Optional(Name),
              last_name: Type.Optional(Name),
              email: Type.Optional(Email),
              date_of_birth: Type.Optional(BirthDate),
              phone_number: Type.Optional(Phone),
              external_user_id: Type.Optional(ExternalUserId),
            },
            { additionalProperties: false, minProperties: 1 },
          ),
          { last_name: 'King' },
        ),
        response: {
          200: documented(CardholderObject, 'The cardholder as changed.', {
            ...cardholderExample,
            last_name: 'King',
          }),
          ...errorResponses(400, 401, 403, 404, 503, v1Errors),
        },
      },
    },
    async (request) => {
      checkDetails(request.body, clock.now());
      return cardholders.update(scope(request), request.params.id, request.body);
    },
  );

  app.get(
    '/api/v1/cardholders/:id/payment-method/status',
    {
      ...v1,
      schema: {
        ...schemaBase,
        operationId: 'getPaymentMethodStatus',
        summary: 'Deprecated: whether the cardholder has a stored payment method',
        description:
          'Deprecated (answered with `Deprecation` and `Sunset` headers): cards are funded from the wallet. ' +
          'A payment method is a card stored in the hosted vault; until the vault exists, none is.',
        deprecated: true,
        params: Params,
        response: {
          200: documented(
            Type.Object({ hasPaymentMethod: Type.Boolean(), paymentMethodId: Type.Optional(Type.String()) }),
            'Whether a payment method is stored (none until the vault exists).',
            { hasPaymentMethod: false },
          ),
          ...errorResponses(401, 403, 404, 503, v1Errors),
        },
      },
    },
    async (request, reply) => {
      await cardholders.get(scope(request), request.params.id);
      // RFC 9745 (Deprecation), RFC 8594 (Sunset), and a link to the migration note.
      reply
        .header('deprecation', `@${Math.floor(Date.UTC(2026, 10, 1) / 1000)}`)
        .header('sunset', PAYMENT_METHOD_SUNSET)
        .header('link', `<${baseUrl}/docs#/Cardholders%20(v1)/getPaymentMethodStatus>; rel="deprecation"`);
      return { hasPaymentMethod: false };
    },
  );

  const revenue = { tags: ['Revenue (v1)'], security: [{ apiKey: [] }] };
  const RevenueConfig = Type.Object({
    object: Type.Literal('revenue_config'),
    organization_id: Type.String(),
    rewardShareBps: Type.Integer(),
  });
  const revenueExample = {
    object: 'revenue_config' as const,
    organization_id: 'org_2Df7GhJ9kLm3NpQr',
    rewardShareBps: 5000,
  };
  const OrgParams = Type.Object({ orgId: Type.String() });
  const ownOrganization = (request: {
    apiKey: { organizationId: string } | null;
    params: { orgId: string };
  }) => {
    // Another organization's id answers 404, never 403.
    if (request.params.orgId !== request.apiKey!.organizationId) throw notFound('No such organization.');
    return request.params.orgId;
  };

  app.get(
    '/orgs/:orgId/revenue-config',
    {
      ...v1,
      schema: {
        ...revenue,
        operationId: 'getRevenueConfig',
        summary: 'The share of interchange routed to users as rewards',
        params: OrgParams,
        response: {
          200: documented(RevenueConfig, 'The configuration.', revenueExample),
          ...errorResponses(401, 403, 404, 503, { ...v1Errors, 404: 'Not the organization of the API key.' }),
        },
      },
    },
    async (request) => cards.revenueConfig(ownOrganization(request)),
  );

  app.patch(
    '/orgs/:orgId/revenue-config',
    {
      ...v1,
      schema: {
        ...revenue,
        operationId: 'updateRevenueConfig',
        summary: 'Set the share of interchange routed to users as rewards',
        params: OrgParams,
        body: withExample(
          Type.Object(
            {
              rewardShareBps: Type.Integer({
                minimum: 0,
                maximum: 10_000,
                description: 'Basis points, 0 to 10000',
              }),
            },
            { additionalProperties: false },
          ),
          { rewardShareBps: 5000 },
        ),
        response: {
          200: documented(RevenueConfig, 'The configuration as set.', revenueExample),
          ...errorResponses(400, 401, 403, 404, 503, {
            ...v1Errors,
            404: 'Not the organization of the API key.',
          }),
        },
      },
    },
    async (request) => cards.setRewardShare(ownOrganization(request), request.body.rewardShareBps),
  );
}

/** What a schema cannot say: a real past birth date and a dialable E.164 number. */
function checkDetails(
  details: { date_of_birth?: string | undefined; phone_number?: string | undefined },
  now: number,
) {
  const errors = checkCardholderDetails(details, now);
  if (errors) throw invalidRequest('Some cardholder details are invalid.', errors);
}
