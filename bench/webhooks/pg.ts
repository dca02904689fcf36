/**
 * bench/webhooks `--pg`: webhook events end to end on PostgreSQL, with 1 and `--processes N` API
 * processes and 1 and `--workers M` worker processes (`purser serve --role api`, `purser worker`:
 * the compiled service, as an operator runs it) on one scratch database, next to the same run's
 * ceiling, the bare signed sender (bare.ts) posting to the same receiver with no storage.
 *
 * End to end: `--events` test events asked for through the API (`POST
 * /api/v1/webhook_endpoints/{id}/test`, each one transaction writing the event and its delivery),
 * 16 requests in flight split over the API processes, the workers delivering meanwhile (woken by
 * LISTEN/NOTIFY); events/s from the first request to the last arrival at the receiver. Prints each
 * process's CPU share of one core over the rounds (API processes, workers, all of PostgreSQL) and
 * the load average.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { CpuShares, sharesText, startPurser, stopAll, withScratchDatabase } from '../pg.ts';
import { startReceiver } from './arrivals.ts';
import { bareRate, bareSender } from './bare.ts';

interface Options {
  events: number;
  rounds: number;
  processes: number;
  workers: number;
}

/** Requests in flight asking for test events, over all API processes. */
const IN_FLIGHT = 16;
const now = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export async function benchWebhooksOnPostgres(options: Options): Promise<void> {
  const load = [loadavg()];
  const lines: string[] = [];
  const receiver = await startReceiver();
  try {
    await withScratchDatabase('bench/webhooks', async (dbUrl) => {
      const env = {
        DATABASE_URL: dbUrl,
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        // The receiver is on loopback, which deliveries refuse unless the operator allows it.
        WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
      };
      const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'warn' }));
      const org = await ctx.orgs.createOrganization({ name: 'Bench', billingEmail: 'bench@bench.test' });
      const owner = { organizationId: org.organization_id, livemode: false };
      const endpoint = await ctx.events.createEndpoint(owner, {
        url: receiver.url.toString(),
        enabled_events: ['*'],
      });
      const concurrency = ctx.config.webhooks.concurrency;
      await ctx.close();

      // The ceiling: the bare sender, in this process.
      const send = bareSender(receiver.url, endpoint.secret!, { id: 'card_bench', last4: '4242' });
      await bareRate(send, receiver.waitForArrivals, 200, concurrency); // warm up
      const bareShares = new CpuShares({ bench: process.pid, receiver: receiver.pid });
      bareShares.start();
      const bare: number[] = [];
      for (let r = 0; r < options.rounds; r++)
        bare.push(await bareRate(send, receiver.waitForArrivals, options.events, concurrency));
      lines.push(
        `  bare signed sender (the ceiling): median ${median(bare).toFixed(0)} deliveries/s (rounds ${bare.map((r) => r.toFixed(0)).join(', ')})`,
        `    CPU share (of one core): ${sharesText(bareShares.stop())}`,
      );

      const headers = { authorization: `Bearer ${org.sandbox.api_key}`, 'content-type': 'application/json' };
      const shapes = [...new Set([1, options.processes])].flatMap((processes) =>
        [...new Set([1, options.workers])].map((workers) => ({ processes, workers })),
      );
      for (const { processes, workers } of shapes) {
        const apis = await Promise.all(Array.from({ length: processes }, () => startPurser('api', env)));
        const workerProcesses = await Promise.all(
          Array.from({ length: workers }, () => startPurser('worker', env)),
        );
        try {
          const urls = apis.map((a) => `${a.url}/api/v1/webhook_endpoints/${endpoint.id}/test`);
          /** `count` test events asked for, IN_FLIGHT at once round robin over the API processes; events/s end to end. */
          const run = async (count: number) => {
            const ids = new Set<string>();
            const started = now();
            let next = 0;
            await Promise.all(
              Array.from({ length: IN_FLIGHT }, async (_, lane) => {
                while (next < count) {
                  next++;
                  const answer = await fetch(urls[lane % urls.length] as string, {
                    method: 'POST',
                    headers,
                    body: '{}',
                  });
                  if (answer.status !== 202)
                    throw new Error(`test event: ${answer.status} ${await answer.text()}`);
                  ids.add(((await answer.json()) as { event_id: string }).event_id);
                }
              }),
            );
            const seen = new Map<string, number>();
            await receiver.waitForArrivals(ids, seen);
            return ids.size / ((Math.max(...[...ids].map((id) => seen.get(id) as number)) - started) / 1000);
          };
          await run(200); // warm up
          const pids = {
            ...Object.fromEntries(apis.map((a, i) => [`api${i + 1}`, a.child.pid as number])),
            ...Object.fromEntries(workerProcesses.map((w, i) => [`worker${i + 1}`, w.child.pid as number])),
            receiver: receiver.pid,
            // This process asks for the events (the load generator).
            bench: process.pid,
          };
          const shares = new CpuShares(pids);
          shares.start();
          const rates: number[] = [];
          for (let r = 0; r < options.rounds; r++) rates.push(await run(options.events));
          lines.push(
            `  Purser, ${processes} API process${processes > 1 ? 'es' : ''}, ${workers} worker${workers > 1 ? 's' : ''}: median ${median(rates).toFixed(0)} events/s end to end (rounds ${rates.map((r) => r.toFixed(0)).join(', ')}), ${(median(rates) / median(bare)).toFixed(2)} × the ceiling`,
            `    CPU share (of one core): ${sharesText(shares.stop())}`,
          );
        } finally {
          await stopAll([...apis, ...workerProcesses].map((p) => p.child));
        }
      }
    });
  } finally {
    receiver.stop();
  }
  load.push(loadavg());
  console.log(
    `bench/webhooks --pg  (${options.rounds} rounds of ${options.events} events, ${IN_FLIGHT} requests in flight, loopback, PostgreSQL)`,
  );
  console.log(lines.join('\n'));
  console.log(
    `  load average before / after: ${load.map((l) => l.map((v) => v.toFixed(2)).join(' ')).join(' / ')}`,
  );
}
