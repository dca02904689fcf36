/**
 * bench/mcp: `tools/call whoami` throughput at the MCP tool server (a raw JSON-RPC POST over
 * loopback with a connection token: the token lookup and the tool's user, both remembered for
 * AUTH_CACHE_TTL_MS; a pooled MCP server and its exchange) next to a bare Fastify route answering
 * the same JSON-RPC result without authentication, in the same run, each in its own process.
 * Target: CPU per request of the bare route ÷ Purser's ≥ 0.4 (bench/cpu.ts). Measured in
 * alternation, several rounds, compared by medians (a shared 2-core machine drifts within a run).
 *
 *   node --import tsx bench/mcp/run.ts [--seconds 5] [--rounds 3] [--connections 32]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { CpuMeter, cpuLines } from '../cpu.ts';
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
const TARGET_CPU_RATIO = 0.4;

const servers = await startServers<{ purserUrl: string; token: string }>(import.meta.url);
const { purserUrl, bareUrl, token } = servers.info;

interface Run {
  rps: number;
  p99: number;
  answered: number;
}

const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'whoami', arguments: {} },
});
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

async function measure(url: string, extra: Record<string, string>, duration = seconds): Promise<Run> {
  const result = await autocannon({
    url: `${url}/mcp`,
    method: 'POST',
    headers: { ...headers, ...extra },
    body,
    connections,
    duration,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, answered: result.requests.total };
}

// One checked round first: the tool must answer whoami, not an error result.
const probe = await fetch(`${purserUrl}/mcp`, {
  method: 'POST',
  headers: { ...headers, authorization: `Bearer ${token}` },
  body,
});
const answer = (await probe.json()) as { result?: { isError?: boolean; structuredContent?: unknown } };
if (probe.status !== 200 || answer.result?.isError || !answer.result?.structuredContent) {
  await servers.stop();
  throw new Error(`whoami failed: ${probe.status} ${JSON.stringify(answer)}`);
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
console.log(`bench/mcp  (${rounds} × ${seconds}s each, ${connections} connections, loopback, SQLite)`);
console.log(
  `  bare Fastify POST /mcp (same JSON-RPC answer, no auth): median ${median(bare, 'rps').toFixed(0)} req/s  p99 ${median(bare, 'p99')} ms`,
);
console.log(
  `  Purser POST /mcp tools/call whoami (connection token):  median ${median(purser, 'rps').toFixed(0)} req/s  p99 ${median(purser, 'p99')} ms`,
);
console.log(
  `  rounds: bare ${bare.map((r) => r.rps.toFixed(0)).join(', ')}; purser ${purser.map((r) => r.rps.toFixed(0)).join(', ')}`,
);
console.log(`  req/s ratio: ${ratio.toFixed(2)}`);
console.log(cpuLines({ bare: bareCpu, purser: purserCpu, target: TARGET_CPU_RATIO }).join('\n'));
