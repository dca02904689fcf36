import { sql } from 'kysely';

/** Keyset pagination, newest first: the rows strictly after `after` in (created_at, id) order. */
export function olderThan(after: { created_at: number; id: string }) {
  return sql<boolean>`(created_at < ${after.created_at} or (created_at = ${after.created_at} and id < ${after.id}))`;
}
