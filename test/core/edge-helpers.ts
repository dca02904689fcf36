import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/harness.ts';

/** Helpers of the edge sweeps: every route of the app, and the one error body. */

/** Every registered route, read from Fastify's own route tree. */
export function routes(app: FastifyInstance): { method: string; url: string }[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const found: { method: string; url: string }[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)/.exec(line);
    if (!match) continue;
    const depth = (match[1] as string).length / 4;
    stack.length = depth;
    stack.push(match[2] as string);
    const url = stack.join('');
    for (const method of (match[3] as string).split(', '))
      if (!url.includes('*')) found.push({ method, url });
  }
  return found;
}

/** The token endpoints answer in the OAuth body: the platform one and the user-facing server's. */
export const isOAuth = (url: string) =>
  url === '/api/v2/oauth/token' || url === '/token' || url === '/register' || url === '/revoke';

/** The one error body (the OAuth one on the token endpoint), naming `field` when given. */
export function expectRefusal(url: string, res: { statusCode: number; json(): unknown }, field?: string) {
  expect(res.statusCode, url).toBeLessThan(500);
  expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
  const body = res.json() as { error: { field_errors: Record<string, string> }; error_description: string };
  if (isOAuth(url)) {
    expect(body).toEqual({ error: expect.any(String), error_description: expect.any(String) });
    if (field) expect(body.error_description).toContain(field);
    return;
  }
  // What the MCP transport itself refuses (Accept, JSON-RPC shape) it answers in JSON-RPC, as the
  // Streamable HTTP transport specifies; what the edge refuses is in the one error body.
  if (url === '/mcp' && !field && 'jsonrpc' in (body as object)) {
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: expect.any(Number), message: expect.any(String) },
    });
    return;
  }
  expect(body).toEqual({
    error: {
      code: expect.any(String),
      message: expect.any(String),
      docs: expect.stringMatching(/^http:\/\/purser\.test\/docs\/errors#/),
      field_errors: expect.any(Object),
      warnings: expect.any(Array),
    },
  });
  if (field) {
    expect(res.statusCode, `${url} ${field}`).toBe(400);
    expect(Object.keys(body.error.field_errors), url).toContain(field);
  }
}

/**
 * The credential each route family takes, so that a sweep's request reaches the edge check: the
 * API key on v1, the operator tokens, a user's connection token on the tool server and `/buy`, and a platform
 * token elsewhere.
 */
export async function edgeCredentials(
  t: TestApp,
  operator: { reviewer: string; metrics: string },
): Promise<(url: string) => Record<string, string>> {
  const org = await t.createOrg();
  const platform = await t.platformToken(org.sandbox);
  const attempt = await t.call('POST', '/api/v2/connect/start', {
    token: platform,
    body: { email: 'edge@example.test' },
  });
  const verified = await t.call('POST', '/api/v2/connect/verify', {
    token: platform,
    body: { connect_id: attempt.json().id, code: '111111' },
  });
  const connection = verified.json().access_token as string;
  expect(connection).toBeTruthy();
  return (url) => ({
    authorization: `Bearer ${
      url.startsWith('/api/v1') || url.startsWith('/orgs/')
        ? org.sandbox.api_key
        : url.startsWith('/operator')
          ? operator.reviewer
          : url.startsWith('/metrics')
            ? operator.metrics
            : url === '/mcp' || url.startsWith('/buy')
              ? connection
              : platform
    }`,
  });
}
