/**
 * Where a process's SQLite time goes, statement by statement: loaded before a bench's servers, it
 * times every run of every better-sqlite3 statement (and `exec`) by its text, and on exit appends
 * the forty dearest (total, runs, per run) to `STATEMENT_TIMES_OUT` (default
 * `statement-times.txt` in the working directory), one block per thread that ran any (the checkpoint
 * thread has its own):
 *
 *   BENCH_NODE_ARGS="--import tsx --import ./bench/statement-times.ts" node --import tsx bench/cards/run.ts
 *   node --import tsx --import ./bench/statement-times.ts bench/webhooks/run.ts   (Purser in the bench's process)
 *
 * Wall time around each call on the calling thread, so it includes what SQLite waits for (the log's
 * writes); about a tenth of a microsecond more a statement.
 */
import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const SHOWN = 40;
const times = new Map<string, { runs: number; ms: number }>();

function timed<R>(text: string, call: () => R): R {
  const started = performance.now();
  try {
    return call();
  } finally {
    const entry = times.get(text) ?? { runs: 0, ms: 0 };
    entry.runs += 1;
    entry.ms += performance.now() - started;
    times.set(text, entry);
  }
}

const statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<
  string,
  (this: SQLite.Statement, ...args: unknown[]) => unknown
>;
for (const method of ['run', 'all', 'get'] as const) {
  const original = statement[method] as (this: SQLite.Statement, ...args: unknown[]) => unknown;
  statement[method] = function (this: SQLite.Statement, ...args: unknown[]) {
    return timed(this.source, () => original.apply(this, args));
  };
}
const exec = SQLite.prototype.exec;
SQLite.prototype.exec = function (this: SQLite.Database, source: string) {
  return timed(`exec: ${source}`, () => exec.call(this, source));
};

process.on('exit', () => {
  if (times.size === 0) return;
  const rows = [...times].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((sum, [, entry]) => sum + entry.ms, 0);
  const lines = rows.slice(0, SHOWN).map(([text, { runs, ms }]) => {
    const perRun = ((1000 * ms) / runs).toFixed(1);
    return `${ms.toFixed(0).padStart(7)} ms ${String(runs).padStart(9)} × ${perRun.padStart(7)} µs  ${text.replace(/\s+/g, ' ').slice(0, 120)}`;
  });
  const block = [
    `process ${process.pid}, thread ${threadId}: ${total.toFixed(0)} ms in SQLite statements`,
    ...lines,
    '',
  ];
  appendFileSync(process.env.STATEMENT_TIMES_OUT ?? 'statement-times.txt', `${block.join('\n')}\n`);
});
