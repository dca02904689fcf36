import { type Static, type TSchema, Type } from 'typebox';
import { ApiError, invalidRequest } from './errors.ts';
import { Refusal } from './refusal.ts';
import type { SharedSchema } from './schemas.ts';

/**
 * Every list of the API answers one envelope, `{object: "list", data, has_more}`, newest first
 * (unless its route says otherwise), and pages by one rule: `limit` objects at most (default 10, at
 * most 100), the next page being the objects after the `starting_after` id, which is the last
 * object of the page before. An id that is not an object of the list (unknown, another
 * organization's or mode's, or, for a list under a parent, another parent's) is `400 invalid_request` on `starting_after`, on
 * every list (docs/decisions.md, "One list envelope").
 */
export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export const DEFAULT_PAGE_LIMIT = 10;

/** The query members of every paged list; spread them into the route's querystring object. */
export const PageQuery = {
  limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: DEFAULT_PAGE_LIMIT,
    description: 'How many objects at most (1 to 100, default 10).',
  }),
  starting_after: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'The id of the last object of the previous page: this page starts after it. An id that is not ' +
        'in this list is `400 invalid_request`.',
    }),
  ),
};

export type PageParams = { limit: number; starting_after?: string | undefined };

/** The list envelope of `item` (a shared schema, referenced), shared as `id`. */
export function ListOf<T extends TSchema>(item: T, id: string, description?: string) {
  const itemId = (item as Partial<SharedSchema>).$id;
  const data = itemId ? Type.Unsafe<Static<T>>({ $ref: itemId }) : item;
  return Type.Object(
    { object: Type.Literal('list'), data: Type.Array(data), has_more: Type.Boolean() },
    {
      $id: id,
      description:
        description ?? 'A page, newest first; pass the last id as `starting_after` for the next page.',
    },
  );
}

/** A whole list in the envelope: every object, `has_more` false (lists too short to page). */
export function listOf<T>(data: T[]): ListPage<T> {
  return { object: 'list', data, has_more: false };
}

/** The page of `rows` read with `limit + 1`: the extra row only says there is a next page. */
export function pageOf<T>(rows: T[], limit: number): ListPage<T> {
  return { object: 'list', data: rows.slice(0, limit), has_more: rows.length > limit };
}

/** The one answer to a `starting_after` that is not an object of the list. */
export function unknownCursor(what: string): ApiError {
  return invalidRequest(`starting_after is not ${what} of this list.`, {
    starting_after: `is not ${what} of this list`,
  });
}

/**
 * The row a `starting_after` names, found by `find` among the list's own objects (none: the first
 * page). `find` answers nothing, or throws a 404, for an id outside the list: either is
 * `unknownCursor(what)`.
 */
export async function cursorOf<R>(
  startingAfter: string | undefined,
  find: (id: string) => Promise<R | null | undefined>,
  what: string,
): Promise<R | undefined> {
  if (startingAfter === undefined || startingAfter === '') return undefined;
  let row: R | null | undefined;
  try {
    row = await find(startingAfter);
  } catch (error) {
    const missing =
      (error instanceof ApiError && error.status === 404) ||
      (error instanceof Refusal && error.code === 'not_found');
    if (missing) throw unknownCursor(what);
    throw error;
  }
  if (row === null || row === undefined) throw unknownCursor(what);
  return row;
}
