/**
 * bench/cards: card authorizations through `POST /api/v2/simulate/authorize` (decision, ledger
 * hold, transaction row and events in one transaction) next to a bare route doing one SQLite
 * insert, in the same run on loopback, each in its own process. Prints throughput of both and CPU
 * per request of each (bench/cpu.ts), with the bare ÷ Purser ratio of the latter (target ≥ 0.45),
 * then the decision latency p50/p99 at a fixed 1,000 authorizations per second, evenly spaced
 * (`fixedRate`: open loop, latency from when each request was due), target p99 < 10 ms.
 *
 *   node --import tsx bench/cards/run.ts [--seconds 5] [--rounds 3] [--connections 16] [--warmup 3]
 *   node --import tsx bench/cards/run.ts --pg [--processes 3] [--company-cards 300] …   (PostgreSQL, 1 and N API processes: pg.ts)
 *   node --import tsx bench/cards/run.ts --platform-endpoint [--seconds 5]   (decided by a platform: platform.ts)
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { CpuMeter, cpuLines } from '../cpu.ts';
import { fixedRate } from '../fixed-rate.ts';
import { median, startServers } from '../servers-process.ts';
import { benchOnPostgres } from './pg.ts';
import { benchPlatformEndpoint } from './platform.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    // Seconds of load on each server before its rounds: with one, the first round still paid for
    // compiling the hot path (a third more CPU per authorization than the rounds after it).
    warmup: { type: 'string', default: '3' },
    pg: { type: 'boolean', default: false },
    processes: { type: 'string', default: '3' },
    'company-cards': { type: 'string', default: '300' },
    'platform-endpoint': { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
if (values.pg) {
  await benchOnPostgres({
    seconds,
    rounds,
    connections,
    processes: Number(values.processes),
    companyCards: Number(values['company-cards']),
  });
  process.exit(0);
}
if (values['platform-endpoint']) {
  await benchPlatformEndpoint({ seconds });
  process.exit(0);
}
const TARGET_CPU_RATIO = 0.45;
const TARGET_P99_MS = 10;
const FIXED_RATE = 1_000;

const servers = await startServers<{ purserUrl: string; token: string; cardIds: string[] }>(import.meta.url);
const { purserUrl, bareUrl, token, cardIds } = servers.info;

interface Run {
  rps: number;
  p50: number;
  p99: number;
  answered: number;
}

let next = 0;
// One cent on the next card in turn: every request is a fresh authorization.
const nextBody = () =>
  JSON.stringify({
    card_id: cardIds[next++ % cardIds.length],
    amount_cents: 1,
    merchant: 'Bench Shop',
    mcc: '5411',
  });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

async function measure(url: string, duration: number): Promise<Run> {
  const result = await autocannon({
    url: `${url}/api/v2/simulate/authorize`,
    method: 'POST',
    headers,
    connections,
    duration,
    requests: [{ setupRequest: (request) => ({ ...request, body: nextBody() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    answered: result.requests.total,
  };
}

async function atFixedRate(url: string) {
  const run = await fixedRate({
    url: `${url}/api/v2/simulate/authorize`,
    method: 'POST',
    headers,
    body: nextBody,
    rate: FIXED_RATE,
    seconds: seconds * 2,
  });
  if (run.failed > 0) throw new Error(`${url}: ${run.failed} failed at ${FIXED_RATE}/s`);
  return run;
}

await measure(bareUrl, Number(values.warmup));
await measure(purserUrl, Number(values.warmup));
const bare: Run[] = [];
const purser: Run[] = [];
const bareCpu = new CpuMeter(servers.pids.bare);
const purserCpu = new CpuMeter(servers.pids.purser);
const answered = (run: Run) => run.answered;
for (let round = 0; round < rounds; round++) {
  bare.push(await bareCpu.round(() => measure(bareUrl, seconds), answered));
  purser.push(await purserCpu.round(() => measure(purserUrl, seconds), answered));
}
const bareFixed = await atFixedRate(bareUrl);
const purserFixed = await atFixedRate(purserUrl);
const verified = await servers.stop();

const ratio = median(purser, 'rps') / median(bare, 'rps');
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
console.log(`bench/cards  (${rounds} × ${seconds}s each, ${connections} connections, loopback, SQLite)`);
console.log(`  bare route, one SQLite insert:          median ${median(bare, 'rps').toFixed(0)} req/s`);
console.log(`  Purser authorize (hold + row + events): median ${median(purser, 'rps').toFixed(0)} auth/s`);
console.log(
  `  rounds: bare ${bare.map((r) => r.rps.toFixed(0)).join(', ')}; purser ${purser.map((r) => r.rps.toFixed(0)).join(', ')}`,
);
console.log(`  req/s ratio ${ratio.toFixed(2)}`);
console.log(
  cpuLines({ bare: bareCpu, purser: purserCpu, target: TARGET_CPU_RATIO, unit: 'authorization' }).join('\n'),
);
const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(`  at a fixed ${FIXED_RATE}/s, evenly spaced, for ${seconds * 2}s:`);
console.log(
  `    bare   p50 ${ms(bareFixed.p50)}  p99 ${ms(bareFixed.p99)}  (${bareFixed.rps.toFixed(0)} req/s)`,
);
console.log(
  `    Purser p50 ${ms(purserFixed.p50)}  p99 ${ms(purserFixed.p99)}  (${purserFixed.rps.toFixed(0)} auth/s; target p99 < ${TARGET_P99_MS} ms: ${verdict(purserFixed.p99 < TARGET_P99_MS)})`,
);
console.log(`  purser ledger verify after the run: ${verified === 0 ? 'ok' : 'FAILED'}`);
