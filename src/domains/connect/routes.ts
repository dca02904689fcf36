import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/errors.ts';
import { errorResponses, Nullable } from '../../core/schemas.ts';
import { platformGuard } from '../auth/guard.ts';
import { maskDestination, StartThrottled } from './throttle.ts';

const ConnectAttempt = Type.Object({
  object: Type.Literal('connect_attempt'),
  id: Type.String({ description: 'Pass back as `connect_id` at verify.' }),
  channel: Type.Enum(['email', 'phone']),
  expires_at: Type.String({ format: 'date-time' }),
});

const ConnectionUser = Type.Object({
  id: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
});

const Connection = Type.Object({
  object: Type.Literal('connection'),
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  user: Type.Optional(ConnectionUser),
});

const Consent = Type.Object({
  object: Type.Literal('consent'),
  id: Type.String(),
  user_id: Type.String(),
  terms_version: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
});

/**
 * Spec §7 (Connect): a failure below the API (the database, its driver) is `503 auth_unavailable`,
 * "retry shortly", never a bare 500. Errors the service means (ApiError) pass through unchanged.
 */
function unavailableOnFailure<R>(
  step: (request: FastifyRequest, reply: FastifyReply) => Promise<R>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<R> {
  return async (request, reply) => {
    try {
      return await step(request, reply);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      request.log.error({ err: error }, 'connect unavailable');
      throw new ApiError(
        503,
        'auth_unavailable',
        'Authentication is temporarily unavailable; retry shortly.',
        {
          headers: { 'retry-after': '1' },
        },
      );
    }
  };
}

export async function connectRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  // onRequest: the token is checked before the body is even parsed.
  const common = { onRequest: platformGuard(ctx.auth) };
  const tags = ['Connect'];
  const security = [{ platformToken: [] }];
  const errors = errorResponses(400, 401, 403, 404, 502, 503);
  const startErrors = errorResponses(400, 401, 403, 404, 429, 502, 503);

  app.post(
    '/api/v2/connect/start',
    {
      ...common,
      schema: {
        summary: 'Send a one-time code to a user by email or phone',
        tags,
        security,
        body: Type.Object({
          email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
          phone: Type.Optional(Type.String({ description: 'E.164, e.g. +14155550123', maxLength: 32 })),
          external_user_id: Type.Optional(Type.String({ maxLength: 255 })),
        }),
        response: { 201: ConnectAttempt, ...startErrors },
      },
    },
    unavailableOnFailure(async (request, reply) => {
      const body = request.body as { email?: string; phone?: string };
      try {
        const attempt = await ctx.connect.start(request.principal!, body);
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
        summary: 'Verify the code; connects the user and returns their connection tokens',
        tags,
        security,
        body: Type.Object({
          connect_id: Type.String({ minLength: 1 }),
          code: Type.String({ minLength: 1, maxLength: 12 }),
        }),
        response: { 200: Connection, ...errors },
      },
    },
    unavailableOnFailure(async (request) =>
      ctx.connect.verify(request.principal!, request.body as { connect_id: string; code: string }),
    ),
  );

  app.post(
    '/api/v2/connect/consent',
    {
      ...common,
      schema: {
        summary: "Record the user's consent (idempotent per user)",
        tags,
        security,
        body: Type.Object({
          user_id: Type.String({ minLength: 1 }),
          terms_version: Type.Optional(Type.String({ maxLength: 64 })),
        }),
        response: { 201: Consent, ...errors },
      },
    },
    unavailableOnFailure(async (request, reply) => {
      reply.code(201);
      return ctx.connect.consent(
        request.principal!,
        request.body as { user_id: string; terms_version?: string },
      );
    }),
  );

  app.post(
    '/api/v2/connect/refresh',
    {
      ...common,
      schema: {
        summary: 'Rotate a connection refresh token',
        tags,
        security,
        body: Type.Object({ refresh_token: Type.String({ minLength: 1 }) }),
        response: { 200: Connection, ...errors },
      },
    },
    unavailableOnFailure(async (request) =>
      ctx.connect.refresh(request.principal!, request.body as { refresh_token: string }),
    ),
  );
}
