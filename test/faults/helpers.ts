import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `condition` (errors count as false) until it holds; fails after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await Promise.resolve(condition()).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The JSON log lines in a process's output (anything else on it is skipped). */
// biome-ignore lint/suspicious/noExplicitAny: log records are read loosely
export function jsonLines(output: string): Record<string, any>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}
