/**
 * The two servers the MCP benchmark compares, in one process: Purser's tool server on a fresh SQLite
 * database, and a bare Fastify route answering a JSON-RPC POST with the same whoami result, without
 * authentication or the MCP SDK. Prints one JSON line with both addresses and a connection token
 * (connect start + verify with the sandbox code), then serves until killed.
 */
import Fastify from 'fastify';
import { startPurserWithUser } from '../user-server.ts';

const { ctx, app, purserUrl, org, user, token } = await startPurserWithUser({
  AUTH_CACHE_TTL_MS: process.env.AUTH_CACHE_TTL_MS,
});

const bare = Fastify({ logger: false });
const structured = {
  user,
  client_id: org.sandbox.client_id,
  connection_id: 'conn_bench',
  organization_id: org.organization_id,
  test_mode: true,
};
bare.post('/mcp', async (request) => ({
  jsonrpc: '2.0',
  id: (request.body as { id: number }).id,
  result: {
    content: [{ type: 'text', text: `Connected as user ${user.id} (${user.email}), test mode.` }],
    structuredContent: structured,
  },
}));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ purserUrl, bareUrl, token })}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await ctx.close();
  process.exit(0);
});
