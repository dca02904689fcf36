/**
 * bench/cards `--pg`: card authorizations on PostgreSQL, with one API process and with `--processes N`
 * of them sharing one database, next to pgbench's default TPC-B rate on the same server in the same
 * run (its ceiling on this machine). Everything runs on loopback, on a scratch database created for
 * the run and dropped after it (`BENCH_PG_URL`, default the local server's `postgres` database, names
 * where to create it).
 *
 * Prints, for 1 and N processes: authorizations/s (closed loop, `--connections` in flight, split over
 * the processes), the decision latency p50/p99 at a fixed 200 authorizations/s (open loop), each
 * process's CPU share (of one core) during the throughput runs, and the load average. Targets: N
 * processes ≥ 1.5 × one; p99 < 25 ms at 200/s; authorizations/s ≥ 0.3 × pgbench. Then, for each
 * count, `--company-cards` single-use company-funded cards charged once each (`--connections` in
 * flight): each approval closes its card and sends its rest back to the organization's pool, which
 * takes it without a lock (figures beside the multi-use ones, no target of their own).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { type FixedRateRun, fixedRate } from '../fixed-rate.ts';
import { CpuShares, exited, startScript, stopAll, withScratchDatabase } from '../pg.ts';

const FIXED_RATE = 200;
const TARGET_SCALING = 1.5;
const TARGET_P99_MS = 25;
const TARGET_OF_PGBENCH = 0.3;

interface Options {
  seconds: number;
  rounds: number;
  connections: number;
  processes: number;
  /** Single-use company-funded cards charged once each, per process count. */
  companyCards: number;
}

/** What one process count did: the closed loop, the fixed rate, CPU shares, the company-card phase. */
interface CountRun {
  processes: number;
  rps: number;
  fixed: FixedRateRun;
  cpu: number[];
  postgres: number;
  company: CompanyRun;
}

/** The single-use company-funded phase: each card's one approval, a fixed count, closed loop. */
interface CompanyRun {
  count: number;
  rps: number;
  p50: number;
  p99: number;
}

export async function benchOnPostgres(options: Options): Promise<void> {
  // The processes of one run share one key (a sealed value one writes, another may read).
  const key = randomBytes(32).toString('base64');
  const startRole = (dbUrl: string, ...args: string[]) =>
    startScript(new URL('./pg-server.ts', import.meta.url), args, {
      BENCH_DATABASE_URL: dbUrl,
      ENCRYPTION_KEY: key,
    });
  const load = [loadavg()];
  await withScratchDatabase('bench/cards', async (dbUrl) => {
    const pgbench = runPgbench(dbUrl, options);
    const counts = [...new Set([1, options.processes])];
    const setup = await startRole(dbUrl, 'setup', String(options.companyCards * counts.length));
    const { token, cardIds, companyCardIds } = JSON.parse(setup.line) as {
      token: string;
      cardIds: string[];
      companyCardIds: string[];
    };
    await exited(setup.child);
    const results: CountRun[] = [];
    for (const count of counts) {
      const servers = await Promise.all(Array.from({ length: count }, () => startRole(dbUrl, 'serve')));
      try {
        const urls = servers.map((s) => (JSON.parse(s.line) as { url: string }).url);
        const load = new Authorizations(urls, token, cardIds);
        await load.closedLoop(1, options.connections); // warm up
        const rps: number[] = [];
        const shares = new CpuShares(
          Object.fromEntries(servers.map((s, i) => [String(i), s.child.pid as number])),
        );
        shares.start();
        for (let round = 0; round < options.rounds; round++)
          rps.push(await load.closedLoop(options.seconds, options.connections));
        const { postgres = 0, ...cpu } = shares.stop();
        const fixed = await load.fixedRate(options.seconds * 2);
        const mine = companyCardIds.splice(0, options.companyCards);
        const company = await load.onceEach(mine, options.connections);
        results.push({
          processes: count,
          rps: median(rps),
          fixed,
          cpu: Object.values(cpu),
          postgres,
          company,
        });
      } finally {
        await stopAll(servers.map((s) => s.child));
      }
    }
    load.push(loadavg());
    const verify = await startRole(dbUrl, 'verify');
    const violations = (JSON.parse(verify.line) as { violations: unknown[] }).violations;
    await exited(verify.child);
    report(options, results, pgbench, violations.length, load);
  });
}

/** pgbench's default (TPC-B-like) script on the scratch database, as many clients as our connections. */
function runPgbench(url: string, options: Options): { tps: number; command: string } {
  execFileSync('pgbench', ['-i', '-q', '-s', '10', url], { stdio: 'ignore' });
  const args = ['-c', String(options.connections), '-j', '2', '-T', String(options.seconds * 2), url];
  const out = execFileSync('pgbench', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 'NaN');
  return { tps, command: `pgbench -s 10 ${args.slice(0, -1).join(' ')}` };
}

class Authorizations {
  private next = 0;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly urls: string[],
    token: string,
    private readonly cardIds: string[],
  ) {
    this.headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  }

  /** One cent on the next card in turn: every request is a fresh authorization. */
  body = () =>
    JSON.stringify({
      card_id: this.cardIds[this.next++ % this.cardIds.length],
      amount_cents: 1,
      merchant: 'Bench Shop',
      mcc: '5411',
    });

  /** `connections` in flight, split over the processes; authorizations/s over them all. */
  async closedLoop(seconds: number, connections: number): Promise<number> {
    const each = Math.max(1, Math.round(connections / this.urls.length));
    const runs = await Promise.all(
      this.urls.map((url) =>
        autocannon({
          url: `${url}/api/v2/simulate/authorize`,
          method: 'POST',
          headers: this.headers,
          connections: each,
          duration: seconds,
          requests: [{ setupRequest: (request) => ({ ...request, body: this.body() }) }],
        }),
      ),
    );
    const failed = runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0);
    if (failed > 0) throw new Error(`${failed} authorizations failed (non-2xx or errors)`);
    return runs.reduce((sum, run) => sum + run.requests.average, 0);
  }

  /**
   * One charge of 100 cents on each of `cards`, `connections` in flight, spread over the processes:
   * authorizations/s and the latency (the worst process's p50 and p99). Every one must answer 200.
   */
  async onceEach(cards: string[], connections: number): Promise<CompanyRun> {
    if (cards.length === 0) return { count: 0, rps: 0, p50: 0, p99: 0 };
    let next = 0;
    const body = () =>
      JSON.stringify({ card_id: cards[next++], amount_cents: 100, merchant: 'Bench Shop', mcc: '5411' });
    // The cards split over the processes, `connections` in flight in all; every card charged once.
    const share = Math.ceil(cards.length / this.urls.length);
    const each = Math.max(1, Math.round(connections / this.urls.length));
    const started = performance.now();
    const runs = await Promise.all(
      this.urls.map((url, i) =>
        autocannon({
          url: `${url}/api/v2/simulate/authorize`,
          method: 'POST',
          headers: this.headers,
          connections: each,
          amount: Math.min(share, cards.length - i * share),
          requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const failed = runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0);
    if (failed > 0) throw new Error(`${failed} company-card authorizations failed (non-2xx or errors)`);
    return {
      count: cards.length,
      rps: cards.length / seconds,
      p50: Math.max(...runs.map((run) => run.latency.p50)),
      p99: Math.max(...runs.map((run) => run.latency.p99)),
    };
  }

  /** At `FIXED_RATE`, evenly spaced; requests that failed are counted in the run (and fail its target). */
  fixedRate(seconds: number): Promise<FixedRateRun> {
    return fixedRate({
      url: this.urls.map((url) => `${url}/api/v2/simulate/authorize`),
      method: 'POST',
      headers: this.headers,
      body: this.body,
      rate: FIXED_RATE,
      seconds,
    });
  }
}

function report(
  options: Options,
  results: CountRun[],
  pgbench: { tps: number; command: string },
  violations: number,
  load: number[][],
): void {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const one = results[0];
  const many = results.at(-1);
  if (!one || !many) return;
  console.log(
    `bench/cards --pg  (${options.rounds} × ${options.seconds}s each, ${options.connections} connections, loopback, PostgreSQL)`,
  );
  console.log(`  pgbench TPC-B (${pgbench.command}): ${pgbench.tps.toFixed(0)} tps`);
  for (const r of results) {
    console.log(
      `  ${r.processes} API process${r.processes > 1 ? 'es' : ''}: median ${r.rps.toFixed(0)} auth/s ` +
        `(${(r.rps / pgbench.tps).toFixed(2)} × pgbench); at ${FIXED_RATE}/s p50 ${ms(r.fixed.p50)} p99 ${ms(r.fixed.p99)} max ${ms(r.fixed.max)}` +
        (r.fixed.failed > 0 ? `, ${r.fixed.failed} FAILED ${JSON.stringify(r.fixed.failures)}` : ''),
    );
    console.log(
      `    CPU share (of one core) while saturated: ${r.cpu.map((c) => `${c.toFixed(0)} %`).join(', ')}; all postgres processes ${r.postgres.toFixed(0)} %`,
    );
    if (r.company.count > 0)
      console.log(
        `    single-use company-funded cards, ${r.company.count} charged once each (each approval closes its card, the rest back to the pool): ` +
          `${r.company.rps.toFixed(0)} auth/s, p50 ${ms(r.company.p50)} p99 ${ms(r.company.p99)}`,
      );
  }
  const scaling = many.rps / one.rps;
  const worstP99 = Math.max(...results.map((r) => r.fixed.p99));
  const fixedFailed = results.some((r) => r.fixed.failed > 0);
  const best = Math.max(...results.map((r) => r.rps));
  console.log(
    `  ${many.processes} processes / one: ${scaling.toFixed(2)}  (target ≥ ${TARGET_SCALING}: ${verdict(scaling >= TARGET_SCALING)})`,
  );
  console.log(
    `  p99 at ${FIXED_RATE}/s: ${ms(worstP99)}  (target < ${TARGET_P99_MS} ms, none failed: ${verdict(worstP99 < TARGET_P99_MS && !fixedFailed)})`,
  );
  console.log(
    `  best auth/s / pgbench: ${(best / pgbench.tps).toFixed(2)}  (target ≥ ${TARGET_OF_PGBENCH}: ${verdict(best / pgbench.tps >= TARGET_OF_PGBENCH)})`,
  );
  console.log(
    `  load average before / after: ${load.map((l) => l.map((v) => v.toFixed(2)).join(' ')).join(' / ')}`,
  );
  console.log(
    `  purser ledger verify after the run: ${violations === 0 ? 'ok' : `${violations} violations`}`,
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
