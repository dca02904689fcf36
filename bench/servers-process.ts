/**
 * What the HTTP benchmarks share: each server they compare (Purser and the bare route) runs in a
 * process of its own, so that the load generator does not share their event loop and each one's
 * CPU time can be read from outside (bench/cpu.ts). A benchmark's `servers.ts` names the two roles
 * (`serveRoles`); the bare one is started second, with what Purser's printed. Rounds are compared by
 * their medians (a shared 2-core machine drifts within a run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

type Role = 'purser' | 'bare';

async function startRole<Info>(runUrl: string, role: Role, env: Record<string, string> = {}) {
  // BENCH_NODE_ARGS: more arguments for the servers' Node, such as `--cpu-prof --cpu-prof-dir=DIR`.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const script = new URL('./servers.ts', runUrl).pathname;
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, role], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the ${role} server exited (${code}) before serving`)));
  });
  return { child, info: JSON.parse(line) as Info };
}

const exited = (child: ChildProcess) =>
  new Promise<number>((resolve) =>
    child.exitCode === null ? child.once('exit', (code) => resolve(code ?? 1)) : resolve(child.exitCode),
  );

/**
 * Starts Purser, then the bare server given Purser's line (`BENCH_INFO`), from `servers.ts` beside the
 * calling benchmark. `stop()` ends both and resolves with the Purser process's exit code.
 */
export async function startServers<Info>(runUrl: string) {
  const purser = await startRole<Info>(runUrl, 'purser');
  const bare = await startRole<{ bareUrl: string }>(runUrl, 'bare', {
    BENCH_INFO: JSON.stringify(purser.info),
  });
  return {
    info: { ...purser.info, bareUrl: bare.info.bareUrl },
    pids: { purser: purser.child.pid!, bare: bare.child.pid! },
    async stop(): Promise<number> {
      purser.child.kill('SIGTERM');
      bare.child.kill('SIGTERM');
      const [code] = await Promise.all([exited(purser.child), exited(bare.child)]);
      return code;
    },
  };
}

interface Served<Info> {
  info: Info;
  /** Called on SIGTERM; the process exits with the number it returns (0 when none). */
  close: () => Promise<unknown>;
}

/**
 * The server side, in a benchmark's `servers.ts`: runs the role named on the command line, prints its
 * line, and closes on SIGTERM. Purser's role is a function, so that the bare process does not set it up.
 */
export async function serveRoles<Info>(roles: {
  purser: () => Promise<Served<Info>>;
  bare: (purser: Info) => Promise<Served<{ bareUrl: string }>>;
}): Promise<void> {
  const role = process.argv[2] as Role;
  const served =
    role === 'bare'
      ? await roles.bare(JSON.parse(process.env.BENCH_INFO ?? '{}') as Info)
      : await roles.purser();
  process.stdout.write(`${JSON.stringify(served.info)}\n`);
  process.once('SIGTERM', async () => {
    const code = await served.close();
    process.exit(typeof code === 'number' ? code : 0);
  });
}

export function median<Run>(runs: Run[], key: keyof Run): number {
  const sorted = runs.map((run) => run[key] as number).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
