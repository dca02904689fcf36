import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { bearerGuard } from '../../core/bearer.ts';
import { safeEqual } from '../../core/crypto.ts';
import { ApiError, invalidRequest } from '../../core/errors.ts';
import { ListOf, PageQuery } from '../../core/pagination.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import {
  documented,
  errorResponses,
  LiteralUnion,
  type RoutesApp,
  ref,
  withExample,
} from '../../core/schemas.ts';
import { type AuthService, platformGuard, testModeOnly } from '../auth/index.ts';
import { INFORMATION_FIELDS, type InformationField, isCountryCode } from './fields.ts';
import type { KycRefusalCode } from './index.ts';
import type { ReviewDecision } from './review.ts';
import { type KycService, SIMULATE_OUTCOMES } from './service.ts';
import { KYC_STATUSES } from './states.ts';
import { photoFields, photoOf, readUploadsOffThread } from './upload-body.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<KycRefusalCode>({
  invalid_request: 400,
  invalid_reason: 400,
  session_expired: 401,
  sandbox_only: 403,
  not_found: 404,
  invalid_kyc_state: 409,
  user_conflict: 409,
  document_unreadable: 422,
  document_expired: 422,
  document_mismatch: 422,
  specimen_document: 422,
  image_too_large: 422,
  face_scan_failed: 422,
  // With the Retry-After the common answer gives it (core/refusal.ts).
  rate_limited: 429,
  verification_error: 502,
});

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
    status: LiteralUnion(KYC_STATUSES),
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
  { $id: 'KycState', description: 'The KYC state: the single status contract of every KYC answer.' },
);

const iframeUrlExample =
  'https://api.purser.example/kyc/verify/eyJ2IjoxLCJ2aWQiOiJreWNfN2hHdDNLcVc5bU54MlZiUiJ9.c2ln';

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
    outcome: LiteralUnion(SIMULATE_OUTCOMES),
    reason: Type.Optional(
      Type.String({
        maxLength: 300,
        description: 'End-user-safe; must not name internal providers or identifiers (400 invalid_reason).',
      }),
    ),
  },
  { additionalProperties: false },
);

const documentPhoto = photoFields(DocumentBody, ['image']);

export async function kycRoutes(
  app: RoutesApp,
  { auth, kyc, uploadLimitBytes }: { auth: AuthService; kyc: KycService; uploadLimitBytes: number },
): Promise<void> {
  app.addSchema(KycState);
  readUploadsOffThread(app, kyc);
  const common = { onRequest: platformGuard(auth) };
  const tags = ['Identity verification'];
  const security = [{ platformToken: [] }];

  for (const side of ['front', 'back'] as const) {
    app.post(
      `/api/v2/kyc/documents/${side}`,
      {
        ...common,
        bodyLimit: uploadLimitBytes,
        config: { photoFields: documentPhoto },
        schema: {
          operationId: side === 'front' ? 'uploadKycDocumentFront' : 'uploadKycDocumentBack',
          summary:
            side === 'front'
              ? 'Upload the front of an ID (or a passport data page: the branch point for passports)'
              : 'Upload the back of a licence or state ID: the branch point',
          tags,
          security,
          body: withExample(DocumentBody, {
            user_id: 'usr_7hGt3KqW9mNx2VbR',
            image:
              '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/',
            mime_type: 'image/jpeg',
            document_type: 'drivers_license',
            issuing_country: 'US',
          }),
          response: {
            200: documented(
              KycState,
              side === 'front'
                ? 'The photo was read; the state says what comes next (the back, or for a passport the next step).'
                : 'The photo was read; the state says what comes next.',
              side === 'front'
                ? {
                    object: 'kyc',
                    status: 'awaiting_documents',
                    iframe_url: iframeUrlExample,
                    warnings: [],
                    extracted: {
                      first_name: 'ADA',
                      last_name: 'LOVELACE',
                      date_of_birth: '1990-12-10',
                      document_type: 'drivers_license',
                      issuing_country: 'US',
                    },
                  }
                : {
                    object: 'kyc',
                    status: 'requires_verification',
                    iframe_url: iframeUrlExample,
                    warnings: [],
                    extracted: { address_city: 'SPRINGFIELD', address_region: 'IL', address_country: 'US' },
                  },
            ),
            ...errorResponses(400, 401, 404, 409, 413, 422, 502, {
              404: 'The user is not connected to the calling client.',
              409: 'The verification does not take this upload now (`invalid_kyc_state`), or the document is verified for another user (`user_conflict`).',
              422: 'The photo could not be read as the document (`document_unreadable`), the document has expired (`document_expired`), or a live verification got a sandbox sample document (`specimen_document`).',
              502: 'The document check could not be reached (`verification_error`); try again.',
            }),
          },
        },
      },
      async (request) => {
        const body = request.body;
        if (!isCountryCode(body.issuing_country))
          throw invalidRequest('Unknown issuing_country.', {
            issuing_country: 'must be an ISO 3166-1 alpha-2 country code',
          });
        return kyc.uploadDocument(request.principal!, side, {
          ...body,
          image: photoOf(request, 'image', body.image),
        });
      },
    );
  }

  app.post(
    '/api/v2/kyc/information',
    {
      ...common,
      schema: {
        operationId: 'submitKycInformation',
        summary: 'Submit the fields listed in required_fields',
        tags,
        security,
        body: withExample(InformationBody, {
          user_id: 'usr_7hGt3KqW9mNx2VbR',
          address_line1: '12 Analytical Way',
          address_postal_code: '62701',
        }),
        response: {
          200: documented(KycState, 'The fields were accepted; the state says what comes next.', {
            object: 'kyc',
            status: 'pending',
          }),
          ...errorResponses(400, 401, 404, 409, 502, {
            409: 'The verification is not waiting for information (`invalid_kyc_state`).',
            502: 'The review could not be reached (`verification_error`); try again.',
          }),
        },
      },
    },
    async (request) => kyc.submitInformation(request.principal!, request.body),
  );

  app.get(
    '/api/v2/kyc',
    {
      ...common,
      schema: {
        operationId: 'getKycState',
        summary: 'Read the current KYC state of a user',
        tags,
        security,
        querystring: Type.Object({ user_id: UserId }, { additionalProperties: false }),
        response: {
          200: documented(KycState, "The user's current KYC state.", {
            object: 'kyc',
            status: 'needs_information',
            required_fields: ['address_line1', 'address_postal_code'],
            iframe_url: iframeUrlExample,
            reason: 'We need a few more details to finish verifying your identity.',
          }),
          ...errorResponses(400, 401, 404, { 404: 'The user is not connected to the calling client.' }),
        },
      },
    },
    async (request) => kyc.state(request.principal!, request.query.user_id),
  );

  app.post(
    '/api/v2/kyc/simulate',
    {
      ...common,
      preValidation: testModeOnly,
      schema: {
        operationId: 'simulateKycOutcome',
        summary: 'Test mode: simulate a review outcome',
        description:
          'Test-mode credential only (403 sandbox_only). `requires_input` is the retryable bounce back to awaiting_documents. Fires identity.verification.updated; re-simulating overwrites. Answers the new state as GET /api/v2/kyc reports it.',
        tags,
        security,
        body: withExample(SimulateBody, { user_id: 'usr_7hGt3KqW9mNx2VbR', outcome: 'approved' }),
        response: {
          200: documented(KycState, 'The new state, as GET /api/v2/kyc reports it.', {
            object: 'kyc',
            status: 'approved',
          }),
          ...errorResponses(400, 401, 403, 404, 409, {
            403: 'The credential is not test mode (`sandbox_only`), or the organization is suspended (`access_denied`).',
            409: 'The verification has no documents to decide on yet (`invalid_kyc_state`).',
          }),
        },
      },
    },
    async (request) => kyc.simulate(request.principal!, request.body),
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
const ReviewList = ListOf(ReviewItem, 'KycReviewList', 'The queue, oldest first; `starting_after` pages on.');

const Reason = Type.String({ minLength: 1, maxLength: 300, description: 'End-user-safe text.' });

/**
 * The built-in manual review queue for operators (not platforms): bearer `KYC_REVIEWER_TOKEN`.
 * Without that setting the routes answer 404, as if they did not exist.
 */
export async function kycReviewRoutes(
  app: RoutesApp,
  { kyc, reviewerToken }: { kyc: KycService; reviewerToken: string | null },
): Promise<void> {
  app.addSchema(ReviewList);
  const reviewerOf = bearerGuard({
    authenticate: async (token) =>
      reviewerToken !== null && safeEqual(token, reviewerToken) ? 'reviewer' : null,
    required: 'A valid reviewer token is required.',
    challenge: () => 'Bearer realm="purser-review"',
  });
  const requireReviewer = async (request: FastifyRequest) => {
    if (reviewerToken === null)
      throw new ApiError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    await reviewerOf(request);
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
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
            starting_after: PageQuery.starting_after,
            organization_id: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
        response: {
          200: ref(ReviewList),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const query = request.query;
      return kyc.reviewQueue({
        ...(query.limit ? { limit: query.limit } : {}),
        ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
        ...(query.organization_id ? { organizationId: query.organization_id } : {}),
      });
    },
  );

  // A decision's route options; its body schema (if any) types the handler that reads it.
  const decision = {
    preHandler: requireReviewer,
    schema: {
      ...schemaBase,
      params: Type.Object({ id: Type.String() }),
      response: { 200: ReviewItem, ...errorResponses(400, 401, 404, 409) },
    },
  };
  const decisionWith = <Body extends TSchema>(body: Body) => ({
    ...decision,
    schema: { ...decision.schema, body },
  });
  const ReasonBody = Type.Object({ reason: Reason }, { additionalProperties: false });
  const decide = (request: FastifyRequest, id: string, decided: ReviewDecision) =>
    kyc.applyReview(id, decided, reviewer(request));

  app.post('/operator/kyc/reviews/:id/approve', decision, async (request) =>
    decide(request, request.params.id, { outcome: 'approved' }),
  );
  app.post('/operator/kyc/reviews/:id/reject', decisionWith(ReasonBody), async (request) =>
    decide(request, request.params.id, { outcome: 'rejected', reason: request.body.reason }),
  );
  app.post(
    '/operator/kyc/reviews/:id/request_information',
    decisionWith(
      Type.Object(
        {
          fields: Type.Array(LiteralUnion(INFORMATION_FIELDS), { minItems: 1 }),
          reason: Reason,
        },
        { additionalProperties: false },
      ),
    ),
    async (request) =>
      decide(request, request.params.id, {
        outcome: 'needs_information',
        fields: request.body.fields,
        reason: request.body.reason,
      }),
  );
  app.post('/operator/kyc/reviews/:id/request_documents', decisionWith(ReasonBody), async (request) =>
    decide(request, request.params.id, { outcome: 'needs_documents', reason: request.body.reason }),
  );
}
