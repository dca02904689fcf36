/**
 * bench/api: authenticated `GET /api/v2` throughput next to a bare Fastify route answering the same
 * JSON without authentication, measured in the same run on loopback. Target: ratio ≥ 0.6 on SQLite.
 * The two are measured in alternation, several rounds, and compared by their medians, because a
 * shared 2-core machine drifts within a run.
 *
 *   node --import tsx bench/api/run.ts [--seconds 5] [--rounds 3] [--connections 32]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { median, startServers } from '../servers-process.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const TARGET_RATIO = 0.6;

const { servers, info } = await startServers<{
  purserUrl: string;
  bareUrl: string;
  token: string;
}>(import.meta.url);
const { purserUrl, bareUrl, token } = info;

interface Run {
  rps: number;
  p99: number;
}

async function measure(url: string, headers: Record<string, string>, duration = seconds): Promise<Run> {
  const result = await autocannon({ url: `${url}/api/v2`, headers, connections, duration });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const auth = { authorization: `Bearer ${token}` };
await measure(bareUrl, {}, 2);
await measure(purserUrl, auth, 2);
const bare: Run[] = [];
const purser: Run[] = [];
for (let round = 0; round < rounds; round++) {
  bare.push(await measure(bareUrl, {}));
  purser.push(await measure(purserUrl, auth));
}
servers.kill('SIGTERM');

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
console.log(
  `  ratio: ${ratio.toFixed(2)}  (target ≥ ${TARGET_RATIO})  ${ratio >= TARGET_RATIO ? 'MET' : 'NOT MET'}`,
);
