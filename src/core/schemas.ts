import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';

/** The v2 error body (spec §7), as documented in the OpenAPI output. */
export const ErrorBody = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    docs: Type.String(),
    field_errors: Type.Record(Type.String(), Type.String()),
    warnings: Type.Array(Type.String()),
  }),
});

/** Error responses to list on a route's schema, by status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}

/**
 * `T` or null, as `type: [T, "null"]`: fast-json-stringify serializes it directly, where an
 * `anyOf` would make it validate every value to pick a branch.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}
