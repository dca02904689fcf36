import { describe, expect, it } from 'vitest';
import { ERROR_META_KEY } from '../../src/domains/mcp/server.ts';
import { startMcp } from './helpers.ts';

describe('a failure below a tool', () => {
  it('answers internal_error as a tool result, with no detail of the failure', async () => {
    const f = await startMcp();
    const { accessToken } = await f.connect();
    // A tool whose reads go through the database handle the test then destroys (whoami reads its
    // user on SQLite's read-only connection, which the destroy leaves open).
    const call = () =>
      f.post(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_connections', arguments: {} } },
        { authorization: `Bearer ${accessToken}` },
      );
    expect((await call()).status).toBe(200); // the token lookup is now cached for AUTH_CACHE_TTL_MS
    await f.t.ctx.db.destroy();
    const response = await call();
    expect(response.status).toBe(200);
    const { result } = await response.json();
    expect(result.isError).toBe(true);
    expect(result._meta[ERROR_META_KEY]).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on our side. Try again.',
    });
    expect(JSON.stringify(result)).not.toMatch(/destroy|sqlite|kysely|driver/i);
    expect(f.t.logs.text).toContain('mcp tool failed');
    await f.close(); // the database is already gone: closing it again is harmless, and drops its files
  });
});
