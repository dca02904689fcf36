import { sql } from 'kysely';

/**
 * Keyset pagination, newest first: the rows strictly after `after` in (created_at, id) order. The
 * bound on `created_at` alone is what lets a listing index (`(…, created_at)`) be sought to the
 * cursor instead of walked from the newest row: on PostgreSQL a page 90 % deep in a card's 10,000
 * transactions read 9,101 rows to keep 10 without it, 11 with it (docs/benchmarks.md, bench/scale).
 * It is the same condition as `created_at < x or (created_at = x and id < y)`.
 */
export function olderThan(after: { created_at: number; id: string }) {
  return sql<boolean>`(created_at <= ${after.created_at} and (created_at < ${after.created_at} or id < ${after.id}))`;
}
