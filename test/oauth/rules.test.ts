import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  documentLifetimeSeconds,
  documentUrlProblem,
  parseClientDocument,
} from '../../src/domains/oauth/client-documents.ts';
import { challengeProblem, verifierMatches } from '../../src/domains/oauth/pkce.ts';
import { redirectUriMatches, redirectUriProblem } from '../../src/domains/oauth/redirects.ts';
import { resourceMatches } from '../../src/domains/oauth/resource.ts';
import { grantedScope } from '../../src/domains/oauth/service.ts';

/** The protocol rules as pure helpers, each against its RFC's cases. */
describe('PKCE (RFC 7636)', () => {
  // RFC 7636 appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('matches the verifier of appendix B to its S256 challenge', () => {
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier.slice(0, -1)}l`, challenge)).toBe(false);
    expect(verifierMatches(undefined, challenge)).toBe(false);
    // §4.1: 43 to 128 unreserved characters.
    expect(verifierMatches('short', createHash('sha256').update('short').digest('base64url'))).toBe(false);
  });

  it('takes only S256 challenges', () => {
    expect(challengeProblem(challenge, 'S256')).toBeNull();
    expect(challengeProblem(challenge, 'plain')).toMatch(/S256/);
    expect(challengeProblem(challenge, undefined)).toMatch(/S256/);
    expect(challengeProblem(undefined, 'S256')).toMatch(/required/);
    expect(challengeProblem('abc', 'S256')).toMatch(/base64url/);
  });
});

describe('redirect URIs (RFC 6749 §3.1.2, RFC 8252, RFC 9700 §4.1.3)', () => {
  it('matches exactly, except the port of loopback redirects', () => {
    expect(redirectUriMatches('https://app.example/cb', ['https://app.example/cb'])).toBe(true);
    expect(redirectUriMatches('https://app.example/cb/', ['https://app.example/cb'])).toBe(false);
    expect(redirectUriMatches('https://app.example/cb?x=1', ['https://app.example/cb'])).toBe(false);
    expect(redirectUriMatches('https://app.example:444/cb', ['https://app.example/cb'])).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:5000/cb', ['http://127.0.0.1/cb'])).toBe(true);
    expect(redirectUriMatches('http://[::1]:5000/cb', ['http://[::1]:7000/cb'])).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:5000/other', ['http://127.0.0.1/cb'])).toBe(false);
    expect(redirectUriMatches('http://localhost.evil.example:5000/cb', ['http://localhost/cb'])).toBe(false);
    // RFC 6749 §3.1.2: no fragment; no credentials either, whatever the port.
    expect(redirectUriMatches('http://127.0.0.1:5000/cb#frag', ['http://127.0.0.1/cb'])).toBe(false);
    expect(redirectUriMatches('http://127.0.0.1:5000/cb#', ['http://127.0.0.1/cb'])).toBe(false);
    expect(redirectUriMatches('http://evil@127.0.0.1:5000/cb', ['http://127.0.0.1/cb'])).toBe(false);
  });

  it('registers https, loopback http and private-use schemes only', () => {
    expect(redirectUriProblem('https://app.example/cb')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1/cb')).toBeNull();
    expect(redirectUriProblem('com.example.app:/oauth')).toBeNull();
    expect(redirectUriProblem('http://app.example/cb')).toMatch(/https/);
    expect(redirectUriProblem('https://app.example/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('cursor://anysphere.cursor/oauth')).toBeNull();
    for (const uri of [
      'javascript:alert(1)',
      'ftp://x.example/cb',
      'data:text/html,x',
      'wss://x.example/cb',
      'mailto:a@b.example',
    ])
      expect(redirectUriProblem(uri), uri).toMatch(/private-use/);
    expect(redirectUriProblem('relative/cb')).toMatch(/absolute/);
  });
});

describe('resource indicators (RFC 8707)', () => {
  it('takes the tool server, with at most a trailing slash', () => {
    const resource = 'https://mcp.example/mcp';
    expect(resourceMatches(resource, resource)).toBe(true);
    expect(resourceMatches(`${resource}/`, resource)).toBe(true);
    expect(resourceMatches(`${resource}//`, resource)).toBe(false);
    expect(resourceMatches('https://mcp.example', resource)).toBe(false);
    expect(resourceMatches(undefined, resource)).toBe(false);
  });
});

describe('scopes (RFC 6749 §3.3)', () => {
  it('grants the default or the known scopes, never an unknown one', () => {
    expect(grantedScope(undefined)).toBe('purser:tools');
    expect(grantedScope('purser:tools purser:tools')).toBe('purser:tools');
    expect(grantedScope('openid')).toBeNull();
  });
});

describe('Client ID Metadata Documents', () => {
  const url = 'https://app.example/oauth/client.json';
  it('takes only canonical https URLs with a path', () => {
    expect(documentUrlProblem(url)).toBeNull();
    expect(documentUrlProblem('http://app.example/client.json')).toMatch(/https/);
    expect(documentUrlProblem('https://app.example/')).toMatch(/path/);
    expect(documentUrlProblem('https://app.example/a/../client.json')).not.toBeNull();
    expect(documentUrlProblem('https://u:p@app.example/client.json')).toMatch(/credentials/);
  });

  it('needs the document to name its own URL, redirect URIs and no secret', () => {
    const doc = (extra: object) =>
      JSON.stringify({ client_id: url, redirect_uris: ['https://app.example/cb'], ...extra });
    expect(parseClientDocument(url, doc({}))).toMatchObject({ client_id: url });
    expect(parseClientDocument(url, doc({ client_id: 'https://other.example/c.json' }))).toHaveProperty(
      'problem',
    );
    expect(
      parseClientDocument(url, doc({ token_endpoint_auth_method: 'client_secret_post' })),
    ).toHaveProperty('problem');
    expect(parseClientDocument(url, doc({ redirect_uris: ['http://app.example/cb'] }))).toHaveProperty(
      'problem',
    );
    expect(parseClientDocument(url, 'not json')).toHaveProperty('problem');
    expect(parseClientDocument(url, doc({ client_secret: 'shh' }))).toEqual({
      problem: 'publishes a client secret',
    });
    // A long name is cut to 200 characters where it is kept, not refused.
    expect(parseClientDocument(url, doc({ client_name: 'n'.repeat(500) }))).toMatchObject({ client_id: url });
  });

  it('keeps a document for its max-age, within bounds', () => {
    expect(documentLifetimeSeconds('max-age=600')).toBe(600);
    expect(documentLifetimeSeconds('no-store, max-age=0')).toBe(300);
    expect(documentLifetimeSeconds('max-age=99999999')).toBe(86_400);
    expect(documentLifetimeSeconds('')).toBe(3600);
  });
});
