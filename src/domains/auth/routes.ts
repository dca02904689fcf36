import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../core/errors.ts';
import type { RateLimiter, RateLimitRule } from '../../core/rate-limit.ts';
import { type RefusalAnswer, refusalStatuses } from '../../core/refusal.ts';
import { documented, errorResponses, type RoutesApp, withExample } from '../../core/schemas.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import { platformGuard } from './guard.ts';
import type { AuthRefusalCode } from './index.ts';
import { type AuthService, oauthError } from './service.ts';

/**
 * `invalid_client` (RFC 6749 §5.2): 401, and after HTTP Basic the matching challenge. The user-facing
 * token endpoints (oauth) answer it the same way, with this same answer.
 */
export const INVALID_CLIENT_ANSWER: RefusalAnswer = {
  status: 401,
  headers: ({ extra }): Record<string, string> =>
    extra.via_basic === true ? { 'www-authenticate': 'Basic realm="purser"' } : {},
};

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<AuthRefusalCode>({
  invalid_request: 400,
  unsupported_grant_type: 400,
  unauthorized_client: 400,
  invalid_client: INVALID_CLIENT_ANSWER,
  access_denied: 403,
});

/** What the token endpoints use: the service, and the token endpoint's own rate limit. */
export interface AuthRoutesOptions {
  auth: AuthService;
  tokenLimiter: RateLimiter;
  /** The limiter's rule, as the OpenAPI document states it. */
  tokenLimit: RateLimitRule;
}

const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    scope: Type.Literal('api'),
  },
  { $id: 'TokenResponse', description: 'A platform access token (RFC 6749 §5.1).' },
);

export const OAuthErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.String() },
  { $id: 'OAuthErrorBody', description: 'The error body of the token endpoint (RFC 6749 §5.2).' },
);

const oauthErrorResponse = (description: string, error: string, error_description: string) =>
  documented(OAuthErrorBody, description, { error, error_description });

const TokenRequest = Type.Object({
  grant_type: Type.String({ description: 'Only `client_credentials`.' }),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
});

export const Introspection = Type.Object(
  {
    object: Type.Literal('api_v2'),
    organization_id: Type.String(),
    test_mode: Type.Boolean(),
    mode: Type.Enum(['sandbox', 'production'], { deprecated: true }),
  },
  { $id: 'Introspection', description: 'Who the calling platform token acts for.' },
);

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
export function basicCredentials(request: FastifyRequest): { clientId: string; clientSecret: string } | null {
  const header = request.headers.authorization;
  if (!header || !/^Basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw oauthError.invalidClient(true);
  const formDecode = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      throw oauthError.invalidClient(true);
    }
  };
  return {
    clientId: formDecode(decoded.slice(0, colon)),
    clientSecret: formDecode(decoded.slice(colon + 1)),
  };
}

function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  // RFC 6749 §3.1: parameters must not be included more than once.
  if (Array.isArray(value)) throw oauthError.invalidRequest(`${name} is sent more than once.`);
  return typeof value === 'string' ? value : undefined;
}

export async function authRoutes(
  app: RoutesApp,
  { auth, tokenLimiter, tokenLimit }: AuthRoutesOptions,
): Promise<void> {
  for (const schema of [TokenResponse, OAuthErrorBody, Introspection]) app.addSchema(schema);
  // RFC 6749 §4.4.2: the token request is form-encoded. Only this plugin's routes parse forms.
  acceptFormBodies(app);

  app.post(
    '/api/v2/oauth/token',
    {
      config: { errorFormat: 'oauth' },
      schema: {
        operationId: 'createPlatformToken',
        // Public: the client authenticates in the body or with HTTP Basic (RFC 6749 §2.3.1).
        security: [],
        summary: 'Mint a platform access token (client-credentials grant)',
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        tags: ['Authentication'],
        description:
          'Form-encoded (JSON also accepted). Credentials in the body or as HTTP Basic. ' +
          `Rate limited to ${tokenLimit.max} requests in any ${tokenLimit.windowSeconds} seconds per client IP (sliding window).`,
        // Documented only: the handler validates by hand so that every failure is an OAuth error body.
        body: withExample(TokenRequest, {
          grant_type: 'client_credentials',
          client_id: 'cli_3kTg7xQm2vN8pR4w',
          client_secret: 'cs_test_9fJ2kL7qW4xZ8mN3bV6cT1yH5gD0sA2e',
        }),
        response: {
          200: documented(TokenResponse, 'The token; send it as `Authorization: Bearer …`.', {
            access_token: 'pat_Xy7kQ2mN9vB4wL6tR8sJ3hF5gD1cZ0aE',
            token_type: 'Bearer',
            expires_in: 3600,
            scope: 'api',
          }),
          400: oauthErrorResponse(
            'The request is malformed (`invalid_request`), the grant is not `client_credentials` ' +
              '(`unsupported_grant_type`), or the client is public (`unauthorized_client`).',
            'unsupported_grant_type',
            'Only the client_credentials grant is supported.',
          ),
          401: oauthErrorResponse(
            'Unknown or revoked client, or a wrong or missing secret (`invalid_client`).',
            'invalid_client',
            'Client authentication failed.',
          ),
          403: oauthErrorResponse(
            'The organization is suspended (`access_denied`).',
            'access_denied',
            'The organization is suspended.',
          ),
          429: oauthErrorResponse(
            'Too many token requests from this IP (`rate_limited`); retry after `Retry-After` seconds.',
            'rate_limited',
            'Too many token requests; retry later.',
          ),
        },
      },
      attachValidation: true,
      onRequest: async (request) => {
        const decision = await tokenLimiter.hit(request.ip);
        if (!decision.allowed) {
          request.log.warn(
            { rate_limit: 'token', ip: request.ip, retry_after: decision.retryAfterSeconds },
            'rate limited: token endpoint',
          );
          throw new ApiError(429, 'rate_limited', 'Too many token requests; retry later.', {
            headers: { 'retry-after': String(decision.retryAfterSeconds) },
          });
        }
      },
    },
    async (request, reply) => {
      // Validation is only attached (attachValidation), so the body is whatever was sent.
      const body: unknown = request.body;
      if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
        throw oauthError.invalidRequest('The body must be form-encoded parameters.');
      }
      const basic = basicCredentials(request);
      const bodyClientId = field(body, 'client_id');
      // RFC 6749 §2.3: a client must not use more than one authentication method per request.
      if (
        basic &&
        (field(body, 'client_secret') !== undefined || (bodyClientId && bodyClientId !== basic.clientId))
      ) {
        throw oauthError.invalidRequest(
          'Send the client credentials either as HTTP Basic or in the body, not both.',
        );
      }
      const token = await auth.clientCredentialsGrant({
        grantType: field(body, 'grant_type'),
        clientId: basic?.clientId ?? bodyClientId,
        clientSecret: basic?.clientSecret ?? field(body, 'client_secret'),
        viaBasic: basic !== null,
      });
      // RFC 6749 §5.1: token responses must not be cached.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return token;
    },
  );

  app.get(
    '/api/v2',
    {
      onRequest: platformGuard(auth),
      schema: {
        operationId: 'introspectCredential',
        summary: 'Introspect the calling credential',
        tags: ['Authentication'],
        security: [{ platformToken: [] }],
        response: {
          200: documented(Introspection, 'The organization and mode the token acts for.', {
            object: 'api_v2',
            organization_id: 'org_5bHn2QwE8rT4yU7i',
            test_mode: true,
            mode: 'sandbox',
          }),
          ...errorResponses(401, 403, 503),
        },
      },
    },
    async (request) => {
      const principal = request.principal!;
      return {
        object: 'api_v2' as const,
        organization_id: principal.organizationId,
        test_mode: !principal.livemode,
        mode: principal.livemode ? ('production' as const) : ('sandbox' as const),
      };
    },
  );
}
