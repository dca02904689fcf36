import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import type { Config } from '../config.ts';
import { ErrorBody, errorExample, errorResponse } from '../core/schemas.ts';

const JSON_MEDIA = 'application/json';

/** The methods that take `Idempotency-Key` when authenticated (src/core/idempotency.ts `UNSAFE_METHODS`). */
const IDEMPOTENT_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Any authenticated POST, PUT, PATCH or DELETE may carry `Idempotency-Key`; nothing else may. The MCP
 * tool server speaks JSON-RPC, whose retries are the protocol's own (its principal is not the one
 * src/core/idempotency.ts keys answers by).
 */
function acceptsIdempotencyKey(method: string, security: unknown): boolean {
  return (
    IDEMPOTENT_METHODS.has(method.toLowerCase()) &&
    Array.isArray(security) &&
    security.length > 0 &&
    !security.some((requirement) => 'mcpToken' in requirement)
  );
}

type ResponseSchema = { $ref?: string; description?: string; examples?: unknown[] };
type DocumentedSchema = FastifySchema & {
  hide?: boolean;
  security?: unknown[];
  response?: Record<string, unknown>;
};

/**
 * Documentation only (the route's own schema is untouched): a response that refers to a shared
 * schema keeps its example beside the reference, where swagger would drop it; and the errors every
 * route of its kind can answer are listed: 400 for a malformed body or key, 413 and 415 for a body,
 * 409 for an Idempotency-Key still in use.
 */
function documentRoute({
  schema: routeSchema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}) {
  const schema = routeSchema as DocumentedSchema;
  if (!schema || schema.hide) return { schema, url };
  const methods = [route.method].flat();
  const oauth = route.config?.errorFormat === 'oauth';
  const responses = { ...schema.response };
  const addError = (status: number) => {
    if (responses[status] !== undefined) return;
    const { description } = errorResponse(status) as ResponseSchema;
    const { code, message } = errorExample(status).error;
    // The token endpoint answers in the OAuth error body, which its 400 refers to.
    responses[status] = oauth
      ? {
          $ref: (responses[400] as ResponseSchema).$ref,
          description,
          examples: [{ error: code, error_description: message }],
        }
      : errorResponse(status);
  };
  // A request that can carry a body or an Idempotency-Key can carry a malformed one.
  if (methods.some((method) => IDEMPOTENT_METHODS.has(method.toLowerCase()))) addError(400);
  if (schema.body) {
    addError(413);
    addError(415);
  }
  if (methods.some((method) => acceptsIdempotencyKey(method, schema.security))) {
    const reused =
      'The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key.';
    const inUse =
      'A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`.';
    const unprocessable = responses[422] as ResponseSchema | undefined;
    responses[422] = unprocessable
      ? { ...unprocessable, description: `${unprocessable.description} Or: ${reused}` }
      : errorResponse(422, reused, {
          code: 'idempotency_key_reused',
          message: 'This Idempotency-Key was first used with another request; use a new key.',
        });
    const conflict = responses[409] as ResponseSchema | undefined;
    responses[409] = conflict
      ? { ...conflict, description: `${conflict.description} Or: ${inUse}` }
      : errorResponse(409, inUse, {
          code: 'idempotency_key_in_use',
          message: 'A request with this Idempotency-Key is still running; retry shortly.',
        });
  }
  for (const [status, response] of Object.entries(responses)) {
    const { $ref, description, examples } = response as ResponseSchema;
    if ($ref && examples?.length) {
      responses[status] = {
        description,
        content: { [JSON_MEDIA]: { schema: { $ref }, example: examples[0] } },
      };
    }
  }
  return { schema: { ...schema, response: responses }, url };
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas and served at /api/v2/openapi.json
 * (src/web/docs.ts). Shared schemas (`$id`, `app.addSchema`) become `components.schemas`, referenced
 * by name. Call it before registering the routes: every route refers to the shared error body.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Purser platform API',
        version: '2.0.0',
        description:
          'Connect users, verify identity, issue cards, buy for users, receive signed webhooks. Any ' +
          'authenticated POST, PUT, PATCH or DELETE may carry an `Idempotency-Key` header (1–255 printable ' +
          'ASCII characters): a retry by the same credential with the same key, method, path and body within ' +
          '24 hours gets the first answer again, marked `Idempotent-Replayed: true`, instead of acting twice.',
      },
      servers: [{ url: config.baseUrl }],
      components: {
        securitySchemes: {
          platformToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Platform token from POST /api/v2/oauth/token',
          },
          apiKey: { type: 'http', scheme: 'bearer', description: 'v1 API key (sk_test_… / sk_live_…)' },
          userToken: {
            type: 'http',
            scheme: 'bearer',
            description: "A user's connection access_token (connect verify, OAuth) or a cardholder buy_token",
          },
          mcpToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The MCP tool server: a connection access token (connect verify) or an OAuth access token ' +
              'issued by /token for the resource {mcp_url}/mcp (RFC 8707)',
          },
        },
        parameters: {
          IdempotencyKey: {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the ' +
              'credential that sent it (the client, or the API key), the method and the path, and replayed, with ' +
              '`Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another ' +
              'body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.',
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
            example: 'order-4711-attempt-1',
          },
        },
      },
    },
    // Shared schemas are named by their `$id` in components.schemas (not def-0, def-1, …).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: documentRoute,
    transformObject: (document) => {
      const openapiObject = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
      for (const operations of Object.values(openapiObject.paths ?? {})) {
        for (const [method, operation] of Object.entries(operations as Record<string, OpenApiOperation>)) {
          if (!acceptsIdempotencyKey(method, operation.security)) continue;
          operation.parameters = [
            ...(operation.parameters ?? []),
            { $ref: '#/components/parameters/IdempotencyKey' },
          ];
        }
      }
      return openapiObject;
    },
  });
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: unknown[];
}
