/**
 * bench/api/gc-modes: the two states Purser's API process serves `GET /api/v2` in, told apart by its
 * young-generation collections. Each of `--processes` fresh servers (bench/api/servers.ts, started
 * with `--trace-gc-nvp --expose-gc`) is warmed up, loaded for `--seconds` as it is, made to run one
 * full collection (SIGUSR2), and loaded again. For each phase it prints the requests answered, the
 * server's CPU per request, and its scavenges under load: the mean pause, bytes surviving and bytes
 * promoted. A phase whose scavenges promote more than 100 KB each is "promoting" (docs/benchmarks.md).
 *
 *   node --import tsx bench/api/gc-modes.ts [--processes 4] [--seconds 4] [--connections 32] [--path /api/v2]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { CpuMeter, loadAverage } from '../cpu.ts';
import { median } from '../servers-process.ts';

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '32' },
    path: { type: 'string', default: '/api/v2' },
  },
});
const processes = Number(values.processes);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
/** Mean bytes promoted per scavenge above which a phase counts as promoting. */
const PROMOTING_BYTES = 100_000;
/** Scavenges that collected less than this ran while the server was idle, not under the load. */
const UNDER_LOAD_BYTES = 2_000_000;

interface Scavenge {
  pause: number;
  survived: number;
  promoted: number;
}

interface Phase {
  requests: number;
  cpuPerRequest: number;
  scavenges: Scavenge[];
}

const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=([0-9.]+)`).exec(line)?.[1]);

/** A Purser server of bench/api in its own process, its scavenges recorded as they are printed. */
async function startServer() {
  const script = new URL('./servers.ts', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ['--trace-gc-nvp', '--expose-gc', '--import', 'tsx', script, 'purser'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const scavenges: Scavenge[] = [];
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise<{ purserUrl: string; token: string }>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{')) resolve(JSON.parse(line));
      else if (line.includes(' gc=s ') && field(line, 'allocated') > UNDER_LOAD_BYTES)
        scavenges.push({
          pause: field(line, 'pause'),
          survived: field(line, 'new_space_survived'),
          promoted: field(line, 'promoted'),
        });
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before serving`)));
  });
  return { child, info, scavenges };
}

async function load(url: string, token: string, duration: number): Promise<number> {
  const result = await autocannon({
    url: `${url}${values.path}`,
    headers: { authorization: `Bearer ${token}` },
    connections,
    duration,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.total;
}

/** One fresh server: a phase as started, then one after a full collection. */
async function measureProcess(): Promise<[Phase, Phase]> {
  const { child, info, scavenges } = await startServer();
  const cpu = new CpuMeter(child.pid);
  const phase = async (): Promise<Phase> => {
    const from = scavenges.length;
    const requests = await cpu.round(
      () => load(info.purserUrl, info.token, seconds),
      (answered) => answered,
    );
    return { requests, cpuPerRequest: cpu.rounds.at(-1) as number, scavenges: scavenges.slice(from) };
  };
  await load(info.purserUrl, info.token, 2);
  const asStarted = await phase();
  child.kill('SIGUSR2');
  await sleep(300);
  const afterCollection = await phase();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return [asStarted, afterCollection];
}

const mean = (items: Scavenge[], key: keyof Scavenge) =>
  items.reduce((sum, item) => sum + item[key], 0) / Math.max(items.length, 1);
const promoting = (phase: Phase) => mean(phase.scavenges, 'promoted') > PROMOTING_BYTES;
const describe = (label: string, phase: Phase) =>
  `${label.padEnd(24)} ${String(phase.requests).padStart(7)} req  ${phase.cpuPerRequest.toFixed(1).padStart(6)} µs CPU/req  ` +
  `${String(phase.scavenges.length).padStart(3)} scavenges: pause ${mean(phase.scavenges, 'pause').toFixed(2)} ms, ` +
  `survived ${(mean(phase.scavenges, 'survived') / 1000).toFixed(0)} KB, promoted ${(mean(phase.scavenges, 'promoted') / 1000).toFixed(0)} KB` +
  (promoting(phase) ? '  PROMOTING' : '');

console.log(
  `bench/api gc-modes  (GET ${values.path}, ${processes} processes, ${seconds}s a phase, ${connections} connections; ${loadAverage()})`,
);
const all: Phase[] = [];
for (let index = 1; index <= processes; index++) {
  const [asStarted, afterCollection] = await measureProcess();
  console.log(`  process ${index}`);
  console.log(`    ${describe('as started', asStarted)}`);
  console.log(`    ${describe('after a full collection', afterCollection)}`);
  all.push(asStarted, afterCollection);
}
const medianCpu = (phases: Phase[]) => (phases.length ? median(phases, 'cpuPerRequest').toFixed(1) : '—');
const [promotingPhases, others] = [all.filter(promoting), all.filter((phase) => !promoting(phase))];
console.log(
  `  phases promoting: ${promotingPhases.length} of ${all.length}; median CPU per request: promoting ${medianCpu(promotingPhases)} µs, ` +
    `not promoting ${medianCpu(others)} µs  (${loadAverage()})`,
);
