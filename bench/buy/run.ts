/**
 * bench/buy: a built-in-engine turn (`POST /buy {ask}` → a priced cart in a new conversation) and a
 * confirm (`POST /buy {confirm}` → order, single-use card, charge, clearing and events), p50/p99 and
 * per second, next to a bare Fastify route answering the same envelope in the same run. Targets:
 * turn p50 < 20 ms; confirm p99 < 30 ms at 8 in flight. CPU per request of each server process
 * (bench/cpu.ts) beside them. As the turns are measured after 2 s of them, the confirms are measured
 * after `--warmup-confirms` of them (not timed): a fresh process compiles the confirm path on its
 * first few hundred confirms, which a running server has long done.
 *
 *   node --import tsx bench/buy/run.ts [--seconds 5] [--connections 8] [--confirms 400] [--concurrency 8]
 *     [--warmup-confirms 200]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { CpuMeter, cpuLine, cpuLines } from '../cpu.ts';
import { startServers } from '../servers-process.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
    confirms: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '8' },
    'warmup-confirms': { type: 'string', default: '200' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const confirms = Number(values.confirms);
const concurrency = Number(values.concurrency);
const warmupConfirms = Number(values['warmup-confirms']);
const TURN_P50_MS = 20;
const CONFIRM_P99_MS = 30;

const servers = await startServers<{ purserUrl: string; token: string }>(import.meta.url);
const { purserUrl, bareUrl, token } = servers.info;
const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
const ask = JSON.stringify({ ask: '2 lattes and a croissant from coffee' });

async function load(url: string, duration = seconds) {
  const result = await autocannon({
    url: `${url}/buy`,
    method: 'POST',
    headers,
    body: ask,
    connections,
    duration,
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

async function post(body: unknown) {
  const response = await fetch(`${purserUrl}/buy`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await response.json()) as { status: string; conversation_id: string; cart: { hash: string } };
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(json)}`);
  return json;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

await load(bareUrl, 2);
await load(purserUrl, 2);
const bareCpu = new CpuMeter(servers.pids.bare);
const turnCpu = new CpuMeter(servers.pids.purser);
const bare = await bareCpu.round(
  () => load(bareUrl),
  (run) => run.answered,
);
const turn = await turnCpu.round(
  () => load(purserUrl),
  (run) => run.answered,
);

// Confirms: carts made first (not timed), then confirmed `concurrency` at a time; the warm-up's the same way.
async function cartsToConfirm(count: number) {
  const carts: { confirm: string; conversation_id: string }[] = [];
  for (let i = 0; i < count; i++) {
    const made = await post({ ask: 'an espresso from coffee' });
    carts.push({ confirm: made.cart.hash, conversation_id: made.conversation_id });
  }
  return carts;
}

/** Confirms every cart, `concurrency` at a time; each one's latency in ms. */
async function confirmAll(carts: { confirm: string; conversation_id: string }[]) {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < carts.length) {
        const body = carts[next++];
        const t0 = performance.now();
        const answer = await post(body);
        latencies.push(performance.now() - t0);
        if (answer.status !== 'order_placed') throw new Error(`confirm: ${JSON.stringify(answer)}`);
      }
    }),
  );
  return latencies;
}

await confirmAll(await cartsToConfirm(warmupConfirms));
const carts = await cartsToConfirm(confirms);
const started = performance.now();
const confirmCpu = new CpuMeter(servers.pids.purser);
const latencies = await confirmCpu.round(
  () => confirmAll(carts),
  () => confirms,
);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const confirmP50 = percentile(latencies, 0.5);
const confirmP99 = percentile(latencies, 0.99);
const verified = await servers.stop();

console.log(
  `bench/buy  (${seconds}s of turns at ${connections} connections; ${confirms} confirms, ${concurrency} at a time, after ${warmupConfirms}; loopback, SQLite)`,
);
console.log(
  `  bare Fastify POST /buy (same envelope, no auth):  ${bare.rps.toFixed(0)} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms`,
);
console.log(
  `  Purser turn (ask → priced cart, new conversation): ${turn.rps.toFixed(0)} req/s  p50 ${turn.p50} ms  p99 ${turn.p99} ms`,
);
console.log(
  `  Purser confirm (order, card, charge, clearing, events): ${(confirms / elapsed).toFixed(0)} /s  p50 ${confirmP50.toFixed(1)} ms  p99 ${confirmP99.toFixed(1)} ms`,
);
console.log(
  `  turn p50: ${turn.p50} ms (target < ${TURN_P50_MS} ms)  ${turn.p50 < TURN_P50_MS ? 'MET' : 'NOT MET'}`,
);
console.log(
  `  confirm p99 at ${concurrency} in flight: ${confirmP99.toFixed(1)} ms (target < ${CONFIRM_P99_MS} ms)  ${confirmP99 < CONFIRM_P99_MS ? 'MET' : 'NOT MET'}`,
);
console.log(cpuLines({ bare: bareCpu, purser: turnCpu, unit: 'turn' }).join('\n'));
console.log(cpuLine('confirm (Purser)', confirmCpu));
console.log(`  ledger verify after the run: ${verified === 0 ? 'ok' : 'FAILED'}`);
