/**
 * bench/cards CPU: the process CPU time (user + system, `process.cpuUsage()`) one authorization
 * costs, through `POST /api/v2/simulate/authorize` in-process (`app.inject`, no socket), on the
 * same fresh SQLite setup as run.ts. Less sensitive to a loaded machine than throughput.
 *
 *   node --import tsx bench/cards/cpu.ts [--count 2000]   (add --cpu-prof to see where it goes)
 */
import { parseArgs } from 'node:util';
import { app, cardIds, ctx, token } from './setup.ts';

const { values } = parseArgs({ options: { count: { type: 'string', default: '2000' } } });
const count = Number(values.count);

const authorize = (i: number) =>
  app.inject({
    method: 'POST',
    url: '/api/v2/simulate/authorize',
    headers: { authorization: `Bearer ${token}` },
    payload: { card_id: cardIds[i % cardIds.length], amount_cents: 1, merchant: 'Bench Shop', mcc: '5411' },
  });

for (let i = 0; i < 200; i++) await authorize(i); // warm up
const cpu = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < count; i++) {
  const response = await authorize(i);
  if (response.statusCode !== 200) throw new Error(`authorize: ${response.statusCode} ${response.body}`);
}
const used = process.cpuUsage(cpu);
const wall = Number(process.hrtime.bigint() - started) / 1e6;
const perAuth = (used.user + used.system) / count / 1000;
console.log(`bench/cards cpu  (${count} authorizations, one at a time, in-process, SQLite)`);
console.log(
  `  CPU ${perAuth.toFixed(3)} ms per authorization (user ${(used.user / count / 1000).toFixed(3)}, system ${(used.system / count / 1000).toFixed(3)}); wall ${(wall / count).toFixed(3)} ms`,
);
const violations = await ctx.ledger.verify();
console.log(`  ledger verify: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}`);
await app.close();
await ctx.close();
