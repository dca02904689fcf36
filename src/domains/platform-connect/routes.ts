import { Type } from 'typebox';
import { invalidRequest } from '../../core/errors.ts';
import { ListOf, PageQuery } from '../../core/pagination.ts';
import { refusalStatuses } from '../../core/refusal.ts';
import { documented, errorResponses, Nullable, type RoutesApp, withExample } from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import { returnUrlProblem } from '../orgs/index.ts';
import type { PlatformConnectRefusalCode } from './index.ts';
import type { PlatformConnectService } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<PlatformConnectRefusalCode>({
  not_found: 404,
  already_completed: 409,
});

const SessionObject = Type.Object(
  {
    object: Type.Literal('platform_connect_session'),
    id: Type.String(),
    url: Nullable(Type.String({ description: 'The hosted page, while the session is open; null after' })),
    status: Type.Union([Type.Literal('open'), Type.Literal('completed'), Type.Literal('expired')]),
    state: Nullable(Type.String({ description: 'The opaque value given at creation, echoed back' })),
    return_url: Type.String(),
    connected_organization_id: Nullable(Type.String({ description: 'Set on completion' })),
    livemode: Type.Boolean(),
    expires_at: Type.String(),
    completed_at: Nullable(Type.String()),
    created_at: Type.String(),
  },
  {
    $id: 'PlatformConnectSession',
    description: 'A hosted page where a company connects its organization to the platform.',
  },
);

const ConnectedOrganization = Type.Object(
  {
    object: Type.Literal('connected_organization'),
    id: Type.String({ description: 'The connected organization' }),
    name: Type.String(),
    session_id: Type.String({ description: 'The platform connect session that made the connection' }),
    livemode: Type.Boolean(),
    connected_at: Type.String(),
  },
  { $id: 'ConnectedOrganization' },
);
const ConnectedOrganizationList = ListOf(ConnectedOrganization, 'ConnectedOrganizationList');

const example = {
  object: 'platform_connect_session' as const,
  id: 'pcs_4Tq8NmK2pLr7SvWx',
  url: 'https://purser.example/platform-connect/pct_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g',
  status: 'open' as const,
  state: 'opaque-7',
  return_url: 'https://platform.example/connected',
  connected_organization_id: null,
  livemode: false,
  expires_at: '2026-11-23T11:00:00.000Z',
  completed_at: null,
  created_at: '2026-11-23T10:00:00.000Z',
};

/** Platform connect sessions and the organizations connected through them (platform token). */
export async function platformConnectRoutes(
  app: RoutesApp,
  { auth, platformConnect }: { auth: AuthService; platformConnect: PlatformConnectService },
): Promise<void> {
  for (const schema of [SessionObject, ConnectedOrganization, ConnectedOrganizationList])
    app.addSchema(schema);
  const common = { onRequest: platformGuard(auth) };
  const base = { tags: ['Platform connect'], security: [{ platformToken: [] }] };

  app.post(
    '/api/v2/platform_connect_sessions',
    {
      ...common,
      schema: {
        ...base,
        operationId: 'createPlatformConnectSession',
        summary: 'Open a hosted page where a company connects its organization',
        description:
          'A member of the company signs in on the page with a code sent to their email and connects an ' +
          'organization they own, or creates one. Then `platform_connect_session.completed` fires (it never ' +
          'carries credentials) and the page returns to `return_url` with `session_id` and `state` added. The ' +
          'link works one hour. Accepts `Idempotency-Key`. See docs/platform-connect.md.',
        body: withExample(
          Type.Object(
            {
              state: Type.Optional(Type.String({ maxLength: 1000 })),
              return_url: Type.String({ minLength: 1, maxLength: 2048 }),
            },
            { additionalProperties: false },
          ),
          { state: 'opaque-7', return_url: 'https://platform.example/connected' },
        ),
        response: {
          201: documented(SessionObject, 'The open session and its page.', example),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request, reply) => {
      const problem = returnUrlProblem(request.body.return_url);
      if (problem) throw invalidRequest(`return_url ${problem}.`, { return_url: problem });
      return reply.code(201).send(await platformConnect.create(request.principal!, request.body));
    },
  );

  app.get(
    '/api/v2/platform_connect_sessions/:id',
    {
      ...common,
      schema: {
        ...base,
        operationId: 'getPlatformConnectSession',
        summary: 'A platform connect session',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: {
          200: documented(SessionObject, 'The session.', example),
          ...errorResponses(401, 403, 404, 503),
        },
      },
    },
    async (request) => platformConnect.get(request.principal!, request.params.id),
  );

  app.get(
    '/api/v2/connected_organizations',
    {
      ...common,
      schema: {
        ...base,
        operationId: 'listConnectedOrganizations',
        summary: 'Organizations connected to the platform',
        description: 'Newest first. A connection is per mode: the token’s mode lists its own.',
        querystring: Type.Object(
          {
            ...PageQuery,
          },
          { additionalProperties: false },
        ),
        response: {
          200: documented(ConnectedOrganizationList, 'The connected organizations.', {
            object: 'list',
            data: [
              {
                object: 'connected_organization',
                id: 'org_9Xk2LmN4pQr6StUv',
                name: 'Corner Shop Ltd',
                session_id: 'pcs_4Tq8NmK2pLr7SvWx',
                livemode: false,
                connected_at: '2026-11-23T10:04:00.000Z',
              },
            ],
            has_more: false,
          }),
          ...errorResponses(400, 401, 403, 503),
        },
      },
    },
    async (request) => platformConnect.listConnected(request.principal!, request.query),
  );
}
