/**
 * bench/api: authenticated `GET /api/v2` throughput next to a bare Fastify route answering the same
 * JSON without authentication, measured in the same run on loopback, each in its own process.
 * Target: CPU per request of the bare route ÷ Purser's ≥ 0.75 on SQLite (bench/cpu.ts).
 * The two are measured in alternation, several rounds, and compared by their medians, because a
 * shared 2-core machine drifts within a run.
 *
 *   node --import tsx bench/api/run.ts [--seconds 5] [--rounds 3] [--connections 32]
 *   node --import tsx bench/api/run.ts --pg [--processes 3] …   (PostgreSQL, 1 and N API processes: pg.ts)
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { CpuMeter, cpuLines } from '../cpu.ts';
import { median, startServers } from '../servers-process.ts';
import { benchApiOnPostgres } from './pg.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    pg: { type: 'boolean', default: false },
    processes: { type: 'string', default: '3' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
if (values.pg) {
  await benchApiOnPostgres({ seconds, rounds, connections, processes: Number(values.processes) });
  process.exit(0);
}
const TARGET_CPU_RATIO = 0.75;

const servers = await startServers<{ purserUrl: string; token: string }>(import.meta.url);
const { purserUrl, bareUrl, token } = servers.info;

interface Run {
  rps: number;
  p99: number;
  answered: number;
}

async function measure(url: string, headers: Record<string, string>, duration = seconds): Promise<Run> {
  const result = await autocannon({ url: `${url}/api/v2`, headers, connections, duration });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, answered: result.requests.total };
}

const auth = { authorization: `Bearer ${token}` };
await measure(bareUrl, {}, 2);
await measure(purserUrl, auth, 2);
const bare: Run[] = [];
const purser: Run[] = [];
const bareCpu = new CpuMeter(servers.pids.bare);
const purserCpu = new CpuMeter(servers.pids.purser);
const answered = (run: Run) => run.answered;
for (let round = 0; round < rounds; round++) {
  bare.push(await bareCpu.round(() => measure(bareUrl, {}), answered));
  purser.push(await purserCpu.round(() => measure(purserUrl, auth), answered));
}
await servers.stop();

const ratio = median(purser, 'rps') / median(bare, 'rps');
console.log(`bench/api  (${rounds} × ${seconds}s each, ${connections} connections, loopback, SQLite)`);
console.log(
  `  bare Fastify GET /api/v2 (no auth):   median ${median(bare, 'rps').toFixed(0)} req/s  p99 ${median(bare, 'p99')} ms`,
);
console.log(
  `  Purser GET /api/v2 (platform token):  median ${median(purser, 'rps').toFixed(0)} req/s  p99 ${median(purser, 'p99')} ms`,
);
console.log(
  `  rounds: bare ${bare.map((r) => r.rps.toFixed(0)).join(', ')}; purser ${purser.map((r) => r.rps.toFixed(0)).join(', ')}`,
);
console.log(`  req/s ratio: ${ratio.toFixed(2)}`);
console.log(cpuLines({ bare: bareCpu, purser: purserCpu, target: TARGET_CPU_RATIO }).join('\n'));
