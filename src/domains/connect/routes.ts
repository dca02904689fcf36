import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../core/errors.ts';
import { Refusal, refusalStatuses } from '../../core/refusal.ts';
import { documented, errorResponses, Nullable, type RoutesApp, withExample } from '../../core/schemas.ts';
import { isDatabaseUnavailable } from '../../db/availability.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import type { ConnectRefusalCode } from './index.ts';
import type { ConnectService } from './service.ts';
import { maskDestination, StartThrottled } from './throttle.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<ConnectRefusalCode>({
  invalid_request: 400,
  invalid_phone: 400,
  invalid_connect_attempt: 400,
  invalid_code: 401,
  invalid_refresh_token: 401,
  connection_not_found: 404,
  // 429 with Retry-After, the common answer (core/refusal.ts).
  rate_limited: 429,
  auth_provider_error: 502,
});

/** Bodies name only the spec's fields: an unknown one is `400 invalid_request` naming it. */
const strict = { additionalProperties: false } as const;
const ConnectAttempt = Type.Object(
  {
    object: Type.Literal('connect_attempt'),
    id: Type.String({ description: 'Pass back as `connect_id` at verify.' }),
    channel: Type.Enum(['email', 'phone']),
    expires_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'ConnectAttempt', description: 'A one-time code sent to a user, waiting to be verified.' },
);

const ConnectionUser = Type.Object({
  id: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
});

const Connection = Type.Object(
  {
    object: Type.Literal('connection'),
    access_token: Type.String(),
    refresh_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    user: Type.Optional(ConnectionUser),
  },
  { $id: 'Connection', description: "A user's connection to the calling client, with its tokens." },
);

const Consent = Type.Object(
  {
    object: Type.Literal('consent'),
    id: Type.String(),
    user_id: Type.String(),
    terms_version: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Consent', description: "The user's recorded consent (one per user)." },
);

const connectionExample = (user: boolean) => ({
  object: 'connection' as const,
  access_token: 'cat_Qm8vR2kX7nB4wL9tY3sJ6hF1gD5cZ0aE',
  refresh_token: 'crt_Hn3wT8qL5vB2mK7xR9sY4jF6gD1cZ0aP',
  token_type: 'Bearer' as const,
  expires_in: 3600,
  ...(user ? { user: { id: 'usr_7hGt3KqW9mNx2VbR', email: 'ada@example.com', phone: null } } : {}),
});

/**
 * Spec §7 (Connect): a failure below the API (the database, its driver) is `503 auth_unavailable`,
 * "retry shortly", never a bare 500. Errors the service means (ApiError, Refusal) pass through unchanged. A
 * database that cannot be reached is the process's state, logged once per change by the error
 * handler; anything else is logged here with its stack.
 */
function unavailableOnFailure<Request extends FastifyRequest, Reply, R>(
  step: (request: Request, reply: Reply) => Promise<R>,
): (request: Request, reply: Reply) => Promise<R> {
  return async (request, reply) => {
    try {
      return await step(request, reply);
    } catch (error) {
      if (error instanceof ApiError || error instanceof Refusal) throw error;
      if (!isDatabaseUnavailable(error)) request.log.error({ err: error }, 'connect unavailable');
      throw new ApiError(
        503,
        'auth_unavailable',
        'Authentication is temporarily unavailable; retry shortly.',
        {
          headers: { 'retry-after': '1' },
          cause: error,
        },
      );
    }
  };
}

export async function connectRoutes(
  app: RoutesApp,
  { auth, connect }: { auth: AuthService; connect: ConnectService },
): Promise<void> {
  for (const schema of [ConnectAttempt, Connection, Consent]) app.addSchema(schema);
  // onRequest: the token is checked before the body is even parsed.
  const common = { onRequest: platformGuard(auth) };
  const tags = ['Connect'];
  const security = [{ platformToken: [] }];
  const errorDescriptions = {
    400: 'Invalid request (`invalid_request`, `invalid_phone`), an attempt that cannot be verified (`invalid_connect_attempt`), or a connection token where a platform token belongs (`client_credentials_required`).',
    401: 'No valid platform token (`unauthorized`), a wrong or expired code (`invalid_code`), or an unusable refresh token (`invalid_refresh_token`).',
    404: 'No connection between the user and the calling client (`connection_not_found`).',
    502: 'The code could not be sent (`auth_provider_error`); the attempt cannot be verified, start again.',
  };
  const errors = errorResponses(400, 401, 403, 404, 502, 503, errorDescriptions);
  const startErrors = errorResponses(400, 401, 403, 404, 429, 502, 503, {
    ...errorDescriptions,
    429: 'Too many codes for this destination or client (`rate_limited`); retry after `Retry-After`.',
  });

  app.post(
    '/api/v2/connect/start',
    {
      ...common,
      schema: {
        operationId: 'createConnectAttempt',
        summary: 'Send a one-time code to a user by email or phone',
        tags,
        security,
        body: withExample(
          Type.Object(
            {
              email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
              phone: Type.Optional(Type.String({ description: 'E.164, e.g. +14155550123', maxLength: 32 })),
              external_user_id: Type.Optional(Type.String({ maxLength: 255 })),
            },
            strict,
          ),
          { email: 'ada@example.com', external_user_id: 'user-42' },
        ),
        response: {
          201: documented(ConnectAttempt, 'The code was sent; verify it with this attempt.', {
            object: 'connect_attempt',
            id: 'ca_4rTy8UiO2pLk6JhG',
            channel: 'email',
            expires_at: '2026-01-15T10:10:00.000Z',
          }),
          ...startErrors,
        },
      },
    },
    unavailableOnFailure(async (request, reply) => {
      const body = request.body;
      try {
        const attempt = await connect.start(request.principal!, body);
        reply.code(201);
        return attempt;
      } catch (error) {
        if (error instanceof StartThrottled) {
          request.log.warn(
            {
              rate_limit: `connect_start:${error.rule}`,
              client_id: request.principal!.clientId,
              destination: maskDestination({
                email: body.email?.trim().toLowerCase() ?? null,
                phone: body.phone?.trim() ?? null,
              }),
              retry_after: error.retryAfterSeconds,
            },
            'rate limited: connect start',
          );
        }
        throw error;
      }
    }),
  );

  app.post(
    '/api/v2/connect/verify',
    {
      ...common,
      schema: {
        operationId: 'verifyConnectAttempt',
        summary: 'Verify the code; connects the user and returns their connection tokens',
        tags,
        security,
        body: withExample(
          Type.Object(
            {
              connect_id: Type.String({ minLength: 1 }),
              code: Type.String({ minLength: 1, maxLength: 12 }),
            },
            strict,
          ),
          { connect_id: 'ca_4rTy8UiO2pLk6JhG', code: '111111' },
        ),
        response: {
          200: documented(
            Connection,
            'The user is connected; their connection tokens.',
            connectionExample(true),
          ),
          ...errors,
        },
      },
    },
    unavailableOnFailure(async (request) => connect.verify(request.principal!, request.body)),
  );

  app.post(
    '/api/v2/connect/consent',
    {
      ...common,
      schema: {
        operationId: 'recordConsent',
        summary: "Record the user's consent (idempotent per user)",
        tags,
        security,
        body: withExample(
          Type.Object(
            {
              user_id: Type.String({ minLength: 1 }),
              terms_version: Type.Optional(Type.String({ maxLength: 64 })),
            },
            strict,
          ),
          { user_id: 'usr_7hGt3KqW9mNx2VbR', terms_version: '2026-01' },
        ),
        response: {
          201: documented(Consent, 'The consent as recorded (a repeat keeps its id and date).', {
            object: 'consent',
            id: 'cns_2wEr5TyU8iOp3AsD',
            user_id: 'usr_7hGt3KqW9mNx2VbR',
            terms_version: '2026-01',
            created_at: '2026-01-15T10:02:00.000Z',
          }),
          ...errors,
        },
      },
    },
    unavailableOnFailure(async (request, reply) => {
      reply.code(201);
      return connect.consent(request.principal!, request.body);
    }),
  );

  app.post(
    '/api/v2/connect/refresh',
    {
      ...common,
      schema: {
        operationId: 'refreshConnection',
        summary: 'Rotate a connection refresh token',
        tags,
        security,
        body: withExample(Type.Object({ refresh_token: Type.String({ minLength: 1 }) }, strict), {
          refresh_token: 'crt_Hn3wT8qL5vB2mK7xR9sY4jF6gD1cZ0aP',
        }),
        response: {
          200: documented(
            Connection,
            'New tokens; the refresh token sent stops working.',
            connectionExample(false),
          ),
          ...errors,
        },
      },
    },
    unavailableOnFailure(async (request) => connect.refresh(request.principal!, request.body)),
  );
}
