/**
 * CPU time per request, the figure a loaded machine does not distort: the user + system time a
 * server process spent over a round, divided by the requests it answered in it. Throughput on a
 * shared 2-core machine is partly the load generator's and the neighbours' ceiling; the CPU a
 * request costs is the server's own. Every benchmark measures each server it compares this way,
 * round by round, and prints the bare-to-Purser ratio of the medians beside the requests per second
 * and the load average.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * User + system CPU time, in µs, a process has used so far, all its threads: for this process from
 * `process.cpuUsage()`, for another from `/proc/<pid>/stat` (clock ticks, 10 ms: rounds last seconds).
 */
export function cpuMicros(pid: number = process.pid): number {
  if (pid === process.pid) {
    const { user, system } = process.cpuUsage();
    return user + system;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name, in parentheses, may hold spaces; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

/**
 * CPU time, in µs, one thread of a process has run so far (`/proc/<pid>/task/<tid>/schedstat`, in
 * ns): a server's main thread, whose tid is its pid, is the one every request waits for.
 */
export function threadCpuMicros(pid: number, tid: number = pid): number {
  const [runNs] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ');
  return Number(runNs) / 1000;
}

/** One server's CPU per request, round by round. */
export class CpuMeter {
  /** µs of CPU per request answered, one entry per round. */
  readonly rounds: number[] = [];

  constructor(readonly pid: number = process.pid) {}

  /** Runs a round and records its CPU per request; `answered` says how many requests it answered. */
  async round<Result>(run: () => Promise<Result>, answered: (result: Result) => number): Promise<Result> {
    const before = cpuMicros(this.pid);
    const result = await run();
    this.rounds.push((cpuMicros(this.pid) - before) / Math.max(answered(result), 1));
    return result;
  }

  get median(): number {
    const sorted = [...this.rounds].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  }
}

const µs = (value: number) => `${value.toFixed(1)} µs`;

export const loadAverage = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${availableParallelism()} cores`;

/**
 * The lines every benchmark prints: each server's CPU per request (median and rounds), the ratio of
 * bare to Purser (the target is on it), and the load average now.
 */
export function cpuLines(options: {
  bare: CpuMeter;
  purser: CpuMeter;
  /** None: the ratio is printed, no target is held to it. */
  target?: number;
  unit?: string;
  /** The plural of `unit` when not `unit` + s. */
  units?: string;
}): string[] {
  const { bare, purser, target } = options;
  const unit = options.unit ?? 'request';
  const units = options.units ?? `${unit}s`;
  const ratio = bare.median / purser.median;
  const rounds = (meter: CpuMeter) => meter.rounds.map((r) => r.toFixed(1)).join(', ');
  return [
    `  CPU per ${unit} (user + system of the server process ÷ ${units} answered, median of rounds):`,
    `    bare   ${µs(bare.median)}  (rounds: ${rounds(bare)})`,
    `    Purser ${µs(purser.median)}  (rounds: ${rounds(purser)})`,
    `    ratio bare/Purser ${ratio.toFixed(2)}${target === undefined ? '' : `  (target ≥ ${target}: ${ratio >= target ? 'MET' : 'NOT MET'})`}`,
    `  ${loadAverage()}`,
  ];
}

/** A lone server's CPU per request, with no bare one to compare (a line to print). */
export const cpuLine = (label: string, meter: CpuMeter) =>
  `  CPU per ${label}: ${µs(meter.median)} (rounds: ${meter.rounds.map((r) => r.toFixed(1)).join(', ')})`;
