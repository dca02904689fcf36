import { sql } from 'kysely';
import type { Db, Dialect } from './index.ts';

/** How many sealed values one key holds in one column. */
export interface SealedCount {
  keyId: string;
  table: string;
  column: string;
  values: number;
}

/**
 * Every value sealed by core/crypto-aead (`v1.<key id>.…`) in the database, counted by the key that
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
