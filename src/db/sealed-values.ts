import { type RawBuilder, sql } from 'kysely';
import type { AesGcmSealer } from '../core/sealer.ts';
import type { Db, Dialect } from './index.ts';

/** How many sealed values one key holds in one column. */
export interface SealedCount {
  keyId: string;
  table: string;
  column: string;
  values: number;
}

/**
 * Every value sealed by core/sealer (`v1.<key id>.…`) in the database, counted by the key that
 * sealed it, table and column. It reads every text column of every table rather than a list of the
 * sealed ones, so a column added later is never missed: one scan of each, for an operator who wants
 * to know whether an old key still opens anything (docs/operations.md, Rotating keys).
 */
export async function countSealedValues(db: Db, dialect: Dialect): Promise<SealedCount[]> {
  // PostgreSQL lists the tables of every schema the role can use: only the service's own count.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
      : undefined;
  const counts: SealedCount[] = [];
  for (const table of await db.introspection.getTables()) {
    if (table.schema !== schema) continue;
    for (const column of table.columns) {
      if (!/text|char/i.test(column.dataType)) continue;
      const value = sql.ref(column.name);
      // 'v1.' then the eight hex digits of a key id then '.': `_` matches any one character.
      const rows = await sql<{ key_id: string; values: number | string }>`
        select substr(${value}, 4, 8) as key_id, count(*) as ${sql.ref('values')}
        from ${sql.table(table.name)} where ${value} like 'v1.________.%' group by substr(${value}, 4, 8)`.execute(
        db,
      );
      for (const row of rows.rows) {
        if (!/^[0-9a-f]{8}$/.test(row.key_id)) continue;
        counts.push({
          keyId: row.key_id,
          table: table.name,
          column: column.name,
          values: Number(row.values),
        });
      }
    }
  }
  return counts;
}

/**
 * A column that holds sealed values and the additional data each was sealed with: what re-sealing
 * needs to open a value and seal it again under the current key. The module that seals the column
 * declares it, beside the additional data it uses, so the two cannot drift apart.
 */
export interface SealedColumn {
  table: string;
  column: string;
  /** The columns that name one row (its primary key). */
  key: readonly string[];
  /** The additional data this row's value was sealed with. */
  aad: (row: Record<string, unknown>) => string;
}

/** A value that could not be opened; it stays as it is, under its key. */
export interface ResealFailure {
  table: string;
  column: string;
  key: Record<string, unknown>;
  keyId: string;
  reason: string;
}

type Ring = Pick<AesGcmSealer, 'seal' | 'open' | 'keyId'>;

/**
 * Seals every value of `column` that another key sealed again under the ring's current key, one
 * batch (one transaction) at a time, in key order. Each row is written only if it still holds the
 * value that was read (a process that rewrote it meanwhile wins), and the old key stays in the ring
 * until the operator removes it, so a run stopped at any point has lost nothing: a value is under
 * either key, and both open. Running again picks up what is left.
 */
export async function resealColumn(
  db: Db,
  ring: Ring,
  target: SealedColumn,
  options: { batchSize: number; progress: (done: number, total: number) => void },
): Promise<{ resealed: number; failures: ResealFailure[] }> {
  const value = sql.ref(target.column);
  const stale = sql`${value} like 'v1.%' and ${value} not like ${`v1.${ring.keyId}.%`}`;
  const countRow = await sql<{ n: number | string }>`
    select count(*) as n from ${sql.table(target.table)} where ${stale}`.execute(db);
  const total = Number(countRow.rows[0]?.n ?? 0);
  const keyRefs = sql.join(target.key.map((k) => sql.ref(k)));
  const failures: ResealFailure[] = [];
  let resealed = 0;
  let seen = 0;
  let after: unknown[] | null = null;
  for (;;) {
    const from: RawBuilder<unknown> = after === null ? sql`1 = 1` : sql`(${keyRefs}) > (${sql.join(after)})`;
    const rows: Record<string, unknown>[] = (
      await sql<Record<string, unknown>>`
        select * from ${sql.table(target.table)} where ${stale} and ${from}
        order by ${keyRefs} limit ${options.batchSize}`.execute(db)
    ).rows;
    if (rows.length === 0) break;
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        const old = row[target.column] as string;
        const key = Object.fromEntries(target.key.map((k) => [k, row[k]]));
        let sealed: string;
        try {
          sealed = ring.seal(ring.open(old, target.aad(row)), target.aad(row));
        } catch (error) {
          failures.push({
            table: target.table,
            column: target.column,
            key,
            keyId: old.slice(3, 11),
            reason: (error as Error).message,
          });
          continue;
        }
        const same = sql.join(
          target.key.map((k) => sql`${sql.ref(k)} = ${row[k]}`),
          sql` and `,
        );
        const written = await sql`
          update ${sql.table(target.table)} set ${value} = ${sealed} where ${same} and ${value} = ${old}`.execute(
          trx,
        );
        resealed += Number(written.numAffectedRows ?? 0);
      }
    });
    seen += rows.length;
    const last = rows.at(-1) as Record<string, unknown>;
    after = target.key.map((k) => last[k]);
    options.progress(Math.min(seen, total), total);
    if (rows.length < options.batchSize) break;
  }
  return { resealed, failures };
}
