/**
 * What the PostgreSQL benchmarks share (`bench/cards --pg`, `bench/api --pg`, `bench/webhooks --pg`):
 * a scratch database on a loopback server, made for the run and dropped after it (`BENCH_PG_URL`,
 * default the local server's `postgres` database, names where); processes started from a script
 * that print one line when ready; and each process's CPU share over a stretch of wall time, read
 * from /proc (clock ticks), PostgreSQL's as all its processes together.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import pg from 'pg';

/** Creates a scratch database, runs `body` with its URL, and drops it whatever happens. */
export async function withScratchDatabase<T>(bench: string, body: (url: string) => Promise<T>): Promise<T> {
  const admin = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(admin.hostname))
    throw new Error(`${bench} --pg runs against a loopback PostgreSQL only`);
  const name = `purser_bench_${process.pid}`;
  const database = new URL(admin);
  database.pathname = `/${name}`;
  await adminQuery(admin, `create database ${name}`);
  try {
    return await body(database.toString());
  } finally {
    await adminQuery(admin, `drop database if exists ${name} with (force)`);
  }
}

async function adminQuery(url: URL, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Starts `node [--import tsx] <script> …args` and reads the line it prints when ready (the first matching `ready`). */
export async function startScript(
  script: URL,
  args: string[],
  env: Record<string, string>,
  ready = /./,
): Promise<{ child: ChildProcess; line: string }> {
  const path = script.pathname;
  const loader = path.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, path, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (!ready.test(line)) return;
      lines.removeAllListeners('line');
      child.stdout?.resume(); // later output is not read
      resolve(line);
    });
    child.once('exit', (code) =>
      reject(new Error(`${path} ${args.join(' ')} exited (${code}) before it was ready`)),
    );
  });
  return { child, line };
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Stops the processes (SIGTERM) and waits for them. */
export async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
}

/** CPU time a process has used (user + system), in clock ticks (/proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // the process ended meanwhile
  }
}

/** CPU ticks of every process named postgres (the server and its backends). */
function postgresTicks(): number {
  let total = 0;
  for (const pid of execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).split('\n')) {
    if (pid.trim()) total += cpuTicks(Number(pid));
  }
  return total;
}

/**
 * Each named process's CPU share (% of one core) from `start()` to `stop()`, and all of PostgreSQL's
 * (`postgres`). A share near 100 % is a process the run saturated; the 2-core machine's total is 200 %.
 */
export class CpuShares {
  private before = new Map<string, number>();
  private started = 0;

  constructor(private readonly pids: Record<string, number>) {}

  start(): void {
    this.started = performance.now();
    this.before = new Map(Object.entries(this.pids).map(([name, pid]) => [name, cpuTicks(pid)]));
    this.before.set('postgres', postgresTicks());
  }

  stop(): Record<string, number> {
    const seconds = (performance.now() - this.started) / 1000;
    const shares: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids))
      shares[name] = share(cpuTicks(pid) - (this.before.get(name) ?? 0), seconds);
    shares.postgres = share(postgresTicks() - (this.before.get('postgres') ?? 0), seconds);
    return shares;
  }
}

/** Ticks (100 a second) over a wall time, as a percentage of one core. */
const share = (ticks: number, seconds: number) => (ticks / 100 / seconds) * 100;

/** `name 74 %, name 12 %` */
export const sharesText = (shares: Record<string, number>) =>
  Object.entries(shares)
    .map(([name, value]) => `${name} ${value.toFixed(0)} %`)
    .join(', ');

const PURSER = new URL('../bin/purser.js', import.meta.url);

/**
 * Starts a Purser process as an operator runs it (`bin/purser.js`, the compiled service): `serve
 * --role api` on a free loopback port, ready once `/readyz` answers 200, or `worker`, ready at its
 * `worker started` line. Logs at warn: a log line per request would be the benchmark's cost.
 */
export async function startPurser(
  role: 'api' | 'worker',
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string | null }> {
  const common = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', PURSER_DEMO: 'off', ...env };
  if (role === 'worker') {
    const { child } = await startScript(
      PURSER,
      ['worker'],
      { HEALTH_PORT: '0', ...common },
      /worker started/,
    );
    return { child, url: null };
  }
  const port = await freePort();
  const child = spawn(process.execPath, [PURSER.pathname, 'serve', '--role', 'api'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), ...common },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`purser serve exited (${child.exitCode}) before it was ready`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { child, url };
    if (Date.now() > deadline) throw new Error('purser serve was not ready within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
