/**
 * The webhook benchmarks' receiver (receiver.ts) in its own process, and what the benchmark asks of
 * it: the arrivals since the last look, and waiting (bounded) until given events have all arrived.
 */
import { fork } from 'node:child_process';

const DEADLINE_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startReceiver() {
  const child = fork(new URL('./receiver.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', resolve as never));

  /** Arrivals the receiver has recorded since the last drain: event id → arrival time. */
  async function drain(): Promise<Map<string, number>> {
    child.send({ type: 'drain' });
    const { arrivals } = await new Promise<{ arrivals: string[] }>((resolve) =>
      child.once('message', resolve as never),
    );
    return new Map(
      arrivals.map((line) => {
        const [id, at] = line.split(' ');
        return [id as string, Number(at)];
      }),
    );
  }

  async function waitForArrivals(ids: Set<string>, seen: Map<string, number>): Promise<void> {
    const deadline = Date.now() + DEADLINE_MS;
    // Counted down as they arrive: a walk over every id at each look would charge the round's CPU.
    let missing = 0;
    for (const id of ids) if (!seen.has(id)) missing++;
    while (missing > 0) {
      if (Date.now() > deadline) throw new Error(`only ${ids.size - missing} of ${ids.size} arrived`);
      for (const [id, at] of await drain()) {
        if (seen.has(id)) continue;
        seen.set(id, at);
        if (ids.has(id)) missing--;
      }
      if (missing > 0) await sleep(20);
    }
  }

  return {
    url: new URL(`http://127.0.0.1:${port}/hooks`),
    pid: child.pid as number,
    drain,
    waitForArrivals,
    stop: () => child.send({ type: 'stop' }),
  };
}
