/**
 * The two servers bench/cards compares, in one process: Purser on a fresh SQLite database with an
 * approved, funded user and cards to charge, and a bare Fastify route doing one SQLite insert per
 * request. Prints one JSON line with both addresses, a platform token and the card ids.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { groupCommitOf } from '../../src/db/write-transaction.ts';
import { app, cardIds, ctx, dir, token } from './setup.ts';

const purserUrl = await app.listen({ port: 0, host: '127.0.0.1' });

// The floor to compare with: one prepared SQLite insert per request, same journal settings.
const bareDb = new SQLite(join(dir, 'bare.db'));
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

process.stdout.write(`${JSON.stringify({ purserUrl, bareUrl, token, cardIds })}\n`);
process.on('SIGTERM', async () => {
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
  await bare.close();
  await ctx.close();
  process.exit(violations.length === 0 ? 0 : 1);
});
