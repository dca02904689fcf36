import { sql } from 'kysely';
import type { Db } from './index.ts';

/**
 * Table statistics on a PostgreSQL server whose autovacuum is off (docs/operations.md "PostgreSQL
 * statistics"). The planner picks each list's index from them: a table never analyzed looks
 * empty to it, and a page of ten of 200,000 events was read by sorting them all (53 ms, against
 * 0.04 ms once analyzed; docs/benchmarks.md "Cost as the data grows"). With autovacuum on,
 * PostgreSQL's default, the server keeps them itself and this does nothing.
 *
 * A table of the current schema that autovacuum does not look after (the server's `autovacuum` off,
 * or the table's `autovacuum_enabled`) is analyzed by autovacuum's own rule at its default
 * settings: once more of its rows changed since its last analysis than 50 + 10 % of its rows.
 * Returns the tables analyzed.
 */
export async function analyzeStaleTables(db: Db): Promise<string[]> {
  const stale = await sql<{ table: string }>`
    select s.relname as "table"
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
      and (current_setting('autovacuum') = 'off'
        or exists (select from unnest(c.reloptions) o where lower(o) in ('autovacuum_enabled=false', 'autovacuum_enabled=off')))
      and s.n_mod_since_analyze > ${sql.lit(ANALYZE_THRESHOLD)} + ${sql.lit(ANALYZE_SCALE_FACTOR)} * s.n_live_tup
    order by s.relname`.execute(db);
  const analyzed = stale.rows.map((row) => row.table);
  for (const table of analyzed) await sql`analyze ${sql.table(table)}`.execute(db);
  return analyzed;
}

/** PostgreSQL's defaults of `autovacuum_analyze_threshold` and `autovacuum_analyze_scale_factor`. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
