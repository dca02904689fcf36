/**
 * The two servers the MCP benchmark compares, each in its own process (`serveRoles`): Purser's tool
 * server on a fresh SQLite database, and a bare Fastify route answering a JSON-RPC POST with the same
 * whoami result, without authentication or the MCP SDK. Purser's line carries its address, a
 * connection token (connect start + verify with the sandbox code) and the whoami answer's fields.
 */
import Fastify from 'fastify';
import { serveRoles } from '../servers-process.ts';
import { startPurserWithUser } from '../user-server.ts';

interface Info {
  purserUrl: string;
  token: string;
  structured: { user: { id: string; email: string } } & Record<string, unknown>;
}

await serveRoles<Info>({
  async purser() {
    const { ctx, app, purserUrl, org, user, token } = await startPurserWithUser({
      AUTH_CACHE_TTL_MS: process.env.AUTH_CACHE_TTL_MS,
    });
    const structured = {
      user,
      client_id: org.sandbox.client_id,
      connection_id: 'conn_bench',
      organization_id: org.organization_id,
      test_mode: true,
    };
    return {
      info: { purserUrl, token, structured },
      close: async () => {
        await app.close();
        await ctx.close();
      },
    };
  },
  async bare({ structured }) {
    const { user } = structured;
    const bare = Fastify({ logger: false });
    bare.post('/mcp', async (request) => ({
      jsonrpc: '2.0',
      id: (request.body as { id: number }).id,
      result: {
        content: [{ type: 'text', text: `Connected as user ${user.id} (${user.email}), test mode.` }],
        structuredContent: structured,
      },
    }));
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    return { info: { bareUrl }, close: () => bare.close() };
  },
});
