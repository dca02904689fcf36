/**
 * bench/webhooks: webhook delivery on SQLite next to the ceiling measured in the same run: a bare
 * sender posting the same signed payloads to the same receiver with no storage.
 *
 * 1. Throughput (alternating rounds, medians) and CPU per delivery of this process (emits, worker and
 *    bare sender run here, the receiver in its own process; bench/cpu.ts), targets on CPU per
 *    delivery, bare ÷ Purser: end to end ≥ 0.7, pipeline ≥ 0.9 (with `--separate-worker` the worker's
 *    CPU is not counted: compare throughput only):
 *    a. end to end: N events emitted as fast as one transaction each allows, the worker delivering
 *       meanwhile; deliveries per second from the first emit to the last arrival. Events are
 *       written by 16 emitters at once (`--emitters M`), as a service's concurrent requests write
 *       them, whose transactions group commit can share; the same rounds also run one emitter
 *       awaiting each commit before the next, where every event pays a commit of its own;
 *    b. the delivery pipeline alone: N events already in the outbox, drained by the worker; its CPU
 *       is metered from the worker's start (writing the backlog is not part of the pipeline).
 * 2. Latency at a fixed rate (2,000 events/s by default): event emitted → request arrived at the
 *    receiver, p50 and p99. Target: p99 under 50 ms.
 *
 * Loopback only, bounded by the event counts and a deadline.
 *
 *   node --import tsx bench/webhooks/run.ts [--events 5000] [--rounds 3] [--rate 2000] [--seconds 10] [--emitters 16] [--separate-worker]
 *   node --import tsx bench/webhooks/run.ts --pg [--processes 3] [--workers 2] [--events 2000] [--rounds 2]   (PostgreSQL: pg.ts)
 */
import { type ChildProcess, fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { groupCommitOf, writeTransaction } from '../../src/db/write-transaction.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { CpuMeter, cpuLines } from '../cpu.ts';
import { startReceiver } from './arrivals.ts';
import { bareRate, bareSender } from './bare.ts';
import { benchWebhooksOnPostgres } from './pg.ts';
import { startPurser } from './purser.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    emitters: { type: 'string', default: '16' },
    'separate-worker': { type: 'boolean', default: false },
    pg: { type: 'boolean', default: false },
    processes: { type: 'string', default: '3' },
    workers: { type: 'string', default: '2' },
  },
});
if (values.pg) {
  await benchWebhooksOnPostgres({
    events: Number(values.events),
    rounds: Number(values.rounds),
    processes: Number(values.processes),
    workers: Number(values.workers),
  });
  process.exit(0);
}
const EVENTS = Number(values.events);
const RATE = Number(values.rate);
const RATE_SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const EMITTERS = Number(values.emitters);
/** The writer shapes measured end to end: the concurrent one, then one emitter alone. */
const SHAPES = EMITTERS === 1 ? [1] : [EMITTERS, 1];
/** The scale-out shape: the worker role in its own process (`purser worker`), emits in this one. */
const SEPARATE_WORKER = values['separate-worker'] === true;
/** Targets on CPU per delivery, bare sender ÷ Purser (bench/cpu.ts), and on latency. */
const TARGET_END_TO_END = 0.7;
const TARGET_PIPELINE = 0.9;
const TARGET_P99_MS = 50;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

// ---- receiver process ----
const receiver = await startReceiver();
const { url, drain, waitForArrivals } = receiver;
// ---- Purser on SQLite ----
const purser = await startPurser(url);
const { config, ctx, org, secret } = purser;
const data = { id: 'card_bench', last4: '4242', balance_cents: 1000, status: 'active' };
const worker = new Worker(ctx, { info: () => {}, error: (f, m) => console.error(m, f) });
let workerProcess: ChildProcess | null = null;
async function startWorker(): Promise<void> {
  if (!SEPARATE_WORKER) return worker.start();
  workerProcess = fork(new URL('../../bin/purser.js', import.meta.url).pathname, ['worker'], {
    env: {
      ...process.env,
      DATABASE_URL: config.databaseUrl,
      ENCRYPTION_KEY: config.encryptionKey!,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve) =>
    workerProcess!.stdout!.on(
      'data',
      (chunk: Buffer) => chunk.toString().includes('worker started') && resolve(),
    ),
  );
}
async function stopWorker(): Promise<void> {
  if (!workerProcess) return worker.stop();
  workerProcess.kill('SIGTERM');
  await new Promise((resolve) => workerProcess!.once('exit', resolve));
}

async function emitOne(i: number): Promise<{ id: string; at: number }> {
  const at = now();
  // A write transaction, as the domains' hot paths use (an authorization's events). The data is not
  // a spread with a key added: V8 builds that slowly, and it would be the bench's cost, not Purser's.
  const { id } = await writeTransaction(ctx, (trx) =>
    ctx.events.emit(trx, {
      organizationId: org.organization_id,
      livemode: false,
      type: 'card.updated',
      data: Object.assign({}, data, { i }),
    }),
  );
  return { id, at };
}

// ---- the bare sender: same payloads, same signing, same HTTP client, same concurrency, no storage ----
const bareSend = bareSender(url, secret, data);

const bareThroughput = () => bareRate(bareSend, waitForArrivals, EVENTS, config.webhooks.concurrency);

async function purserThroughput(emitters: number): Promise<number> {
  const ids = new Set<string>();
  const started = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: emitters }, async () => {
      while (next < EVENTS) ids.add((await emitOne(next++)).id);
    }),
  );
  const seen = new Map<string, number>();
  await waitForArrivals(ids, seen);
  return ids.size / ((Math.max(...[...ids].map((id) => seen.get(id)!)) - started) / 1000);
}

/** N events written to the outbox while no worker runs: the backlog `purserDrain` delivers. */
async function backlog(): Promise<Set<string>> {
  await stopWorker();
  const ids = new Set<string>();
  for (let i = 0; i < EVENTS; i++) ids.add((await emitOne(i)).id);
  return ids;
}

/** The delivery pipeline alone: the backlog drained by the worker (its writing is not metered). */
async function purserDrain(ids: Set<string>): Promise<number> {
  const started = now();
  await startWorker();
  const seen = new Map<string, number>();
  await waitForArrivals(ids, seen);
  return ids.size / ((Math.max(...[...ids].map((id) => seen.get(id)!)) - started) / 1000);
}

/** Open loop at RATE per second for RATE_SECONDS: latencies in ms from start (emit) to arrival. */
async function atRate(send: (i: number) => Promise<{ id: string; at: number }>): Promise<number[]> {
  const total = RATE * RATE_SECONDS;
  const startedAt = new Map<string, number>();
  const begin = now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = begin + (i * 1000) / RATE;
    const wait = due - now();
    if (wait > 1) await sleep(wait);
    sends.push(send(i).then(({ id, at }) => void startedAt.set(id, at)));
  }
  await Promise.all(sends);
  const seen = new Map<string, number>();
  await waitForArrivals(new Set(startedAt.keys()), seen);
  return [...startedAt].map(([id, at]) => seen.get(id)! - at).sort((a, b) => a - b);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');

try {
  // Warm both paths (JIT, keep-alive sockets, SQLite pages).
  await startWorker();
  for (let i = 0; i < 200; i++) await bareSend();
  for (let i = 0; i < 200; i++) await emitOne(i);
  // And one unmetered round of each at full concurrency: the first such round (its sockets, the heap
  // growing to its working size) cost twice the next ones and made every median the worse of two.
  await bareThroughput();
  await purserThroughput(EMITTERS);
  await sleep(500);
  await drain();

  // Alternating rounds, compared by their medians: a shared machine drifts within a run.
  // CPU of this process (emits, worker, bare sender all run here; the receiver does not).
  const bareRounds: number[] = [];
  const purserRounds = SHAPES.map(() => [] as number[]);
  const drainRounds: number[] = [];
  const bareCpu = new CpuMeter();
  const purserCpu = SHAPES.map(() => new CpuMeter());
  const drainCpu = new CpuMeter();
  const delivered = () => EVENTS;
  for (let round = 0; round < ROUNDS; round++) {
    bareRounds.push(await bareCpu.round(bareThroughput, delivered));
    for (const [shape, emitters] of SHAPES.entries())
      purserRounds[shape]!.push(await purserCpu[shape]!.round(() => purserThroughput(emitters), delivered));
    const owed = await backlog();
    drainRounds.push(await drainCpu.round(() => purserDrain(owed), delivered));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const ceiling = median(bareRounds);
  const drained = median(drainRounds);
  const bareLatency = await atRate(() => bareSend());
  const purserLatency = await atRate(emitOne);
  await stopWorker();

  const p99 = quantile(purserLatency, 0.99);
  const lines = [
    `webhooks on SQLite${SEPARATE_WORKER ? ' (worker in its own process)' : ' (one process, like serve)'}, group commit ${groupCommitOf(ctx.db) ? 'on' : 'off'}, ${ROUNDS} alternating rounds of ${EVENTS} events for throughput, ${RATE}/s for ${RATE_SECONDS} s for latency, concurrency ${config.webhooks.concurrency}, poll ${config.webhooks.pollIntervalMs} ms`,
    `  throughput  bare signed sender (ceiling): ${fmt(ceiling)} deliveries/s (rounds: ${bareRounds.map(fmt).join(', ')})`,
    ...SHAPES.map((emitters, shape) => {
      const rounds = purserRounds[shape]!;
      const ratio = median(rounds) / ceiling;
      const who = emitters === 1 ? 'one emitter awaiting each commit' : `${emitters} emitters at once`;
      return [
        `              Purser end to end, ${who} (emit → store → claim → sign → POST → record): ${fmt(median(rounds))} deliveries/s (rounds: ${rounds.map(fmt).join(', ')}), req/s ratio ${ratio.toFixed(2)}`,
        ...cpuLines({
          bare: bareCpu,
          purser: purserCpu[shape]!,
          target: TARGET_END_TO_END,
          unit: 'delivery',
          units: 'deliveries',
        }),
      ].join('\n');
    }),
    `              Purser delivering a backlog (claim → sign → POST → record): ${fmt(drained)} deliveries/s (rounds: ${drainRounds.map(fmt).join(', ')}), req/s ratio ${(drained / ceiling).toFixed(2)}`,
    ...cpuLines({
      bare: bareCpu,
      purser: drainCpu,
      target: TARGET_PIPELINE,
      unit: 'delivery',
      units: 'deliveries',
    }),
    `  latency at ${RATE}/s  bare: p50 ${quantile(bareLatency, 0.5).toFixed(1)} ms  p99 ${quantile(bareLatency, 0.99).toFixed(1)} ms`,
    `                  Purser: p50 ${quantile(purserLatency, 0.5).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms (target p99 < ${TARGET_P99_MS} ms ${p99 < TARGET_P99_MS ? 'met' : 'NOT met'})`,
  ];
  console.log(lines.join('\n'));
} finally {
  receiver.stop();
  await purser.close();
}
