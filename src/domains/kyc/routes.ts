import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { safeEqual } from '../../core/crypto.ts';
import { ApiError, invalidRequest } from '../../core/errors.ts';
import { errorResponses } from '../../core/schemas.ts';
import { bearerToken, platformGuard } from '../auth/guard.ts';
import { INFORMATION_FIELDS, type Information, type InformationField, isCountryCode } from './fields.ts';
import type { ReviewDecision } from './review.ts';
import { type DocumentUpload, SIMULATE_OUTCOMES, type SimulateOutcome } from './service.ts';
import { KYC_STATUSES } from './states.ts';

const UserId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A user connected to the calling client.',
});

const Extracted = Type.Object(
  {
    first_name: Type.Optional(Type.String()),
    last_name: Type.Optional(Type.String()),
    date_of_birth: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    address_line1: Type.Optional(Type.String()),
    address_city: Type.Optional(Type.String()),
    address_region: Type.Optional(Type.String()),
    address_postal_code: Type.Optional(Type.String()),
    address_country: Type.Optional(Type.String()),
    document_type: Type.Optional(Type.String()),
    issuing_country: Type.Optional(Type.String()),
    document_number: Type.Optional(
      Type.String({
        description: 'The document’s own number; never a national id number: do not prefill it.',
      }),
    ),
  },
  { description: 'What the reader pulled from this image; keys appear as they become readable.' },
);

export const KycState = Type.Object(
  {
    object: Type.Literal('kyc'),
    status: Type.Union(KYC_STATUSES.map((s) => Type.Literal(s))),
    required_fields: Type.Optional(
      Type.Array(Type.String(), { description: 'Only on needs_information: exactly the fields to submit.' }),
    ),
    iframe_url: Type.Optional(
      Type.String({
        description:
          'On awaiting_documents, needs_information and requires_verification: the hosted page. Polls return the same URL while it is valid (a new one, retiring it, once a third of its lifetime is left); only the newest works. Embed with allow="camera; microphone".',
      }),
    ),
    warnings: Type.Optional(
      Type.Array(Type.String(), { description: 'On uploads: user-safe photo feedback.' }),
    ),
    extracted: Type.Optional(Extracted),
    reason: Type.Optional(Type.String({ description: 'End-user-safe; may be shown verbatim.' })),
  },
  { description: 'The KYC state: the single status contract of every KYC answer.' },
);

const DocumentBody = Type.Object(
  {
    user_id: UserId,
    image: Type.String({ minLength: 1, description: 'The photo, base64-encoded (JPEG or PNG).' }),
    mime_type: Type.Optional(
      Type.Union([Type.Literal('image/jpeg'), Type.Literal('image/png')], { default: 'image/jpeg' }),
    ),
    document_type: Type.Union([
      Type.Literal('drivers_license'),
      Type.Literal('state_id'),
      Type.Literal('passport'),
    ]),
    issuing_country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, e.g. US' }),
  },
  { additionalProperties: false },
);

const informationProperties = Object.fromEntries(
  INFORMATION_FIELDS.map((field) => [field, Type.Optional(Type.String({ maxLength: 200 }))]),
) as Record<InformationField, ReturnType<typeof Type.Optional<ReturnType<typeof Type.String>>>>;

const InformationBody = Type.Object(
  { user_id: UserId, ...informationProperties },
  {
    additionalProperties: false,
    description:
      'Exactly the fields `required_fields` listed. Dates YYYY-MM-DD, phone numbers E.164, countries ISO 3166-1 alpha-2.',
  },
);

const SimulateBody = Type.Object(
  {
    user_id: UserId,
    outcome: Type.Union(SIMULATE_OUTCOMES.map((o) => Type.Literal(o))),
    reason: Type.Optional(
      Type.String({
        maxLength: 300,
        description: 'End-user-safe; must not name internal providers or identifiers (400 invalid_reason).',
      }),
    ),
  },
  { additionalProperties: false },
);

export async function kycRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const common = { onRequest: platformGuard(ctx.auth) };
  const tags = ['Identity verification'];
  const security = [{ platformToken: [] }];

  for (const side of ['front', 'back'] as const) {
    app.post(
      `/api/v2/kyc/documents/${side}`,
      {
        ...common,
        bodyLimit: ctx.config.kyc.uploadLimitBytes,
        schema: {
          summary:
            side === 'front'
              ? 'Upload the front of an ID (or a passport data page: the branch point for passports)'
              : 'Upload the back of a licence or state ID: the branch point',
          tags,
          security,
          body: DocumentBody,
          response: { 200: KycState, ...errorResponses(400, 401, 404, 409, 413, 422, 502) },
        },
      },
      async (request) => {
        const body = request.body as DocumentUpload;
        if (!isCountryCode(body.issuing_country))
          throw invalidRequest('Unknown issuing_country.', {
            issuing_country: 'must be an ISO 3166-1 alpha-2 country code',
          });
        return ctx.kyc.uploadDocument(request.principal!, side, body);
      },
    );
  }

  app.post(
    '/api/v2/kyc/information',
    {
      ...common,
      schema: {
        summary: 'Submit the fields listed in required_fields',
        tags,
        security,
        body: InformationBody,
        response: { 200: KycState, ...errorResponses(400, 401, 404, 409, 502) },
      },
    },
    async (request) =>
      ctx.kyc.submitInformation(request.principal!, request.body as { user_id: string } & Information),
  );

  app.get(
    '/api/v2/kyc',
    {
      ...common,
      schema: {
        summary: 'Read the current KYC state of a user',
        tags,
        security,
        querystring: Type.Object({ user_id: UserId }),
        response: { 200: KycState, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ctx.kyc.state(request.principal!, (request.query as { user_id: string }).user_id),
  );

  app.post(
    '/api/v2/kyc/simulate',
    {
      ...common,
      schema: {
        summary: 'Test mode: simulate a review outcome',
        description:
          'Test-mode credential only (403 sandbox_only). `requires_input` is the retryable bounce back to awaiting_documents. Fires identity.verification.updated; re-simulating overwrites. Answers the new state as GET /api/v2/kyc reports it.',
        tags,
        security,
        body: SimulateBody,
        response: { 200: KycState, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      ctx.kyc.simulate(
        request.principal!,
        request.body as { user_id: string; outcome: SimulateOutcome; reason?: string },
      ),
  );
}

const ReviewItem = Type.Object({
  object: Type.Literal('kyc_review'),
  id: Type.String(),
  organization_id: Type.String(),
  user_id: Type.String(),
  status: Type.String(),
  document_type: Type.Union([Type.String(), Type.Null()]),
  issuing_country: Type.Union([Type.String(), Type.Null()]),
  extracted: Type.Record(Type.String(), Type.String()),
  information: Type.Record(Type.String(), Type.String()),
  national_id_submitted: Type.Boolean(),
  face_scan_at: Type.Union([Type.String(), Type.Null()]),
  submitted_at: Type.Union([Type.String(), Type.Null()]),
});

const Reason = Type.String({ minLength: 1, maxLength: 300, description: 'End-user-safe text.' });

/**
 * The built-in manual review queue for operators (not platforms): bearer `KYC_REVIEWER_TOKEN`.
 * Without that setting the routes answer 404, as if they did not exist.
 */
export async function kycReviewRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const requireReviewer = async (request: FastifyRequest) => {
    const expected = ctx.config.kyc.reviewerToken;
    if (expected === null)
      throw new ApiError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    const token = bearerToken(request);
    if (!token || !safeEqual(token, expected))
      throw new ApiError(401, 'unauthorized', 'A valid reviewer token is required.', {
        headers: { 'www-authenticate': 'Bearer realm="purser-review"' },
      });
  };
  const schemaBase = { tags: ['Identity review (operators)'], hide: true };
  const reviewer = (request: FastifyRequest) => {
    const name = request.headers['x-reviewer'];
    return typeof name === 'string' && /^[\w.@-]{1,64}$/.test(name) ? name : 'operator';
  };

  app.get(
    '/operator/kyc/reviews',
    {
      preHandler: requireReviewer,
      schema: {
        ...schemaBase,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
          organization_id: Type.Optional(Type.String()),
        }),
        response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(ReviewItem) }) },
      },
    },
    async (request) => {
      const query = request.query as { limit?: number; organization_id?: string };
      const data = await ctx.kyc.reviewQueue({
        ...(query.limit ? { limit: query.limit } : {}),
        ...(query.organization_id ? { organizationId: query.organization_id } : {}),
      });
      return { object: 'list' as const, data };
    },
  );

  const decide = (
    path: string,
    body: ReturnType<typeof Type.Object> | null,
    toDecision: (body: Record<string, unknown>) => ReviewDecision,
  ) =>
    app.post(
      `/operator/kyc/reviews/:id/${path}`,
      {
        preHandler: requireReviewer,
        schema: {
          ...schemaBase,
          params: Type.Object({ id: Type.String() }),
          ...(body ? { body } : {}),
          response: { 200: ReviewItem, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request) =>
        ctx.kyc.applyReview(
          (request.params as { id: string }).id,
          toDecision((request.body ?? {}) as Record<string, unknown>),
          reviewer(request),
        ),
    );

  decide('approve', null, () => ({ outcome: 'approved' }));
  decide('reject', Type.Object({ reason: Reason }, { additionalProperties: false }), (b) => ({
    outcome: 'rejected',
    reason: b.reason as string,
  }));
  decide(
    'request_information',
    Type.Object(
      {
        fields: Type.Array(Type.Union(INFORMATION_FIELDS.map((f) => Type.Literal(f))), { minItems: 1 }),
        reason: Reason,
      },
      { additionalProperties: false },
    ),
    (b) => ({
      outcome: 'needs_information',
      fields: b.fields as InformationField[],
      reason: b.reason as string,
    }),
  );
  decide('request_documents', Type.Object({ reason: Reason }, { additionalProperties: false }), (b) => ({
    outcome: 'needs_documents',
    reason: b.reason as string,
  }));
}
