import { describe, expect, it } from 'vitest';
import { isLoopbackOrigin, originVerdict, ownOrigins } from '../../src/domains/mcp/origin.ts';
import { audienceMatches, mcpPaths } from '../../src/domains/mcp/routes.ts';
import { TOOLS } from '../../src/domains/mcp/tools.ts';
import { startMcp } from './helpers.ts';

describe('the Origin rule', () => {
  const own = ownOrigins('https://mcp.purser.example/tools', 'https://api.purser.example');

  it('allows no Origin and the service’s own origins', () => {
    expect(originVerdict(undefined, own)).toBe('allowed');
    expect(originVerdict('https://mcp.purser.example', own)).toBe('allowed');
    expect(originVerdict('https://api.purser.example', own)).toBe('allowed');
  });

  it('marks loopback origins, which only test-mode tokens may use', () => {
    for (const origin of [
      'http://localhost:6274',
      'http://127.0.0.1',
      'https://app.localhost:8443',
      'http://[::1]:3000',
    ]) {
      expect(originVerdict(origin, own), origin).toBe('loopback');
    }
  });

  it('refuses every other value, including look-alikes and non-origins', () => {
    for (const origin of [
      'null',
      '',
      'https://mcp.purser.example.evil.example',
      'http://mcp.purser.example', // another scheme is another origin
      'https://mcp.purser.example:444',
      'https://evil.example',
      'http://localhost.evil.example',
      'http://localhost:6274/path',
      'http://user@localhost',
      'file://',
      'chrome-extension://abcdef',
      'http://128.0.0.1',
    ]) {
      expect(originVerdict(origin, own), origin).toBe('refused');
      expect(isLoopbackOrigin(origin), origin).toBe(false);
    }
  });
});

describe('the resource and its audience', () => {
  it('mounts under the path of MCP_URL and names its metadata', () => {
    expect(mcpPaths('https://mcp.purser.example')).toEqual({
      path: '/mcp',
      resource: 'https://mcp.purser.example/mcp',
      resourceMetadata: 'https://mcp.purser.example/.well-known/oauth-protected-resource/mcp',
    });
    expect(mcpPaths('https://purser.example/tools').path).toBe('/tools/mcp');
  });

  it('accepts this resource (a trailing slash tolerated) or no audience, nothing else', () => {
    const resource = 'https://mcp.purser.example/mcp';
    expect(audienceMatches(null, resource)).toBe(true);
    expect(audienceMatches(undefined, resource)).toBe(true);
    expect(audienceMatches(resource, resource)).toBe(true);
    expect(audienceMatches(`${resource}/`, resource)).toBe(true);
    for (const other of [
      'https://mcp.purser.example',
      'https://mcp.purser.example/mcp/x',
      'https://other.example/mcp',
      '',
    ]) {
      expect(audienceMatches(other, resource), other).toBe(false);
    }
  });
});

describe('MCP_URL with a path', () => {
  it('serves the tool server under it, with the challenge naming its metadata', async () => {
    const f = await startMcp({ MCP_URL: 'http://tools.purser.test/agents' });
    try {
      const challenge = await fetch(`${f.origin}/agents/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(challenge.status).toBe(401);
      expect(challenge.headers.get('www-authenticate')).toBe(
        'Bearer resource_metadata="http://tools.purser.test/agents/.well-known/oauth-protected-resource/mcp"',
      );
      const { accessToken } = await f.connect();
      const ok = await fetch(`${f.origin}/agents/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${accessToken}`,
          origin: 'http://tools.purser.test',
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(ok.status).toBe(200);
      expect((await ok.json()).result.tools).toHaveLength(TOOLS.length);
      expect((await fetch(`${f.origin}/mcp`, { method: 'POST' })).status).toBe(404);
    } finally {
      await f.close();
    }
  });
});
