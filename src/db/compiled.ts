import type SQLite from 'better-sqlite3';
import type { CompiledQuery, DialectAdapter, Insertable, Kysely, Updateable } from 'kysely';
import { remembered } from '../core/memo.ts';
import type { Executor } from './index.ts';
import type { Database } from './schema.ts';
import { bindsLimits, literalLimits } from './sqlite-limits.ts';

/** SQLite's connection behind each database opened on it (`openDatabase` registers it). */
const sqliteConnections = new WeakMap<DialectAdapter, SQLite.Database>();
/** The read-only connection beside it, for a database in a file (see `runCompiled`). */
const sqliteReaders = new WeakMap<DialectAdapter, SQLite.Database>();

export function registerSqliteConnection(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  reader: SQLite.Database | null = null,
): void {
  sqliteConnections.set(db.getExecutor().adapter, sqlite);
  if (reader) sqliteReaders.set(db.getExecutor().adapter, reader);
}

/**
 * Executors that hold SQLite's one connection for a write transaction. Their statements run on it
 * directly and synchronously: Kysely would only queue them behind the transaction that already holds
 * the connection, several promise turns per statement.
 */
const holding = new WeakMap<Executor, SQLite.Database>();

/**
 * Runs `work` on `db`'s connection, held for it alone (Kysely's `connection()`); on SQLite its
 * statements through `execute` and `runCompiled` go to the connection directly.
 */
export function withHeldConnection<T>(
  db: Kysely<Database>,
  work: (connection: Executor) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    const sqlite = sqliteConnections.get(connection.getExecutor().adapter);
    if (sqlite) holding.set(connection, sqlite);
    try {
      return await work(connection);
    } finally {
      holding.delete(connection);
    }
  });
}

/** A statement of the held-connection path, prepared once. */
interface Held {
  statement: SQLite.Statement;
  /** For statements that return rows: builds one from its values (see `rowBuilder`). */
  row: ((values: unknown[]) => unknown) | null;
  /** It binds a LIMIT or an OFFSET: runs are the text with their values written in (`runHeld`). */
  limited: boolean;
}

/** Past this many statements a connection's cache starts over (only fixed statements come here). */
const HELD_STATEMENTS_MAX = 500;
/** Each connection's held statements by text, and the one function that prepares them. */
const heldStatements = new WeakMap<
  SQLite.Database,
  { byText: Map<string, Held>; prepare: (text: string) => Held }
>();

function heldStatement(sqlite: SQLite.Database, sql: string): Held {
  let held = heldStatements.get(sqlite);
  if (!held) {
    held = { byText: new Map(), prepare: (text) => prepareHeld(sqlite, text) };
    heldStatements.set(sqlite, held);
  }
  return remembered(held.byText, HELD_STATEMENTS_MAX, sql, held.prepare);
}

function prepareHeld(sqlite: SQLite.Database, text: string): Held {
  const statement = sqlite.prepare(text);
  const limited = bindsLimits(text);
  return statement.reader
    ? { statement: statement.raw(true), row: rowBuilder(statement.columns().map((c) => c.name)), limited }
    : { statement, row: null, limited };
}

/**
 * Rows as better-sqlite3 builds them get their columns one property at a time, in C++, each a
 * transition to a new hidden class; these statements read raw values instead and build each row
 * with one object literal of the statement's columns (names from SQLite, quoted), a fixed shape.
 * A repeated name keeps its last value, as better-sqlite3's rows do.
 */
function rowBuilder(names: string[]): (values: unknown[]) => unknown {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`);
  return new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => unknown;
}

/** Runs a compiled statement as Kysely's SQLite driver would, directly on the held connection. */
function runHeld<Row>(sqlite: SQLite.Database, text: string, values: readonly unknown[]): Row[] {
  let held = heldStatement(sqlite, text);
  let parameters = values;
  if (held.limited) {
    // The statement with its LIMIT and OFFSET values written in runs instead (db/sqlite-limits.ts).
    const literal = literalLimits(text, values);
    held = heldStatement(sqlite, literal.sql);
    parameters = literal.parameters;
  }
  if (held.row) return (held.statement.all(parameters) as unknown[][]).map(held.row) as Row[];
  held.statement.run(parameters);
  return [];
}

/** Runs `compiled` on `db`: directly when `db` holds SQLite's connection, else through Kysely. */
export async function execute<Row>(db: Executor, compiled: CompiledQuery<Row>): Promise<Row[]> {
  const held = holding.get(db);
  if (held) return runHeld<Row>(held, compiled.sql, compiled.parameters);
  return (await db.executeQuery<Row>(compiled)).rows;
}

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
    nameStatement(compiled.sql);
  }
  const held = holding.get(db) ?? committedReader(db, compiled);
  if (held) return runHeld<Row>(held, compiled.sql, parameters);
  return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
}

/**
 * A select on a SQLite database itself (no transaction of it) runs on its read-only connection, at
 * once: it reads what is committed, as it would on the one connection, but without waiting there
 * for the write transaction (a whole group-commit batch) that holds it, nor Kysely's queue. A
 * transaction's reads stay on the transaction's connection. Null elsewhere (PostgreSQL, memory).
 */
function committedReader(db: Executor, compiled: CompiledQuery): SQLite.Database | null {
  if (db.isTransaction || compiled.query.kind !== 'SelectQueryNode') return null;
  return sqliteReaders.get(db.getExecutor().adapter) ?? null;
}

/**
 * The statements of `runCompiled` by their text, each with a name under which PostgreSQL keeps it
 * prepared on every connection that ran it once (`preparedName`): the server then parses and plans
 * it once per connection instead of on every run, and the client sends only its parameters.
 */
const statementNames = new Map<string, string>();
/** Past this many, further statements run unnamed (only fixed statements come here: a bound, not a cache). */
const NAMED_STATEMENTS_MAX = 1_000;

function nameStatement(sql: string): void {
  if (statementNames.has(sql) || statementNames.size >= NAMED_STATEMENTS_MAX) return;
  statementNames.set(sql, `purser_${statementNames.size}`);
}

/** The name a compiled statement's text is prepared under on PostgreSQL, if it is one of `runCompiled`'s. */
export function preparedName(sql: string): string | undefined {
  return statementNames.get(sql);
}

/** The column lists inserted into each table, each with its statement's key (see `insertOne`). */
const insertShapes = new Map<string, { columns: string[]; key: string }[]>();

/**
 * The key of the insert statement for a row with these columns, found by comparing the columns
 * with those seen before: building the key string and hashing it on every insert costs more.
 */
function insertShape(table: string, columns: string[]) {
  let shapes = insertShapes.get(table);
  if (!shapes) {
    shapes = [];
    insertShapes.set(table, shapes);
  }
  let shape = shapes.find((known) => sameColumns(known.columns, columns));
  if (!shape) {
    shape = { columns, key: `insert ${table} (${columns.join(',')})` };
    shapes.push(shape);
  }
  return shape;
}

function sameColumns(known: string[], columns: string[]): boolean {
  if (known.length !== columns.length) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== columns[i]) return false;
  return true;
}

/**
 * Sets these columns of the row with this `id`, with a statement compiled once per table and column
 * list (columns set to undefined are left as they are, as Kysely leaves them).
 */
export async function updateById<T extends keyof Database>(
  db: Executor,
  table: T,
  id: string,
  changes: Updateable<Database[T]>,
): Promise<void> {
  const values = changes as Record<string, unknown>;
  const columns = Object.keys(values).filter((column) => values[column] !== undefined);
  const parameters = columns.map((column) => values[column]);
  parameters.push(id);
  // Typed loosely: every table has an `id`, which Kysely cannot see through the generic table.
  const loose = db as unknown as Kysely<Record<string, { id: string }>>;
  await runCompiled(db, `update ${table} by id (${columns})`, parameters, () =>
    loose
      .updateTable(table as string)
      .set(changes as never)
      .where('id', '=', id),
  );
}

/** Inserts one row with a statement compiled once per table and column list. */
export async function insertOne<T extends keyof Database>(
  db: Executor,
  table: T,
  row: Insertable<Database[T]>,
): Promise<void> {
  const values = row as Record<string, unknown>;
  const given: string[] = [];
  const parameters: unknown[] = [];
  for (const column of Object.keys(values)) {
    const value = values[column];
    if (value === undefined) continue;
    given.push(column);
    parameters.push(value);
  }
  const { key } = insertShape(table, given);
  await runCompiled(db, key, parameters, () => db.insertInto(table).values(row as never));
}
