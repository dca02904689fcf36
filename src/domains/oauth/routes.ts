import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../core/errors.ts';
import type { RateLimiter } from '../../core/rate-limit.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import { documented, type RoutesApp, withExample } from '../../core/schemas.ts';
import { acceptFormBodies } from '../../core/text-guard.ts';
import { basicCredentials, INVALID_CLIENT_ANSWER, OAuthErrorBody } from '../auth/index.ts';
import { DOCUMENT_MAX_BYTES } from './client-documents.ts';
import { allowAnyOrigin, preflightRoute } from './cors.ts';
import type { OAuthRefusalCode } from './index.ts';
import { AuthorizationServerMetadata, metadataRoutes, ProtectedResourceMetadata } from './metadata-routes.ts';
import { OAUTH_SCOPES, type OAuthService, tokenError } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<OAuthRefusalCode>({
  invalid_request: 400,
  invalid_grant: 400,
  invalid_target: 400,
  invalid_scope: 400,
  unsupported_grant_type: 400,
  unauthorized_client: 400,
  // 401, with the Basic challenge after HTTP Basic: as the platform token endpoint answers it.
  invalid_client: INVALID_CLIENT_ANSWER,
  invalid_client_metadata: 400,
  invalid_redirect_uri: 400,
  access_denied: 403,
});

const OAuthTokenPair = Type.Object(
  {
    access_token: Type.String(),
    refresh_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    scope: Type.String(),
  },
  { $id: 'OAuthTokenPair', description: 'A user token pair for the tool server (RFC 6749 §5.1).' },
);

const ClientRegistration = Type.Object(
  {
    client_id: Type.String(),
    client_id_issued_at: Type.Integer(),
    client_name: Type.String(),
    redirect_uris: Type.Array(Type.String()),
    grant_types: Type.Array(Type.String()),
    response_types: Type.Array(Type.String()),
    token_endpoint_auth_method: Type.Literal('none'),
    scope: Type.String(),
  },
  { $id: 'ClientRegistration', description: 'A registered public client (RFC 7591 §3.2.1).' },
);

const EXAMPLE_BASE = 'https://purser.example';

const oauthErrorResponse = (description: string, error: string, error_description: string) =>
  documented(OAuthErrorBody, description, { error, error_description });

/** Form fields arrive as strings; anything else (a repeated field) is treated as absent. */
function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  // RFC 6749 §3.1: parameters must not be included more than once.
  if (Array.isArray(value)) throw tokenError.invalidRequest(`${name} is sent more than once.`);
  return typeof value === 'string' ? value : undefined;
}

/** RFC 6749 §2.3: one authentication method per request, Basic or body. */
function clientAuthentication(request: FastifyRequest) {
  const body: unknown = request.body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
    throw tokenError.invalidRequest('The body must be form-encoded parameters.');
  const basic = basicCredentials(request);
  const bodyClientId = field(body, 'client_id');
  if (
    basic &&
    (field(body, 'client_secret') !== undefined || (bodyClientId && bodyClientId !== basic.clientId))
  )
    throw tokenError.invalidRequest(
      'Send the client credentials either as HTTP Basic or in the body, not both.',
    );
  return {
    clientId: basic?.clientId ?? bodyClientId,
    clientSecret: basic?.clientSecret ?? field(body, 'client_secret'),
    viaBasic: basic !== null,
  };
}

export interface OAuthRoutesOptions {
  oauth: OAuthService;
  /** `/token`, `/register` and `/revoke`'s own budget, apart from the platform's. */
  limiter: RateLimiter;
  mcpUrl: string;
  baseUrl: string;
  /** The browser side, with the services it uses already in hand. */
  pages: (app: RoutesApp) => Promise<void>;
}

/**
 * The user-facing OAuth 2.1 authorization server at `{mcp_url}` (docs/oauth-mcp.md): metadata,
 * authorize with hosted sign-in and consent, token, registration, revocation, connected apps.
 * `pages` are its browser side (`/authorize`, consent, connected apps), built in web/ and handed in
 * by app.ts: registered in this plugin's scope, under its form parser and path prefix, without the
 * domain importing web/.
 */
export async function oauthRoutes(
  app: RoutesApp,
  { oauth, limiter, mcpUrl: mcpUrlSetting, baseUrl, pages }: OAuthRoutesOptions,
): Promise<void> {
  for (const schema of [
    OAuthErrorBody,
    OAuthTokenPair,
    AuthorizationServerMetadata,
    ProtectedResourceMetadata,
    ClientRegistration,
  ])
    app.addSchema(schema);
  // Form bodies with the edge's encoding rule (core/text-guard); only this plugin's routes parse forms.
  acceptFormBodies(app);

  const mcpUrl = new URL(mcpUrlSetting);
  /** MCP_URL's path: every route of the server is under it. */
  const prefix = mcpUrl.pathname.replace(/\/$/, '');
  const scopes = Object.keys(OAUTH_SCOPES);

  const preflight = (url: string, methods: string) => preflightRoute(app, url, methods);
  metadataRoutes(app, { oauth, mcpUrl: mcpUrlSetting, baseUrl, prefix, scopes });

  await app.register(pages);

  // --- Token, registration, revocation -----------------------------------------------------------

  const rateLimited = async (request: FastifyRequest) => {
    const decision = await limiter.hit(request.ip);
    if (!decision.allowed) {
      request.log.warn(
        { rate_limit: 'oauth', ip: request.ip, retry_after: decision.retryAfterSeconds },
        'rate limited: user-facing authorization server',
      );
      throw new ApiError(429, 'rate_limited', 'Too many requests; retry later.', {
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
      });
    }
  };

  app.post(
    `${prefix}/token`,
    {
      config: { errorFormat: 'oauth' },
      attachValidation: true,
      onRequest: [allowAnyOrigin, rateLimited],
      schema: {
        operationId: 'exchangeUserToken',
        // Public clients (PKCE) send no credential; confidential ones authenticate in the body.
        security: [],
        summary: 'Exchange an authorization code or a refresh token (user-facing OAuth)',
        description:
          'Form-encoded. `authorization_code` with `code`, `redirect_uri`, `code_verifier` and `resource`; ' +
          '`refresh_token` with `refresh_token` and `resource`. Confidential clients authenticate with ' +
          '`client_secret_post` or `client_secret_basic`; public clients send only `client_id`.',
        consumes: ['application/x-www-form-urlencoded'],
        tags: ['User-facing OAuth'],
        body: withExample(
          Type.Object({
            grant_type: Type.String({ description: '`authorization_code` or `refresh_token`.' }),
            code: Type.Optional(Type.String()),
            redirect_uri: Type.Optional(Type.String()),
            code_verifier: Type.Optional(Type.String()),
            refresh_token: Type.Optional(Type.String()),
            resource: Type.String({ description: 'The tool server, `{mcp_url}/mcp`.' }),
            client_id: Type.Optional(Type.String()),
            client_secret: Type.Optional(Type.String()),
          }),
          {
            grant_type: 'authorization_code',
            code: 'oac_4kQ9mZ2xV7bN3cT8wR5yH1jL6pD0sF2g',
            redirect_uri: 'https://app.example/callback',
            code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
            resource: `${EXAMPLE_BASE}/mcp`,
            client_id: 'cli_3kTg7xQm2vN8pR4w',
          },
        ),
        response: {
          200: documented(
            OAuthTokenPair,
            'The token pair; the access token is the bearer for the tool server.',
            {
              access_token: 'cat_Xy7kQ2mN9vB4wL6tR8sJ3hF5gD1cZ0aE',
              refresh_token: 'crt_Pq3wE8rT1yU6iO4pA9sD2fG7hJ5kL0zX',
              token_type: 'Bearer',
              expires_in: 3600,
              scope: 'purser:tools',
            },
          ),
          400: oauthErrorResponse(
            '`invalid_request`, `invalid_grant` (code or refresh token invalid, expired, used, or PKCE failed), ' +
              '`invalid_target` (resource is not the tool server), `unsupported_grant_type`, `unauthorized_client`.',
            'invalid_grant',
            'code_verifier does not match the code_challenge.',
          ),
          401: oauthErrorResponse(
            'Unknown client, bad credentials, or a production client without an active subscription (`invalid_client`).',
            'invalid_client',
            'Client authentication failed.',
          ),
          429: oauthErrorResponse(
            'Too many requests (`rate_limited`).',
            'rate_limited',
            'Too many requests; retry later.',
          ),
        },
      },
    },
    async (request, reply) => {
      const credentials = clientAuthentication(request);
      const grantType = field(request.body, 'grant_type');
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw grantType
          ? tokenError.unsupportedGrantType()
          : tokenError.invalidRequest('grant_type is required.');
      }
      const client = await oauth.authenticateClient(credentials);
      if (!client.grantTypes.includes(grantType))
        throw tokenError.unauthorizedClient(`This client may not use the ${grantType} grant.`);
      const body = request.body;
      const tokens =
        grantType === 'authorization_code'
          ? await oauth.exchangeCode(client, {
              code: field(body, 'code'),
              redirect_uri: field(body, 'redirect_uri'),
              code_verifier: field(body, 'code_verifier'),
              resource: field(body, 'resource'),
            })
          : await oauth.refresh(client, {
              refresh_token: field(body, 'refresh_token'),
              resource: field(body, 'resource'),
              scope: field(body, 'scope'),
            });
      // RFC 6749 §5.1: token responses must not be cached.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return tokens;
    },
  );
  preflight(`${prefix}/token`, 'POST');

  app.post(
    `${prefix}/register`,
    {
      config: { errorFormat: 'oauth' },
      attachValidation: true,
      onRequest: [allowAnyOrigin, rateLimited],
      schema: {
        operationId: 'registerClient',
        security: [],
        summary: 'Register a public client (RFC 7591 dynamic client registration)',
        description:
          'JSON. Registers a public client (`token_endpoint_auth_method` is always `none`: a requested ' +
          'secret-based method is replaced, RFC 7591 §3.2.1) in the organization and mode set by ' +
          '`OAUTH_REGISTRATION`. Clients may instead use an https Client ID Metadata Document as ' +
          `\`client_id\` (at most ${DOCUMENT_MAX_BYTES} bytes).`,
        tags: ['User-facing OAuth'],
        body: withExample(
          Type.Object(
            {
              redirect_uris: Type.Array(Type.String()),
              client_name: Type.Optional(Type.String()),
              grant_types: Type.Optional(Type.Array(Type.String())),
              response_types: Type.Optional(Type.Array(Type.String())),
              token_endpoint_auth_method: Type.Optional(Type.String()),
              scope: Type.Optional(Type.String()),
            },
            { additionalProperties: true },
          ),
          {
            redirect_uris: ['http://127.0.0.1/callback'],
            client_name: 'My assistant',
            token_endpoint_auth_method: 'none',
          },
        ),
        response: {
          201: documented(ClientRegistration, 'The registered client.', {
            client_id: 'cli_8hJ2kL5mN7pQ9rS1',
            client_id_issued_at: 1767225600,
            client_name: 'My assistant',
            redirect_uris: ['http://127.0.0.1/callback'],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
            scope: 'purser:tools',
          }),
          400: oauthErrorResponse(
            'Bad metadata (`invalid_client_metadata`) or redirect URIs (`invalid_redirect_uri`).',
            'invalid_redirect_uri',
            'ftp://x must be an https, loopback http or private-use scheme URI.',
          ),
          403: oauthErrorResponse(
            'Dynamic registration is not enabled (`access_denied`).',
            'access_denied',
            'Dynamic client registration is not enabled on this server.',
          ),
          429: oauthErrorResponse(
            'Too many requests (`rate_limited`).',
            'rate_limited',
            'Too many requests; retry later.',
          ),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw tokenError.invalidClientMetadata('The body must be a JSON object.');
      const registered = await oauth.register(body as Record<string, unknown>);
      reply.code(201).header('cache-control', 'no-store');
      return registered;
    },
  );
  preflight(`${prefix}/register`, 'POST');

  app.post(
    `${prefix}/revoke`,
    {
      config: { errorFormat: 'oauth' },
      attachValidation: true,
      onRequest: [allowAnyOrigin, rateLimited],
      schema: {
        operationId: 'revokeUserToken',
        security: [],
        summary: 'Revoke a user access or refresh token (RFC 7009)',
        description:
          'Form-encoded `token` (and optional `token_type_hint`), with the same client authentication as ' +
          'the token endpoint. Revokes the whole grant: both tokens. Unknown tokens also answer 200.',
        consumes: ['application/x-www-form-urlencoded'],
        tags: ['User-facing OAuth'],
        body: withExample(
          Type.Object({
            token: Type.String(),
            token_type_hint: Type.Optional(Type.String()),
            client_id: Type.Optional(Type.String()),
            client_secret: Type.Optional(Type.String()),
          }),
          {
            token: 'crt_Pq3wE8rT1yU6iO4pA9sD2fG7hJ5kL0zX',
            token_type_hint: 'refresh_token',
            client_id: 'cli_3kTg7xQm2vN8pR4w',
          },
        ),
        response: {
          200: documented(Type.Object({}), 'Revoked, or the token was unknown (RFC 7009 §2.2).', {}),
          400: oauthErrorResponse(
            '`token` is missing (`invalid_request`).',
            'invalid_request',
            'token is required.',
          ),
          401: oauthErrorResponse(
            'Client authentication failed (`invalid_client`).',
            'invalid_client',
            'Client authentication failed.',
          ),
          429: oauthErrorResponse(
            'Too many requests (`rate_limited`).',
            'rate_limited',
            'Too many requests; retry later.',
          ),
        },
      },
    },
    async (request, reply) => {
      const client = await oauth.authenticateClient(clientAuthentication(request));
      await oauth.revoke(client, field(request.body, 'token'));
      reply.header('cache-control', 'no-store');
      return {};
    },
  );
  preflight(`${prefix}/revoke`, 'POST');
}
