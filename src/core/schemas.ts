import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

/**
 * The Fastify instance a routes plugin receives, with the TypeBox type provider: each route's
 * schemas (body, querystring, params, response) type its handler's request and reply.
 */
export type RoutesApp = Parameters<FastifyPluginAsyncTypebox>[0];

/** A schema shared by name: registered once with `app.addSchema`, documented in `components.schemas`. */
export type SharedSchema = TSchema & { $id: string };

/** The v2 error body (spec §7), as documented in the OpenAPI output. */
export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable, machine-readable; listed at /docs/errors.' }),
      message: Type.String({ description: 'For developers; may change.' }),
      docs: Type.String({ description: 'Link to the code in the error catalogue.' }),
      field_errors: Type.Record(Type.String(), Type.String(), {
        description: 'Field → what is wrong with it; empty when no field is at fault.',
      }),
      warnings: Type.Array(Type.String()),
      missing_fields: Type.Optional(
        Type.Array(Type.String(), {
          description:
            'Only with `user_info_required` (wallet links): what must be recorded first, e.g. `consent`.',
        }),
      ),
    }),
  },
  { $id: 'ErrorBody', description: 'The body of every v2 error.' },
);

/** What each error status means on any route; a route may say more (see `errorResponses`). */
const ERROR_MEANINGS: Record<number, { description: string; code: string; message: string }> = {
  400: {
    description:
      'The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`).',
    code: 'invalid_request',
    message: 'Invalid email.',
  },
  401: {
    description: 'The bearer credential is missing, unknown, expired or revoked (`unauthorized`).',
    code: 'unauthorized',
    message: 'A valid platform access token is required.',
  },
  402: {
    description: 'The money is not there (`insufficient_funds`): fund the wallet and retry.',
    code: 'insufficient_funds',
    message: "The user's wallet does not cover this amount.",
  },
  403: {
    description: 'The organization is suspended (`access_denied`).',
    code: 'access_denied',
    message: 'The organization is suspended.',
  },
  404: {
    description: 'No such object for the calling organization and mode.',
    code: 'not_found',
    message: 'No such object.',
  },
  409: {
    description: 'The object is not in a state that takes this call; read it and follow its state.',
    code: 'invalid_kyc_state',
    message: 'The verification is not in a status that takes this call.',
  },
  413: {
    description: 'The body is larger than the limit (`payload_too_large`).',
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  415: {
    description: 'The body is not `application/json` (`unsupported_media_type`).',
    code: 'unsupported_media_type',
    message: 'Send the body as application/json.',
  },
  422: {
    description: 'The content could not be used (see `error.code`); the message says what to change.',
    code: 'document_unreadable',
    message: 'The photo could not be read; retake it in good light.',
  },
  429: {
    description: 'Too many requests (`rate_limited`); retry after `Retry-After` seconds.',
    code: 'rate_limited',
    message: 'Too many requests; retry later.',
  },
  502: {
    description: 'An outside provider failed; nothing was done, try again.',
    code: 'auth_provider_error',
    message: 'The code could not be sent; try again.',
  },
  503: {
    description: 'Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds.',
    code: 'auth_unavailable',
    message: 'Authentication is temporarily unavailable; retry shortly.',
  },
};

/** An example error body for a status: its typical code, unless the caller names one. */
export function errorExample(
  status: number,
  typical?: { code: string; message: string },
): Static<typeof ErrorBody> {
  const meaning = ERROR_MEANINGS[status];
  const code = typical?.code ?? meaning?.code ?? 'internal_error';
  return {
    error: {
      code,
      message: typical?.message ?? meaning?.message ?? 'Something went wrong on our side. Try again.',
      docs: `https://purser.example/docs/errors#${code}`,
      field_errors: code === 'invalid_request' ? { email: 'must be a valid email' } : {},
      warnings: [],
    },
  };
}

/** A documented error response: a reference to the shared error body, its meaning and an example. */
export function errorResponse(
  status: number,
  description?: string,
  typical?: { code: string; message: string },
): TUnsafe<Static<typeof ErrorBody>> {
  const meaning = ERROR_MEANINGS[status]?.description ?? 'An error.';
  return documented(ErrorBody, description ?? meaning, errorExample(status, typical));
}

/**
 * Error responses to list on a route's schema, by status; each refers to the shared error body.
 * A trailing object says what a status means on this route, where the general meaning is too vague.
 */
export function errorResponses(
  ...statuses: (number | Record<number, string>)[]
): Record<number, TUnsafe<Static<typeof ErrorBody>>> {
  const specific = Object.assign({}, ...statuses.filter((s) => typeof s === 'object')) as Record<
    number,
    string
  >;
  const numbers = statuses.filter((s): s is number => typeof s === 'number');
  return Object.fromEntries(numbers.map((status) => [status, errorResponse(status, specific[status])]));
}

/** A reference to a shared schema, typed as the schema itself. */
export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({ $ref: (schema as Partial<SharedSchema>).$id });
}

/**
 * A documented response: what it means and an example (typed as the schema). A shared schema is
 * referenced by `$ref`, typed as the schema itself; `description` and `examples` beside a `$ref` do
 * not change how the answer is serialized.
 */
export function documented<T extends TSchema>(
  schema: T,
  description: string,
  example: Static<T>,
): TUnsafe<Static<T>> {
  const annotations = { description, examples: [example] };
  const id = (schema as Partial<SharedSchema>).$id;
  return Type.Unsafe<Static<T>>(id ? { $ref: id, ...annotations } : { ...schema, ...annotations });
}

/** A request schema with its example (typed as the schema), shown in the OpenAPI document. */
export function withExample<T extends TSchema>(schema: T, example: Static<T>): T {
  return { ...schema, examples: [example] };
}

/**
 * One of a list of strings, as TypeBox writes a union of literals (`anyOf` of `const`), typed as
 * the list's members (mapping the list loses them).
 */
export function LiteralUnion<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>(
    Type.Union(
      values.map((value) => Type.Literal(value)),
      options,
    ),
  );
}

/**
 * `T` or null, as `type: [T, "null"]`: fast-json-stringify serializes it directly, where an
 * `anyOf` would make it validate every value to pick a branch.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}
