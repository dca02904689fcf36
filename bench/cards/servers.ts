/**
 * The two servers bench/cards compares, each in its own process (`serveRoles`): Purser on a fresh
 * SQLite database with an approved, funded user and cards to charge (setup.ts), and a bare Fastify
 * route doing one SQLite insert per request. Purser's line carries its address, a platform token and
 * the card ids; on SIGTERM it runs `ledger verify` and exits 1 when it finds anything.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { groupCommitOf } from '../../src/db/write-transaction.ts';
import { serveRoles } from '../servers-process.ts';
import { benchDir } from '../temp-dir.ts';

await serveRoles<{ purserUrl: string; token: string; cardIds: string[] }>({
  async purser() {
    const { app, cardIds, ctx, token } = await import('./setup.ts');
    const purserUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      info: { purserUrl, token, cardIds },
      close: async () => {
        const violations = await ctx.ledger.verify();
        process.stderr.write(
          `ledger verify after the run: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}\n`,
        );
        const group = groupCommitOf(ctx.db)?.stats;
        process.stderr.write(
          group
            ? `group commit: ${group.members} transactions in ${group.batches} commits (${(group.members / Math.max(group.batches, 1)).toFixed(2)} per commit, largest ${group.largest})\n`
            : 'group commit: off\n',
        );
        await app.close();
        await ctx.close();
        return violations.length === 0 ? 0 : 1;
      },
    };
  },
  // The floor to compare with: one prepared SQLite insert per request, same journal settings.
  async bare() {
    const bareDb = new SQLite(join(benchDir('purser-bench-cards-bare-'), 'bare.db'));
    bareDb.pragma('journal_mode = WAL');
    bareDb.pragma('synchronous = NORMAL');
    bareDb.exec(
      'create table charges (id integer primary key, card_id text not null, amount integer not null, merchant text not null)',
    );
    const insert = bareDb.prepare('insert into charges (card_id, amount, merchant) values (?, ?, ?)');
    const bare = Fastify({ logger: false });
    bare.post('/api/v2/simulate/authorize', async (request) => {
      const body = request.body as { card_id: string; amount_cents: number; merchant: string };
      const { lastInsertRowid } = insert.run(body.card_id, body.amount_cents, body.merchant);
      return { object: 'transaction', id: String(lastInsertRowid), status: 'PENDING' };
    });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    return {
      info: { bareUrl },
      close: async () => {
        await bare.close();
        bareDb.close();
      },
    };
  },
});
