import type { Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';
import { unwrap } from './unwrap.ts';

/** What every list endpoint answers (docs/decisions.md, "One list envelope"): a page of objects, newest first. */
interface Page {
  data: { id: string }[];
  has_more: boolean;
}

type ListOperation = {
  parameters: { query?: { starting_after?: string } };
  responses: { 200: { content: { 'application/json': Page } } };
};

/** The GET paths that answer a page and take `starting_after`: events, cards, transactions, … */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: ListOperation } ? P : never;
}[keyof paths];

type Operation<P extends ListPath> = paths[P]['get'];
/** One object of a list endpoint's pages. */
export type ListItem<P extends ListPath> =
  Operation<P>['responses'][200]['content']['application/json']['data'][number];

/** The parameters of a list call, less the cursor, which the iterator moves. */
export interface ListParams<P extends ListPath> {
  query?: Partial<Omit<NonNullable<Operation<P>['parameters']['query']>, 'starting_after'>>;
  path?: Operation<P>['parameters'] extends { path: infer Path } ? Path : never;
}

/**
 * Every object of a list endpoint, page after page: `for await (const card of paginate(purser,
 * '/api/v2/cards'))`. Each page is fetched when the previous one is used up; `limit` sets the page
 * size. A failed page throws its error (`PurserError`), after the client's retries.
 */
export async function* paginate<P extends ListPath>(
  client: Client<paths>,
  path: P,
  params: ListParams<P> = {},
): AsyncGenerator<ListItem<P>, void, undefined> {
  // openapi-fetch types each call by its literal path; a path chosen by the caller is checked above.
  const get = client.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown>; path?: unknown } },
  ) => Promise<{ data?: Page; error?: unknown; response: Response }>;
  let cursor: string | undefined;
  for (;;) {
    const query = { ...params.query, ...(cursor === undefined ? {} : { starting_after: cursor }) };
    const page = await unwrap(get(path, { params: { query, path: params.path } }));
    yield* page.data as ListItem<P>[];
    const last = page.data.at(-1);
    if (!page.has_more || !last) return;
    cursor = last.id;
  }
}
