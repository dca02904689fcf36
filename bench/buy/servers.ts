/**
 * The two servers the purchase benchmark compares, in one process: Purser on a fresh SQLite database
 * (a connected sandbox user with a funded wallet), and a bare Fastify route answering a POST with a
 * JSON body of an envelope's size, without authentication. Prints one JSON line with both addresses
 * and the user's connection token, then serves until killed.
 */
import Fastify from 'fastify';
import { startPurserWithUser } from '../user-server.ts';

const { ctx, app, purserUrl, platform, call, user, token } = await startPurserWithUser();
await call('/api/v2/simulate/wallet_funding', platform, { user_id: user.id, amount_cents: 100_000_000 });

const bare = Fastify({ logger: false });
const sample = await call('/buy', token, { ask: '2 lattes from coffee' });
bare.post('/buy', async () => sample);
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ purserUrl, bareUrl, token })}\n`);
process.on('SIGTERM', async () => {
  const violations = await ctx.ledger.verify();
  process.stderr.write(
    `  ledger verify after the run: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}\n`,
  );
  await app.close();
  await bare.close();
  await ctx.close();
  process.exit(0);
});
