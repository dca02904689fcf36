import { remembered } from '../core/memo.ts';

/*
 * SQLite (3.53, as better-sqlite3 builds it) plans a `LIMIT ?` or `OFFSET ?` by the value bound to
 * it: binding one, even the value bound before, expires the prepared statement, and its next run
 * parses and plans it again (the claim of due webhook deliveries, a user's active mandates, every
 * page of a list: 6–13 µs a run). Statements run on a SQLite connection directly get those values
 * written into their text instead, as integers: one prepared statement per limit (a list's limit is
 * 1–100), run with the other parameters.
 */

/** The text of a statement around its LIMIT and OFFSET placeholders, and which parameters those are. */
interface LimitSlots {
  /** The statement's text split at those placeholders: one piece more than `indexes`. */
  pieces: string[];
  /** The placeholders' positions among the statement's parameters, ascending. */
  indexes: number[];
}

/** Past this many statement texts the analysis starts over (statements are fixed texts: a bound, not a cache). */
const TEXTS_MAX = 2_000;
const slotsByText = new Map<string, LimitSlots | null>();

/**
 * `sql` and `parameters` with every LIMIT and OFFSET parameter written into the text, or as given
 * when there is none or one is not an integer (SQLite then judges it as before).
 */
export function literalLimits(
  sql: string,
  parameters: readonly unknown[],
): { sql: string; parameters: readonly unknown[] } {
  const slots = limitSlots(sql);
  if (!slots) return { sql, parameters };
  const values = slots.indexes.map((i) => parameters[i]);
  if (!values.every(isInteger)) return { sql, parameters };
  let text = slots.pieces[0] as string;
  for (const [i, value] of values.entries()) text += String(value) + slots.pieces[i + 1];
  return { sql: text, parameters: parameters.filter((_, i) => !slots.indexes.includes(i)) };
}

/** Whether `sql` binds a LIMIT or an OFFSET. */
export function bindsLimits(sql: string): boolean {
  return limitSlots(sql) !== null;
}

function limitSlots(sql: string): LimitSlots | null {
  return remembered(slotsByText, TEXTS_MAX, sql, findSlots);
}

/** The `?` placeholders right after LIMIT or OFFSET, outside quoted strings and names. */
function findSlots(sql: string): LimitSlots | null {
  const pieces: string[] = [];
  const indexes: number[] = [];
  let placeholder = 0;
  let pieceStart = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      i = sql.indexOf(c, i + 1); // a doubled quote inside is two quoted spans back to back
      if (i < 0) return null;
      continue;
    }
    if (c !== '?') continue;
    if (/\b(limit|offset)\s*$/i.test(sql.slice(Math.max(pieceStart, i - 24), i))) {
      pieces.push(sql.slice(pieceStart, i));
      indexes.push(placeholder);
      pieceStart = i + 1;
    }
    placeholder++;
  }
  if (indexes.length === 0) return null;
  pieces.push(sql.slice(pieceStart));
  return { pieces, indexes };
}

function isInteger(value: unknown): boolean {
  return typeof value === 'bigint' || Number.isSafeInteger(value);
}
