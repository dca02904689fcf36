import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../core/errors.ts';
import { hostedPageHeaders } from '../../core/html.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import {
  documented,
  ErrorBody,
  errorExample,
  errorResponses,
  type RoutesApp,
  ref,
} from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import type { LinkDelivery } from '../notifications/index.ts';
import { callbackPage, page } from './callback-page.ts';
import type { MessagingRefusalCode } from './index.ts';
import { CALLBACK_PATH, type CallbackOutcome, type MessagingService } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<MessagingRefusalCode>({
  not_found: 404,
  // Not a 503: it is not temporary, and a client retrying on 5xx would retry forever.
  messaging_not_configured: 404,
  messaging_provider_error: 502,
});

const MessagingOAuth = Type.Object(
  {
    object: Type.Literal('messaging_oauth'),
    url: Type.String({ description: "The provider's consent page: open it in the operator's browser." }),
    state: Type.String({ description: 'Single-use; binds the callback to this organization and mode.' }),
    expires_at: Type.String({ description: 'ISO 8601: the consent must be given before this.' }),
  },
  {
    $id: 'MessagingOAuth',
    description: 'An authorization request at the messaging provider (OAuth 2.0 + PKCE).',
  },
);

const MessagingConnection = Type.Object(
  {
    object: Type.Literal('messaging_connection'),
    connected: Type.Literal(true, { description: 'Always true; a missing connection is 404.' }),
    provider_organization_ids: Type.Array(Type.String(), {
      description: 'Provider organizations covered by the install.',
    }),
    scopes: Type.Array(Type.String(), { description: 'Granted scopes; sending needs `messages:send`.' }),
    token_expires_at: Type.Union([Type.String(), Type.Null()], {
      description: 'ISO 8601; the service refreshes the token before then.',
    }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  {
    $id: 'MessagingConnection',
    description: "The organization's messaging-provider connection (spec §2 Messaging-provider connection).",
  },
);

const oauthExample = {
  object: 'messaging_oauth' as const,
  url: 'https://messaging.example/oauth/authorize?response_type=code&client_id=purser&redirect_uri=https%3A%2F%2Fpurser.example%2Fapi%2Fv2%2Fprovider%2Foauth%2Fcallback&scope=messages%3Asend&state=4kQ2mN8pR6sT0uV2wX4yZ6aB8cD0eF2gH4iJ6kL8mN0&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
  state: '4kQ2mN8pR6sT0uV2wX4yZ6aB8cD0eF2gH4iJ6kL8mN0',
  expires_at: '2026-11-23T10:10:00.000Z',
};
const connectionExample = {
  object: 'messaging_connection' as const,
  connected: true as const,
  provider_organization_ids: ['porg_8Hk2'],
  scopes: ['messages:send'],
  token_expires_at: '2026-11-23T11:00:00.000Z',
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
};

const tags = ['Messaging provider'];
const htmlPage = { schema: { type: 'string' }, example: '<!doctype html>…' };
/** A callback answer: the page a browser gets, or (asked for with `Accept: application/json`) JSON. */
const pageOrJson = (description: string, json: unknown, example: unknown) => ({
  description,
  content: { 'text/html': htmlPage, 'application/json': { schema: json, example } },
});

/** Browsers ask for HTML; a client asking only for JSON gets the outcome as JSON. */
const wantsJson = (request: FastifyRequest) => {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
};

const CALLBACK_ERRORS: Record<
  Exclude<CallbackOutcome['outcome'], 'connected'>,
  (o: CallbackOutcome) => ApiError
> = {
  denied: () =>
    new ApiError(
      403,
      'messaging_access_denied',
      'Access was declined at the messaging provider; nothing was connected.',
    ),
  invalid_state: () =>
    new ApiError(
      400,
      'invalid_state',
      'The state is unknown, already used or expired; nothing was connected.',
    ),
  provider_error: (o) =>
    new ApiError(
      502,
      'messaging_provider_error',
      `The messaging provider did not complete the connection (${'error' in o ? o.error : 'error'}); nothing was connected.`,
    ),
};

/**
 * The messaging-provider connection (spec §4 "Messaging-provider connection"; docs/messaging.md):
 * start the OAuth flow, its callback, read and delete the connection.
 */
export async function messagingRoutes(
  app: RoutesApp,
  {
    auth,
    messaging,
    linkDelivery,
  }: { auth: AuthService; messaging: MessagingService; linkDelivery: LinkDelivery },
): Promise<void> {
  app.addSchema(MessagingOAuth);
  app.addSchema(MessagingConnection);
  messaging.useLog(app.log);
  linkDelivery.useLog(app.log);
  const guard = platformGuard(auth);
  const owner = (request: FastifyRequest) => ({
    organizationId: request.principal!.organizationId,
    livemode: request.principal!.livemode,
  });
  const notConfigured = 'No messaging provider is configured on this server (`messaging_not_configured`).';

  app.post(
    '/api/v2/provider/oauth/start',
    {
      onRequest: guard,
      schema: {
        tags,
        security: [{ platformToken: [] }],
        operationId: 'startMessagingOAuth',
        summary: "Start connecting the organization's messaging provider: a consent URL for the operator",
        description:
          'OAuth 2.0 authorization code with PKCE (S256). Open `url` in a browser; after consent the provider ' +
          'redirects to the callback, which stores the connection for the calling organization and mode. `state` is ' +
          'single-use and expires at `expires_at`. Takes no body. Accepts `Idempotency-Key`.',
        response: {
          201: documented(MessagingOAuth, 'The authorization request was created.', oauthExample),
          ...errorResponses(401, 403, 404, { 404: notConfigured }),
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return messaging.start(owner(request));
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      schema: {
        tags,
        operationId: 'messagingOAuthCallback',
        security: [],
        summary: 'The redirect target of the provider (browser); authenticated by `state`',
        description:
          'Consumes `state` (single-use, bound to the organization and mode that started), exchanges `code` at ' +
          "the provider's token endpoint with the PKCE verifier, and stores the tokens sealed. Answers a page; a " +
          'client sending `Accept: application/json` only gets JSON instead (the connection, or the error body).',
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 2048 })),
          state: Type.Optional(Type.String({ maxLength: 512 })),
          error: Type.Optional(Type.String({ maxLength: 256 })),
          error_description: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
        response: {
          200: pageOrJson(
            'Connected (or, as a page only, declined at the provider).',
            ref(MessagingConnection),
            connectionExample,
          ),
          400: pageOrJson(
            'The state is unknown, used or expired (`invalid_state`), or the query is malformed (`invalid_request`).',
            ref(ErrorBody),
            errorExample(400, {
              code: 'invalid_state',
              message: 'The state is unknown, already used or expired.',
            }),
          ),
          ...errorResponses(403, 404, {
            403: 'JSON only: access was declined at the provider (`messaging_access_denied`).',
            404: notConfigured,
          }),
          502: pageOrJson(
            'The provider failed the code exchange (`messaging_provider_error`); nothing was stored.',
            ref(ErrorBody),
            errorExample(502, {
              code: 'messaging_provider_error',
              message: 'The provider did not complete it.',
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const outcome = await messaging.callback(request.query);
      if (wantsJson(request)) {
        if (outcome.outcome !== 'connected') throw CALLBACK_ERRORS[outcome.outcome](outcome);
        return messaging.connection(outcome.owner);
      }
      const nonce = randomBytes(16).toString('base64');
      hostedPageHeaders(reply, {
        directives: [`style-src 'nonce-${nonce}'`],
        // The operator's own page: nobody frames it.
        frameAncestors: "frame-ancestors 'none'",
        permissions: 'camera=(), microphone=(), geolocation=(), payment=()',
      });
      const shown = callbackPage(outcome);
      reply.code(shown.status);
      return page(nonce, shown.title, shown.body);
    },
  );

  app.get(
    '/api/v2/provider/connection',
    {
      onRequest: guard,
      schema: {
        tags,
        security: [{ platformToken: [] }],
        operationId: 'getMessagingConnection',
        summary: "The organization's messaging-provider connection",
        response: {
          200: documented(MessagingConnection, 'The connection.', connectionExample),
          ...errorResponses(401, 403, 404, {
            404: 'No connection for this organization and mode, or the provider refused its refresh (`not_found`).',
          }),
        },
      },
    },
    async (request) => messaging.connection(owner(request)),
  );

  app.delete(
    '/api/v2/provider/connection',
    {
      onRequest: guard,
      schema: {
        tags,
        security: [{ platformToken: [] }],
        operationId: 'deleteMessagingConnection',
        summary: 'Disconnect: revoke the grant at the provider and forget the tokens',
        description:
          'RFC 7009 revocation of the refresh and access tokens, then the connection is deleted. If the provider ' +
          'cannot be reached, nothing changes (`502 messaging_provider_error`): retry. Accepts `Idempotency-Key`.',
        response: {
          200: documented(
            Type.Object({ object: Type.Literal('messaging_connection'), deleted: Type.Literal(true) }),
            'The connection is gone; links go through the default channel again.',
            { object: 'messaging_connection', deleted: true },
          ),
          ...errorResponses(401, 403, 404, 502, {
            404: 'No connection for this organization and mode (`not_found`), or no provider is configured on this server (`messaging_not_configured`).',
            502: 'The provider could not be reached to revoke; nothing changed (`messaging_provider_error`).',
          }),
        },
      },
    },
    async (request) => messaging.disconnect(owner(request)),
  );
}
