/**
 * bench/cards `pg-cost`: what one authorization costs on PostgreSQL, less sensitive to a loaded
 * machine than throughput: the statements the pg client sends per authorization (each a round
 * trip), the API process's CPU (`process.cpuUsage()`) and all postgres processes' CPU (`/proc`),
 * through `POST /api/v2/simulate/authorize` in-process (`app.inject`) on the setup of run.ts.
 *
 *   BENCH_DATABASE_URL=postgres://…/scratch ENCRYPTION_KEY=… node --import tsx bench/cards/pg-cost.ts [--count 1000] [--concurrency 4] [--company]
 *
 * `--company`: single-use company-funded cards, each charged once (its approval closes it and sends
 * its rest back to the pool), instead of the multi-use cards charged in turn.
 *
 * The database must be an empty scratch one (the setup creates an organization and cards in it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '4' },
    company: { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const concurrency = Number(values.concurrency);

const statements = new Map<string, number>();
let counting = false;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ');
    statements.set(text, (statements.get(text) ?? 0) + 1);
  }
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

// Imported after the client is wrapped.
const { app, authorize, authorizeAll, cardIds, companyCards, ctx } = await import('./setup.ts');
const warmUp = 300;
if (values.company) cardIds.splice(0, cardIds.length, ...(await companyCards(warmUp + count)));
for (let i = 0; i < warmUp; i++) await authorize(i);
if (values.company) cardIds.splice(0, warmUp);
counting = true;
const cpu = process.cpuUsage();
const postgres = postgresTicks();
await authorizeAll(count, concurrency);
const used = process.cpuUsage(cpu);
const postgresMs = ((postgresTicks() - postgres) * 10) / count;
counting = false;

const total = [...statements.values()].reduce((sum, n) => sum + n, 0);
console.log(
  `bench/cards pg-cost  (${count} authorizations, ${concurrency} in flight, in-process, PostgreSQL${values.company ? ', single-use company-funded cards' : ''})`,
);
console.log(
  `  per authorization: ${(total / count).toFixed(2)} statements; API process CPU ${((used.user + used.system) / count / 1000).toFixed(2)} ms; postgres CPU ${postgresMs.toFixed(2)} ms`,
);
for (const [text, n] of [...statements].sort((a, b) => b[1] - a[1]))
  console.log(`  ×${(n / count).toFixed(2)}  ${text.slice(0, 110)}`);
while ((await ctx.ledger.foldDeltas()) > 0);
const violations = await ctx.ledger.verify();
console.log(`  ledger verify: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}`);
await app.close();
await ctx.close();

/** CPU ticks (1/100 s) of every process named postgres. */
function postgresTicks(): number {
  let ticks = 0;
  for (const pid of execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).split('\n')) {
    if (!pid.trim()) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended meanwhile
    }
  }
  return ticks;
}
