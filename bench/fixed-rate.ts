/**
 * An open-loop load generator: requests leave at a fixed rate, evenly spaced, whatever the server
 * answers. (autocannon's `overallRate` lets each connection send its quota for the second back to
 * back at the start of the second, then pause: that measures the server at full load for part of
 * each second, not at the rate.) Latency runs from when a request is handed to the HTTP client to
 * its answer's end. Sends never wait for answers (up to 256 connections, then the client's queue,
 * which is timed too), so a server that falls behind is charged for its backlog.
 */
import { Agent, request } from 'node:http';

export interface FixedRateRun {
  /** Requests answered per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
  /** The failures by status (0: no answer). */
  failures: Record<number, number>;
}

export async function fixedRate(options: {
  /** Several: the requests go to each in turn (one service behind several processes). */
  url: string | string[];
  method: string;
  headers: Record<string, string>;
  /** The body of the i-th request. */
  body: (i: number) => string;
  rate: number;
  seconds: number;
}): Promise<FixedRateRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const targets = (Array.isArray(options.url) ? options.url : [options.url]).map((url) => new URL(url));
  const send = (i: number) =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const sentAt = performance.now();
      const payload = options.body(i);
      const target = targets[i % targets.length] as URL;
      const outgoing = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: options.method,
          headers: { ...options.headers, 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, ms: performance.now() - sentAt }),
          );
        },
      );
      outgoing.on('error', () => resolve({ status: 0, ms: 0 }));
      outgoing.end(payload);
    });

  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let failed = 0;
  const failures: Record<number, number> = {};
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        pending.push(
          send(sent).then(({ status, ms }) => {
            if (status >= 200 && status < 300) latencies.push(ms);
            else {
              failed++;
              failures[status] = (failures[status] ?? 0) + 1;
            }
          }),
        );
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else done();
    };
    tick();
  });
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? 0,
    failed,
    failures,
  };
}
