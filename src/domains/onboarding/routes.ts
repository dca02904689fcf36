import { Type } from 'typebox';
import { invalidRequest } from '../../core/errors.ts';
import { documented, errorResponses, Nullable, type RoutesApp, withExample } from '../../core/schemas.ts';
import { apiKeyGuard } from '../auth/index.ts';
import { type OrgService, returnUrlProblem } from '../orgs/index.ts';
import type { OnboardingService } from './service.ts';

const SessionObject = Type.Object(
  {
    object: Type.Literal('cardholder_onboarding_session'),
    id: Type.String(),
    url: Nullable(Type.String({ description: 'The hosted page, while the session is open; null after' })),
    status: Type.Union([Type.Literal('open'), Type.Literal('completed'), Type.Literal('expired')]),
    external_user_id: Type.String(),
    email: Nullable(Type.String()),
    state: Nullable(Type.String({ description: 'The opaque value given at creation, echoed back' })),
    return_url: Type.String(),
    cardholder_id: Nullable(Type.String({ description: 'Set on completion' })),
    claimed_existing_cardholder: Type.Boolean(),
    livemode: Type.Boolean(),
    expires_at: Type.String(),
    completed_at: Nullable(Type.String()),
    created_at: Type.String(),
  },
  {
    $id: 'CardholderOnboardingSession',
    description: 'A hosted page where a person becomes (or claims) a cardholder of the organization.',
  },
);

const example = {
  object: 'cardholder_onboarding_session' as const,
  id: 'cos_7Hk2LmN9pQr4StUv',
  url: 'https://purser.example/onboarding/onb_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g',
  status: 'open' as const,
  external_user_id: 'user-42',
  email: 'ada@example.com',
  state: 'opaque-42',
  return_url: 'https://platform.example/onboarding/done',
  cardholder_id: null,
  claimed_existing_cardholder: false,
  livemode: false,
  expires_at: '2026-11-24T10:00:00.000Z',
  completed_at: null,
  created_at: '2026-11-23T10:00:00.000Z',
};
const v1Errors = { 401: 'A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`).' };

/** `POST` and `GET /api/v1/cardholder_onboarding_sessions` (API key; docs/onboarding.md). */
export async function onboardingRoutes(
  app: RoutesApp,
  { orgs, onboarding }: { orgs: OrgService; onboarding: OnboardingService },
): Promise<void> {
  app.decorateRequest('apiKey', null);
  app.addSchema(SessionObject);
  const v1 = { onRequest: apiKeyGuard(orgs) };
  const schemaBase = { tags: ['Cardholders (v1)'], security: [{ apiKey: [] }] };
  const scope = (request: { apiKey: { organizationId: string; livemode: boolean } | null }) => ({
    organizationId: request.apiKey!.organizationId,
    livemode: request.apiKey!.livemode,
  });

  app.post(
    '/api/v1/cardholder_onboarding_sessions',
    {
      ...v1,
      schema: {
        ...schemaBase,
        operationId: 'createCardholderOnboardingSession',
        summary: 'Open a hosted cardholder onboarding page',
        description:
          'The person at `url` enters their details (a new cardholder, `cardholder.created`) or claims the ' +
          'cardholder this organization already has for their email by entering a code sent to it. On completion ' +
          '`cardholder_onboarding_session.completed` fires and the page redirects to `return_url` with `session_id` ' +
          'and `state` added to its query. The link works 24 hours. Accepts `Idempotency-Key`.',
        body: withExample(
          Type.Object(
            {
              external_user_id: Type.String({ minLength: 1, maxLength: 255 }),
              email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
              state: Type.Optional(Type.String({ maxLength: 1000 })),
              return_url: Type.String({ minLength: 1, maxLength: 2048 }),
            },
            { additionalProperties: false },
          ),
          {
            external_user_id: 'user-42',
            email: 'ada@example.com',
            state: 'opaque-42',
            return_url: 'https://platform.example/onboarding/done',
          },
        ),
        response: {
          201: documented(SessionObject, 'The open session and its page.', example),
          ...errorResponses(400, 401, 403, 503, v1Errors),
        },
      },
    },
    async (request, reply) => {
      const problem = returnUrlProblem(request.body.return_url);
      if (problem) throw invalidRequest(`return_url ${problem}.`, { return_url: problem });
      return reply.code(201).send(await onboarding.create(scope(request), request.body));
    },
  );

  app.get(
    '/api/v1/cardholder_onboarding_sessions/:id',
    {
      ...v1,
      schema: {
        ...schemaBase,
        operationId: 'getCardholderOnboardingSession',
        summary: 'A cardholder onboarding session',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: {
          200: documented(SessionObject, 'The session.', {
            ...example,
            url: null,
            status: 'completed',
            cardholder_id: 'ch_5Gh8JkL1mNp4QrSt',
            completed_at: '2026-11-23T10:04:00.000Z',
          }),
          ...errorResponses(401, 403, 404, 503, v1Errors),
        },
      },
    },
    async (request) => onboarding.get(scope(request), request.params.id),
  );
}
