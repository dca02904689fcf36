/**
 * bench/cards statements: what SQLite's own work costs per authorization. Every prepared statement
 * better-sqlite3 runs is timed while authorizations go through `POST /api/v2/simulate/authorize`
 * in-process (the setup of run.ts, 16 in flight, group commit on), and the figures are printed per
 * statement and in total, per authorization.
 *
 *   node --import tsx bench/cards/statements.ts [--count 4000] [--bare-cpu µs | --bare-rps N]
 *
 * With `--bare-cpu` (the bare route's CPU per request from run.ts, same machine; or `--bare-rps`, its
 * median throughput, taken as 1/N s a request), it also prints the ratio no implementation running
 * these statements could pass: a request that does the bare route's work and these statements, and
 * nothing else, costs the bare request plus the statements' time.
 */
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '4000' },
    'bare-cpu': { type: 'string' },
    'bare-rps': { type: 'string' },
  },
});
const count = Number(values.count);
const TARGET_RATIO = 0.45;

const timings = new Map<string, { runs: number; ns: bigint }>();
let timing = false;
const statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
for (const method of ['run', 'all', 'get'] as const) {
  const original = statement[method] as (...args: unknown[]) => unknown;
  statement[method] = function (this: SQLite.Statement, ...args: unknown[]) {
    if (!timing) return original.apply(this, args);
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      const entry = timings.get(this.source) ?? { runs: 0, ns: 0n };
      entry.runs += 1;
      entry.ns += process.hrtime.bigint() - started;
      timings.set(this.source, entry);
    }
  };
}

// Imported after the statements are wrapped: the app prepares its statements as it starts.
const { app, authorize, ctx } = await import('./setup.ts');
for (let i = 0; i < 500; i++) await authorize(i); // warm up
timing = true;
let issued = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (issued < count) {
      const response = await authorize(issued++);
      if (response.statusCode !== 200) throw new Error(`authorize: ${response.statusCode} ${response.body}`);
    }
  }),
);
timing = false;

const perAuth = (ns: bigint) => Number(ns) / count / 1000;
let total = 0n;
console.log(`bench/cards statements  (${count} authorizations, 16 in flight, in-process, SQLite)`);
for (const [sql, { runs, ns }] of [...timings].sort((a, b) => Number(b[1].ns - a[1].ns))) {
  total += ns;
  console.log(
    `  ${perAuth(ns).toFixed(1).padStart(6)} µs  ×${(runs / count).toFixed(2)}  ${sql.replace(/\s+/g, ' ').slice(0, 90)}`,
  );
}
const sqlMicros = perAuth(total);
console.log(`  SQLite per authorization: ${sqlMicros.toFixed(1)} µs`);
if (values['bare-cpu'] || values['bare-rps']) {
  const bareMicros = values['bare-cpu'] ? Number(values['bare-cpu']) : 1_000_000 / Number(values['bare-rps']);
  const ceiling = bareMicros / (bareMicros + sqlMicros);
  console.log(
    `  bare request ${bareMicros.toFixed(1)} µs: no route running these statements passes a ratio of ${ceiling.toFixed(2)} (target ≥ ${TARGET_RATIO})`,
  );
}
const violations = await ctx.ledger.verify();
console.log(`  ledger verify: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}`);
await app.close();
await ctx.close();
