/**
 * The two servers the purchase benchmark compares, each in its own process (`serveRoles`): Purser on
 * a fresh SQLite database (a connected sandbox user with a funded wallet), and a bare Fastify route
 * answering a POST with the same envelope a turn answers, without authentication. Purser's line
 * carries its address, the user's connection token and a sample envelope.
 */
import Fastify from 'fastify';
import { serveRoles } from '../servers-process.ts';
import { startPurserWithUser } from '../user-server.ts';

await serveRoles<{ purserUrl: string; token: string; sample: unknown }>({
  async purser() {
    const { ctx, app, purserUrl, platform, call, user, token } = await startPurserWithUser();
    await call('/api/v2/simulate/wallet_funding', platform, { user_id: user.id, amount_cents: 100_000_000 });
    const sample = await call('/buy', token, { ask: '2 lattes from coffee' });
    return {
      info: { purserUrl, token, sample },
      close: async () => {
        const violations = await ctx.ledger.verify();
        process.stderr.write(
          `  ledger verify after the run: ${violations.length === 0 ? 'ok' : JSON.stringify(violations)}\n`,
        );
        await app.close();
        await ctx.close();
        return violations.length === 0 ? 0 : 1;
      },
    };
  },
  async bare({ sample }) {
    const bare = Fastify({ logger: false });
    bare.post('/buy', async () => sample);
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    return { info: { bareUrl }, close: () => bare.close() };
  },
});
