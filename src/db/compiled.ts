import type { CompiledQuery, DialectAdapter, Insertable } from 'kysely';
import type { Executor } from './index.ts';
import type { Database } from './schema.ts';

/**
 * Statements compiled once. On the hot paths (every authorization, every emitted event) building and
 * compiling a query with Kysely costs more than SQLite's own work. These statements are compiled
 * once per database (keyed by its dialect adapter, shared by the database and its transactions) and
 * then run with new parameters; better-sqlite3 reuses the prepared statement by its text.
 */
const compiledStatements = new WeakMap<DialectAdapter, Map<string, CompiledQuery>>();

/**
 * Runs the statement known by `key` with `parameters`, building it with `build` the first time. The
 * built query must take exactly these parameters in this order (checked when it is compiled), so a
 * key names one statement shape: put anything that changes the SQL (a list's length) in the key.
 */
export async function runCompiled<Row>(
  db: Executor,
  key: string,
  parameters: readonly unknown[],
  build: () => { compile(): CompiledQuery<Row> },
): Promise<Row[]> {
  const adapter = db.getExecutor().adapter;
  let statements = compiledStatements.get(adapter);
  if (!statements) {
    statements = new Map();
    compiledStatements.set(adapter, statements);
  }
  let compiled = statements.get(key) as CompiledQuery<Row> | undefined;
  if (!compiled) {
    compiled = build().compile();
    if (
      compiled.parameters.length !== parameters.length ||
      compiled.parameters.some((value, i) => value !== parameters[i])
    ) {
      throw new Error(`statement ${key} does not take its parameters in the order given`);
    }
    statements.set(key, compiled);
  }
  return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
}

/** Inserts one row with a statement compiled once per table and column list. */
export async function insertOne<T extends keyof Database>(
  db: Executor,
  table: T,
  row: Insertable<Database[T]>,
): Promise<void> {
  const columns = Object.keys(row).filter((column) => row[column as keyof typeof row] !== undefined);
  await runCompiled(
    db,
    `insert ${table} (${columns.join(',')})`,
    columns.map((column) => row[column as keyof typeof row]),
    () => db.insertInto(table).values(row as never),
  );
}
