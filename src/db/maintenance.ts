import { type RawBuilder, sql } from 'kysely';
import type { Db } from './index.ts';

/**
 * What autovacuum does, on a PostgreSQL server where it is off (docs/operations.md "PostgreSQL
 * maintenance"). The planner picks each list's index from the tables' statistics: a table never
 * analyzed looks empty to it, and a page of ten of 200,000 events was read by sorting them all
 * (53 ms, against 0.04 ms once analyzed). And dead rows stay in the indexes until a vacuum: the
 * webhook claim's index of what is owed kept an entry for each of a million settled deliveries and
 * read 2,746 pages a claim (22 after `VACUUM`; docs/benchmarks.md "Cost as the data grows"). With
 * autovacuum on, PostgreSQL's default, the server does both itself and this does nothing.
 *
 * A table of the current schema that autovacuum does not look after (the server's `autovacuum` off,
 * or the table's `autovacuum_enabled`) is vacuumed and analyzed by autovacuum's own rules: vacuumed
 * once its dead rows pass `autovacuum_vacuum_threshold` + `autovacuum_vacuum_scale_factor` × its
 * rows, analyzed once the rows changed since its last analysis pass the analyze pair; each the
 * table's own setting where it has one (migration 0058), else the default.
 */
export async function maintainTables(db: Db): Promise<{ vacuumed: string[]; analyzed: string[] }> {
  const { rows } = await sql<{ table: string; vacuum: boolean; analyze: boolean }>`
    select s.relname as "table",
      s.n_dead_tup > ${setting('vacuum_threshold', 50)} + ${setting('vacuum_scale_factor', 0.2)} * s.n_live_tup
        as vacuum,
      s.n_mod_since_analyze > ${setting('analyze_threshold', 50)} + ${setting('analyze_scale_factor', 0.1)} * s.n_live_tup
        as analyze
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
      and (current_setting('autovacuum') = 'off'
        or exists (select from unnest(c.reloptions) o where lower(o) in ('autovacuum_enabled=false', 'autovacuum_enabled=off')))
    order by s.relname`.execute(db);
  const vacuumed = rows.filter((row) => row.vacuum).map((row) => row.table);
  const analyzed = rows.filter((row) => row.vacuum || row.analyze).map((row) => row.table);
  for (const { table, vacuum, analyze } of rows) {
    if (vacuum) await sql`vacuum (analyze) ${sql.table(table)}`.execute(db);
    else if (analyze) await sql`analyze ${sql.table(table)}`.execute(db);
  }
  return { vacuumed, analyzed };
}

/** The table's `autovacuum_<name>` storage parameter (in `c.reloptions`), else PostgreSQL's default. */
function setting(name: string, otherwise: number): RawBuilder<number> {
  const prefix = sql.lit(`autovacuum_${name}=%`);
  return sql<number>`coalesce((select split_part(o, '=', 2)::float8 from unnest(c.reloptions) o where o like ${prefix}), ${sql.lit(otherwise)})`;
}
