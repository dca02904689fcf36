/**
 * What the HTTP benchmarks share: their servers run in a process of their own (so the load generator
 * does not share their event loop) that prints one JSON line of addresses and credentials, and rounds
 * are compared by their medians (a shared 2-core machine drifts within a run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts `servers.ts` beside the calling benchmark and reads the line it prints when listening. */
export async function startServers<Info>(runUrl: string): Promise<{ servers: ChildProcess; info: Info }> {
  const servers = spawn(process.execPath, ['--import', 'tsx', new URL('./servers.ts', runUrl).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: servers.stdout! }).once('line', resolve),
  );
  return { servers, info: JSON.parse(line) as Info };
}

export function median<Run>(runs: Run[], key: keyof Run): number {
  const sorted = runs.map((run) => run[key] as number).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
