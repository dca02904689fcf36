import { Type } from 'typebox';
import { refusalStatuses } from '../../core/refusal.ts';
import { documented, errorResponses, type RoutesApp, withExample } from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import { MAX_EMBED_ORIGINS } from './embed-origins.ts';
import type { OrgRefusalCode } from './index.ts';
import type { OrgService } from './service.ts';

// The HTTP status of each refusal of the domain: the one place it is decided (docs/architecture.md).
refusalStatuses<OrgRefusalCode>({
  invalid_request: 400,
  not_found: 404,
  invalid_origin: 400,
});

const EmbedOrigins = Type.Object(
  {
    object: Type.Literal('embed_origins'),
    origins: Type.Array(Type.String()),
  },
  { $id: 'EmbedOrigins', description: 'The origins allowed to frame hosted pages, for the calling mode.' },
);

const embedOriginsExample = {
  object: 'embed_origins' as const,
  origins: ['https://app.example.com', 'http://localhost:3000'],
};

/** Organization settings a platform manages with its platform token. */
export async function orgRoutes(
  app: RoutesApp,
  { auth, orgs }: { auth: AuthService; orgs: OrgService },
): Promise<void> {
  app.addSchema(EmbedOrigins);
  // onRequest: the token is checked before the body is even parsed.
  const common = { onRequest: platformGuard(auth) };
  const schemaBase = { tags: ['Embed origins'], security: [{ platformToken: [] }] };

  app.get(
    '/api/v2/embed_origins',
    {
      ...common,
      schema: {
        ...schemaBase,
        operationId: 'getEmbedOrigins',
        summary: 'The origins allowed to embed hosted pages',
        response: {
          200: documented(
            EmbedOrigins,
            'The list for the calling mode (empty until set).',
            embedOriginsExample,
          ),
          ...errorResponses(401, 403, 503),
        },
      },
    },
    async (request) => ({
      object: 'embed_origins' as const,
      origins: await orgs.embedOrigins(request.principal!),
    }),
  );

  app.put(
    '/api/v2/embed_origins',
    {
      ...common,
      schema: {
        ...schemaBase,
        operationId: 'replaceEmbedOrigins',
        summary: 'Replace the origins allowed to embed hosted pages',
        description:
          'Replaces the whole list for the calling mode. Each entry is an origin (`https://app.example.com`, ' +
          '`https` only except loopback hosts such as `http://localhost:3000`); they are stored canonical and ' +
          `without duplicates. At most ${MAX_EMBED_ORIGINS}. Hosted pages (the identity verification page) may ` +
          'be framed only by these origins (and, in test mode, by loopback origins).',
        body: withExample(
          Type.Object(
            {
              origins: Type.Array(Type.String({ maxLength: 2048 }), { maxItems: MAX_EMBED_ORIGINS }),
            },
            { additionalProperties: false },
          ),
          { origins: ['https://app.example.com', 'http://localhost:3000'] },
        ),
        response: {
          200: documented(
            EmbedOrigins,
            'The list as stored: canonical, without duplicates.',
            embedOriginsExample,
          ),
          ...errorResponses(400, 401, 403, 503, {
            400: 'An entry is not an origin allowed here (`invalid_origin`, named in `field_errors`), or the list is too long (`invalid_request`).',
          }),
        },
      },
    },
    async (request) => ({
      object: 'embed_origins' as const,
      origins: await orgs.setEmbedOrigins(request.principal!, request.body.origins),
    }),
  );
}
