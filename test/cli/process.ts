import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/purser.js', import.meta.url));

/** The test runner's environment without what Vite adds to it (it sets BASE_URL to "/"). */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { BASE_URL: _base, MODE: _mode, DEV: _dev, PROD: _prod, SSR: _ssr, ...rest } = process.env;
  return { ...rest, ...env };
}

/** Runs `purser …` to completion. */
export function purser(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Bounded: a command that hangs fails its test with what it printed, not the test's timeout.
    const options = { env: childEnv(env), timeout: 120_000, killSignal: 'SIGKILL' as const };
    execFile(process.execPath, [BIN, ...args], options, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/**
 * Starts `purser serve` (or `args`) and resolves once it listens, with its address and everything it
 * printed. The worker role's address is its health port's, from its `worker started` line.
 */
export async function startServer(
  env: Record<string, string>,
  args: string[] = ['serve'],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
    const check = () => {
      const match =
        /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output) ??
        /"msg":"worker started","health":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

/** The child's exit code once it has exited; fails when it is still running after `withinMs`. */
export function exited(child: ChildProcess, withinMs = 90_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `process ${child.pid} (${child.spawnargs.slice(1).join(' ')}) still running after ${withinMs} ms`,
          ),
        ),
      withinMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}
