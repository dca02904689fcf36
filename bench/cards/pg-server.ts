/**
 * One process of bench/cards `--pg`, on the PostgreSQL database named by `BENCH_DATABASE_URL`:
 *
 *   setup   creates the organization, an approved funded user and the cards (setup.ts), and as
 *           many single-use company-funded cards as its argument says; prints
 *           `{"token","cardIds","companyCardIds"}` and exits;
 *   serve   runs the API (no worker), prints `{"url"}` once listening, and stops on SIGTERM;
 *   verify  runs `purser ledger verify` on what the run left (after folding the mirror deltas),
 *           prints `{"violations"}` and exits 1 when there are any.
 */
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';

const role = process.argv[2];
const url = process.env.BENCH_DATABASE_URL;
if (!url?.startsWith('postgres')) throw new Error('BENCH_DATABASE_URL must name the PostgreSQL database');

if (role === 'setup') {
  const { app, cardIds, companyCards, ctx, token } = await import('./setup.ts');
  const companyCardIds = await companyCards(Number(process.argv[3] ?? 0));
  process.stdout.write(`${JSON.stringify({ token, cardIds, companyCardIds })}\n`);
  await app.close();
  await ctx.close();
} else {
  const config = loadConfig({
    DATABASE_URL: url,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    TOKEN_RATE_LIMIT: '1000000',
    CARD_MAX_AMOUNT_CENTS: '100000000',
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
  });
  const ctx = await createContext(config, { migrate: false });
  if (role === 'verify') {
    while ((await ctx.ledger.foldDeltas()) > 0);
    const violations = await ctx.ledger.verify();
    process.stdout.write(`${JSON.stringify({ violations })}\n`);
    await ctx.close();
    process.exit(violations.length === 0 ? 0 : 1);
  }
  const app = await buildApp(ctx);
  const listening = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ url: listening })}\n`);
  process.on('SIGTERM', async () => {
    await app.close();
    await ctx.close();
    process.exit(0);
  });
}
