import { Type } from 'typebox';
import { ListOf, PageQuery } from '../../core/pagination.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import {
  documented,
  errorResponses,
  LiteralUnion,
  Nullable,
  type RoutesApp,
  withExample,
} from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import type { MandateRefusalCode } from './index.ts';
import type { MandateService } from './service.ts';
import { MANDATE_STATUSES } from './states.ts';
import { BUDGET_INTERVALS, MAX_CENTS } from './terms.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<MandateRefusalCode>({
  invalid_request: 400,
  passkey_invalid: 400,
  passkey_required: 403,
  not_found: 404,
  invalid_mandate_state: 409,
  link_used: 409,
  terms_changed: 409,
  link_expired: 410,
});

const Cents = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_CENTS, description });

const Budget = Type.Object(
  {
    amount_cents: Cents('What the purchases may spend in each interval, in cents'),
    interval: LiteralUnion(BUDGET_INTERVALS, {
      description:
        '`daily`, `weekly` (ISO weeks, from Monday) and `monthly` are UTC calendar windows; `total` is the whole life of the mandate',
    }),
  },
  { additionalProperties: false },
);

const List = (description: string) =>
  Nullable(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 0, maxItems: 500, description }),
  );
const CATEGORIES =
  'Four-digit merchant category codes or category names of GET /api/v2/merchant_categories; null: every category';
const MERCHANTS = 'Merchant slugs (as `/buy` names them); null: every merchant';

/** The terms a request names (and the OAuth `mandate` parameter, as JSON). */
export const MandateTermsBody = Type.Object(
  {
    client_id: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'The OAuth app the mandate lets buy',
    }),
    description: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'What the app buys, in the user’s words',
    }),
    currency: Type.String({ minLength: 1, maxLength: 3, description: '`usd`' }),
    max_amount_cents: Cents('The most one purchase may cost, in cents'),
    budget: Budget,
    allowed_categories: Type.Optional(List(CATEGORIES)),
    allowed_merchants: Type.Optional(List(MERCHANTS)),
    expires_at: Type.String({
      maxLength: 40,
      description: 'ISO 8601 with a time zone; in the future, at most 366 days ahead',
    }),
  },
  { additionalProperties: false },
);

export const TermsObject = Type.Object(
  {
    client_id: Type.String(),
    description: Type.String(),
    currency: Type.Literal('usd'),
    max_amount_cents: Type.Integer(),
    budget: Budget,
    allowed_categories: Nullable(Type.Array(Type.String(), { description: CATEGORIES })),
    allowed_merchants: Nullable(Type.Array(Type.String(), { description: MERCHANTS })),
    expires_at: Type.String({ description: 'ISO 8601, UTC' }),
  },
  {
    $id: 'MandateTerms',
    description:
      'The terms as stored and signed: every field present, an absent optional one null, `expires_at` in UTC, repeats left out.',
  },
);

export const MandateObject = Type.Object(
  {
    object: Type.Literal('mandate'),
    id: Type.String({ description: '`mdt_…`' }),
    status: LiteralUnion(MANDATE_STATUSES, {
      description:
        '`pending_approval` (waiting for the user’s passkey), `active` (purchases within the terms need no approval), ' +
        '`exhausted` (a `total` budget is used up; a refund reopens it), `expired` (past `expires_at`), `revoked`',
    }),
    approval_url: Nullable(
      Type.String({
        description:
          'The hosted page where the user reads the terms and approves them with a passkey (or declines them); null once not pending, and once the page has expired (7 days after the mandate was created, or at `expires_at` if sooner). Safe to send as text: opening it changes nothing.',
      }),
    ),
    terms_hash: Type.String({
      description: 'Lowercase hex SHA-256 of the RFC 8785 canonical JSON of `terms`: what the passkey signed',
    }),
    terms: { $ref: 'MandateTerms' },
    spent_cents: Type.Integer({
      description: 'What purchases spent in the current budget interval (refunds given back)',
    }),
    remaining_cents: Type.Integer({ description: 'What the current budget interval has left' }),
    created_at: Type.String({ description: 'ISO 8601' }),
    approved_at: Nullable(Type.String({ description: 'ISO 8601' })),
    expires_at: Type.String({ description: 'ISO 8601' }),
  },
  { $id: 'Mandate', description: 'A spending mandate (issue 28; docs/mandates.md).' },
);

const MandateList = ListOf(MandateObject, 'MandateList');

const termsExample = {
  client_id: 'cli_8Qw2Er4Ty6Ui8Op0',
  description: 'Weekly groceries',
  currency: 'usd' as const,
  max_amount_cents: 15_000,
  budget: { amount_cents: 40_000, interval: 'monthly' as const },
  allowed_categories: ['5411'],
  allowed_merchants: null,
  expires_at: '2027-05-31T23:59:59.000Z',
};

const mandateExample = {
  object: 'mandate' as const,
  id: 'mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y',
  status: 'pending_approval' as const,
  approval_url: 'https://purser.example/mandates/mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y/approve/Hq2Lm…',
  terms_hash: '3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8a55',
  terms: termsExample,
  spent_cents: 0,
  remaining_cents: 40_000,
  created_at: '2026-11-27T10:00:00.000Z',
  approved_at: null,
  expires_at: '2027-05-31T23:59:59.000Z',
};

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const UserParams = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Spending mandates (platform token; docs/mandates.md); the approval page is web/mandates/page.ts. */
export async function mandateRoutes(
  app: RoutesApp,
  { auth, mandates }: { auth: AuthService; mandates: MandateService },
): Promise<void> {
  app.addSchema(TermsObject);
  app.addSchema(MandateObject);
  app.addSchema(MandateList);
  const common = { onRequest: platformGuard(auth) };
  const tags = ['Mandates'];
  const security = [{ platformToken: [] }];

  app.post(
    '/api/v2/users/:user_id/mandates',
    {
      ...common,
      schema: {
        tags,
        security,
        operationId: 'createMandate',
        summary: 'Ask a user to sign spending terms for an app',
        description:
          'The mandate starts `pending_approval`: give the user its `approval_url`, where they approve the terms with a ' +
          'passkey (registering one first if they have none). Once `active`, `/buy` confirms and MCP purchases made with ' +
          'a token of `client_id` within the terms need no per-purchase approval. Accepts `Idempotency-Key`.',
        params: UserParams,
        body: withExample(MandateTermsBody, termsExample),
        response: {
          201: documented(MandateObject, 'The mandate, waiting for the user.', mandateExample),
          ...errorResponses(400, 401, 403, 404, 503, {
            400: 'A field is missing or not valid (`invalid_request`, `field_errors` names it): also an unknown `client_id`, a `max_amount_cents` above the budget, an `expires_at` in the past.',
            404: 'No such user in this organization and mode (`not_found`).',
          }),
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return mandates.create(request.principal!, request.params.user_id, request.body);
    },
  );

  app.get(
    '/api/v2/users/:user_id/mandates',
    {
      ...common,
      schema: {
        tags,
        security,
        operationId: 'listMandates',
        summary: "A user's mandates, newest first",
        params: UserParams,
        querystring: Type.Object(
          {
            ...PageQuery,
            client_id: Type.Optional(
              Type.String({ maxLength: 2048, description: 'Only this app’s mandates' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: documented(MandateList, 'A page of mandates.', {
            object: 'list' as const,
            data: [mandateExample],
            has_more: false,
          }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) =>
      mandates.list(request.principal!, request.params.user_id, {
        limit: request.query.limit,
        startingAfter: request.query.starting_after,
        clientId: request.query.client_id,
      }),
  );

  app.get(
    '/api/v2/mandates/:id',
    {
      ...common,
      schema: {
        tags,
        security,
        operationId: 'getMandate',
        summary: 'A mandate, its terms and what its budget has left',
        params: Params,
        response: {
          200: documented(MandateObject, 'The mandate.', mandateExample),
          ...errorResponses(401, 403, 404, 503, { 404: 'No such mandate in this organization and mode.' }),
        },
      },
    },
    async (request) => mandates.get(request.principal!, request.params.id),
  );

  app.delete(
    '/api/v2/mandates/:id',
    {
      ...common,
      schema: {
        tags,
        security,
        operationId: 'revokeMandate',
        summary: 'Revoke a mandate',
        description:
          'No purchase passes it from then on, and `mandate.revoked` fires. Revoking a revoked mandate answers it ' +
          'unchanged. Accepts `Idempotency-Key`.',
        params: Params,
        response: {
          200: documented(MandateObject, 'The revoked mandate.', {
            ...mandateExample,
            status: 'revoked' as const,
            approval_url: null,
          }),
          ...errorResponses(401, 403, 404, 409, 503, {
            404: 'No such mandate in this organization and mode.',
            409: 'The mandate has expired (`invalid_mandate_state`).',
          }),
        },
      },
    },
    async (request) => mandates.revoke(request.principal!, request.params.id),
  );
}
