/**
 * bench/cards CPU: the process CPU time (user + system, `process.cpuUsage()`) one authorization
 * costs, through `POST /api/v2/simulate/authorize` in-process (`app.inject`, no socket), on the
 * same fresh SQLite setup as run.ts. Less sensitive to a loaded machine than throughput.
 *
 *   node --import tsx bench/cards/cpu.ts [--count 2000] [--concurrency 1]   (add --cpu-prof to see where it goes)
 *
 * `--concurrency N` keeps N authorizations in flight (what group commit can batch); the default of
 * one at a time is the idle shape. `SQLITE_GROUP_COMMIT=off` compares without group commit.
 */
import { parseArgs } from 'node:util';
import { groupCommitOf } from '../../src/db/write-transaction.ts';
import { app, authorize, authorizeAll, ctx } from './setup.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '1' } },
});
const count = Number(values.count);
const concurrency = Number(values.concurrency);

for (let i = 0; i < 200; i++) await authorize(i); // warm up
const group = groupCommitOf(ctx.db)?.stats;
const before = group ? { ...group } : null;
const cpu = process.cpuUsage();
const started = process.hrtime.bigint();
await authorizeAll(count, concurrency);
const used = process.cpuUsage(cpu);
const wall = Number(process.hrtime.bigint() - started) / 1e6;
const perAuth = (used.user + used.system) / count / 1000;
console.log(
  `bench/cards cpu  (${count} authorizations, ${concurrency === 1 ? 'one at a time' : `${concurrency} in flight`}, in-process, SQLite)`,
);
console.log(
  `  CPU ${perAuth.toFixed(3)} ms per authorization (user ${(used.user / count / 1000).toFixed(3)}, system ${(used.system / count / 1000).toFixed(3)}); wall ${(wall / count).toFixed(3)} ms`,
);
if (group && before) {
  const members = group.members - before.members;
  const batches = group.batches - before.batches;
  console.log(`  group commit: ${(members / Math.max(batches, 1)).toFixed(2)} transactions per commit`);
} else console.log('  group commit: off');
const violations = await ctx.ledger.verify();
console.log(`  ledger verify: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}`);
await app.close();
await ctx.close();
