/**
 * bench/api `--pg`: authenticated `GET /api/v2` on PostgreSQL with one API process and with
 * `--processes N` (`purser serve --role api`, the compiled service, as an operator runs it) sharing
 * one scratch database, next to the same run's ceiling: the bare Fastify route (bench/api/servers.ts)
 * in its own process with the same connections. Prints req/s (median of rounds) and each process's
 * CPU share of one core over the rounds (the API processes', the bare one's, all of PostgreSQL's),
 * and the load average: on a shared 2-core machine the shares say what limited each figure.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { CpuShares, sharesText, startPurser, startScript, stopAll, withScratchDatabase } from '../pg.ts';
import { median } from '../servers-process.ts';

interface Options {
  seconds: number;
  rounds: number;
  connections: number;
  processes: number;
}

export async function benchApiOnPostgres(options: Options): Promise<void> {
  const load = [loadavg()];
  const lines: string[] = [];
  await withScratchDatabase('bench/api', async (dbUrl) => {
    const env = {
      DATABASE_URL: dbUrl,
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      TOKEN_RATE_LIMIT: '1000000',
    };
    // The organization, on the migrated database.
    const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'warn' }));
    const org = await ctx.orgs.createOrganization({ name: 'Bench', billingEmail: 'bench@bench.test' });
    await ctx.close();

    const round = async (urls: string[], headers: Record<string, string>, seconds: number) => {
      const each = Math.max(1, Math.round(options.connections / urls.length));
      const runs = await Promise.all(
        urls.map((url) =>
          autocannon({ url: `${url}/api/v2`, headers, connections: each, duration: seconds }),
        ),
      );
      const failed = runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0);
      if (failed > 0) throw new Error(`${failed} requests failed (non-2xx or errors)`);
      return runs.reduce((sum, run) => sum + run.requests.average, 0);
    };
    const measure = async (urls: string[], pids: Record<string, number>, headers: Record<string, string>) => {
      await round(urls, headers, 1); // warm up
      // The load generator (autocannon, this process) shares the two cores.
      const shares = new CpuShares({ ...pids, 'load generator': process.pid });
      shares.start();
      const rps: number[] = [];
      for (let r = 0; r < options.rounds; r++) rps.push(await round(urls, headers, options.seconds));
      return {
        rps: median(
          rps.map((value) => ({ value })),
          'value',
        ),
        rounds: rps,
        shares: shares.stop(),
      };
    };
    const text = (label: string, m: Awaited<ReturnType<typeof measure>>) =>
      `  ${label}: median ${m.rps.toFixed(0)} req/s (rounds ${m.rounds.map((r) => r.toFixed(0)).join(', ')})\n` +
      `    CPU share (of one core): ${sharesText(m.shares)}`;

    const bare = await startScript(new URL('./servers.ts', import.meta.url), ['bare'], {
      BENCH_INFO: JSON.stringify({ organizationId: org.organization_id }),
    });
    try {
      const { bareUrl } = JSON.parse(bare.line) as { bareUrl: string };
      lines.push(
        text(
          'bare Fastify GET /api/v2 (no auth, no database; the ceiling)',
          await measure([bareUrl], { bare: bare.child.pid as number }, {}),
        ),
      );
    } finally {
      await stopAll([bare.child]);
    }
    for (const count of [...new Set([1, options.processes])]) {
      const servers = await Promise.all(Array.from({ length: count }, () => startPurser('api', env)));
      try {
        const urls = servers.map((s) => s.url as string);
        const minted = await fetch(`${urls[0]}/api/v2/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: org.sandbox.client_id,
            client_secret: org.sandbox.client_secret,
          }),
        });
        const { access_token } = (await minted.json()) as { access_token: string };
        const pids = Object.fromEntries(servers.map((s, i) => [`api${i + 1}`, s.child.pid as number]));
        const m = await measure(urls, pids, { authorization: `Bearer ${access_token}` });
        lines.push(text(`Purser, ${count} API process${count > 1 ? 'es' : ''} (platform token)`, m));
      } finally {
        await stopAll(servers.map((s) => s.child));
      }
    }
  });
  load.push(loadavg());
  console.log(
    `bench/api --pg  (${options.rounds} × ${options.seconds}s each, ${options.connections} connections split over the processes, loopback, PostgreSQL)`,
  );
  console.log(lines.join('\n'));
  console.log(
    `  load average before / after: ${load.map((l) => l.map((v) => v.toFixed(2)).join(' ')).join(' / ')}`,
  );
}
