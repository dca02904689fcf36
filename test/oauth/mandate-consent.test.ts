import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoftAuthenticator } from '../helpers/soft-authenticator.ts';
import { createClient, type OAuthServer, SANDBOX_CODE, startOAuthServer, uniqueEmail } from './helpers.ts';

/**
 * A spending mandate asked for during OAuth (issue 28; docs/oauth-mcp.md "Spending mandates"): scope
 * `purser:spend` with a `mandate` parameter checked as the mandate API checks terms; the consent page
 * shows the terms, and one passkey assertion approves the grant and the mandate.
 */
let s: OAuthServer;
const REDIRECT = 'http://127.0.0.1/callback';

beforeAll(async () => {
  s = await startOAuthServer();
});
afterAll(async () => {
  await s.close();
});

const terms = (over: Record<string, unknown> = {}) => ({
  description: 'Weekly groceries',
  currency: 'usd',
  max_amount_cents: 15_000,
  budget: { amount_cents: 40_000, interval: 'monthly' },
  expires_at: new Date(s.t.clock.now() + 30 * 86_400_000).toISOString(),
  ...over,
});

function authorizeUrl(clientId: string, params: Record<string, string | undefined>) {
  const url = new URL(`${s.issuer}/authorize`);
  const verifier = randomBytes(32).toString('base64url');
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: s.resource,
    state: 'st-9',
    scope: 'purser:tools purser:spend',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/** A browser as plain requests: authorize, sign in with the code, then the consent page's passkey posts. */
class Browser {
  cookie = '';
  html = '';
  async open(url: URL) {
    const response = await fetch(url, { redirect: 'manual' });
    this.keep(response);
    this.html = response.status === 200 ? await response.text() : '';
    return response;
  }
  async submit(fields: Record<string, string>) {
    const action = /<form method="post" action="([^"]+)"/.exec(this.html)![1]!;
    const flow = /name="flow" value="([^"]+)"/.exec(this.html)![1]!;
    const response = await fetch(`${new URL(s.issuer).origin}${action}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ flow, ...fields }),
    });
    this.keep(response);
    if (response.status === 200) this.html = await response.text();
    return response;
  }
  async signIn(url: URL, email = uniqueEmail('spend')) {
    expect((await this.open(url)).status).toBe(200);
    await this.submit({ destination: email });
    await this.submit({ code: SANDBOX_CODE });
    expect(this.html).toContain('id="consent"');
  }
  async post(path: 'options' | 'verify', body: Record<string, unknown>) {
    const flow = /data-csrf="([^"]+)"/.exec(this.html)?.[1] ?? '';
    const response = await fetch(`${s.issuer}/authorize/webauthn/${path}`, {
      method: 'POST',
      headers: { cookie: this.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ csrf: flow, ...body }),
    });
    this.keep(response);
    // biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field below
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  }
  private keep(response: Response) {
    const set = response.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
  }
}

async function publicClient() {
  const client = await createClient(s, { type: 'public', redirectUri: REDIRECT, name: 'Grocer bot' });
  return client.client_id;
}

async function expectRedirectError(url: URL, description: RegExp) {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(location.searchParams.get('error')).toBe('invalid_request');
  expect(location.searchParams.get('state')).toBe('st-9');
  expect(location.searchParams.get('error_description')).toMatch(description);
}

describe('authorize with purser:spend and a mandate', () => {
  it('refuses terms the mandate API would refuse, with a clear error redirect', async () => {
    const clientId = await publicClient();
    const url = (params: Record<string, string | undefined>) => authorizeUrl(clientId, params);
    // Without terms, purser:spend is not granted (the MCP SDK asks for every scope advertised).
    expect((await fetch(url({ mandate: undefined }), { redirect: 'manual' })).status).toBe(200);
    await expectRedirectError(
      url({ scope: 'purser:tools', mandate: JSON.stringify(terms()) }),
      /mandate needs scope purser:spend/,
    );
    await expectRedirectError(url({ mandate: '{not json' }), /^mandate: is not JSON/);
    await expectRedirectError(
      url({ mandate: JSON.stringify(terms({ max_amount_cents: 50_000 })) }),
      /mandate: max_amount_cents must not be more than budget.amount_cents/,
    );
    await expectRedirectError(
      url({ mandate: JSON.stringify(terms({ budget: { amount_cents: 100, interval: 'yearly' } })) }),
      /^mandate: budget/,
    );
    await expectRedirectError(
      url({ mandate: JSON.stringify(terms({ expires_at: '2001-01-01T00:00:00Z' })) }),
      /expires_at must be in the future/,
    );
    await expectRedirectError(
      url({ mandate: JSON.stringify(terms({ client_id: 'cli_someone_else' })) }),
      /client_id/,
    );
    await expectRedirectError(
      url({ mandate: JSON.stringify(terms({ description: 'x'.repeat(1_300) })) }),
      /mandate must be at most 1200 characters/,
    );
  });

  it('a user with no passkey creates one on the consent page; one assertion approves the grant and the mandate', async () => {
    const clientId = await publicClient();
    const browser = new Browser();
    await browser.signIn(authorizeUrl(clientId, { mandate: JSON.stringify(terms()) }));
    expect(browser.html).toContain('up to $150.00');
    expect(browser.html).toContain('$400.00 each calendar month (UTC)');
    expect(browser.html).toContain('id="create-passkey"');
    const authenticator = new SoftAuthenticator(s.t.ctx.config.baseUrl);

    // Not from the page (no flow id): refused.
    const forged = await fetch(`${s.issuer}/authorize/webauthn/options`, {
      method: 'POST',
      headers: { cookie: browser.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ purpose: 'register' }),
    });
    expect(forged.status).toBe(403);

    const registerOptions = await browser.post('options', { purpose: 'register' });
    expect(registerOptions.status, JSON.stringify(registerOptions.json)).toBe(200);
    const registered = await browser.post('verify', {
      purpose: 'register',
      response: authenticator.register(registerOptions.json as { challenge: string }),
    });
    expect(registered.status, JSON.stringify(registered.json)).toBe(200);
    const consent = await fetch(`${s.issuer}${registered.json.next}`, {
      headers: { cookie: browser.cookie },
    });
    browser.html = await consent.text();
    expect(browser.html).toContain('id="approve"');
    const hash = /data-terms-hash="([0-9a-f]{64})"/.exec(browser.html)![1]!;

    // A changed hash (another page's terms) is refused, and so is a bad signature: nothing is made.
    const stale = await browser.post('options', { purpose: 'approve' });
    const wrong = await browser.post('verify', {
      purpose: 'approve',
      terms_hash: '0'.repeat(64),
      response: authenticator.assert(stale.json as { challenge: string }),
    });
    expect(wrong.status).toBe(409);
    expect(wrong.json.error.code).toBe('terms_changed');
    const bad = await browser.post('options', { purpose: 'approve' });
    const answer = authenticator.assert(bad.json as { challenge: string });
    answer.response.signature = Buffer.from('not a signature').toString('base64url');
    const refused = await browser.post('verify', { purpose: 'approve', terms_hash: hash, response: answer });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('passkey_invalid');
    expect(
      await s.t.ctx.db.selectFrom('mandates').selectAll().where('client_id', '=', clientId).execute(),
    ).toEqual([]);

    const options = await browser.post('options', { purpose: 'approve' });
    expect(options.status).toBe(200);
    const approved = await browser.post('verify', {
      purpose: 'approve',
      terms_hash: hash,
      response: authenticator.assert(options.json as { challenge: string }),
    });
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    const callback = new URL(approved.json.next as string);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('code')).toMatch(/^oac_/);
    expect(callback.searchParams.get('state')).toBe('st-9');

    const [row] = await s.t.ctx.db
      .selectFrom('mandates')
      .selectAll()
      .where('client_id', '=', clientId)
      .execute();
    expect(row).toMatchObject({ status: 'active', terms_hash: hash });
    const kept = JSON.parse(row!.approval as string);
    const bound = createHash('sha256').update(`purser-mandate:${row!.id}:${hash}`).digest();
    expect(Buffer.from(kept.challenge, 'base64url').subarray(0, 32).equals(bound)).toBe(true);
    expect(JSON.parse(row!.terms)).toMatchObject({ client_id: clientId, max_amount_cents: 15_000 });
    const events = await s.t.ctx.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'mandate.approved')
      .execute();
    expect(events.filter((e) => e.data.includes(row!.id))).toHaveLength(1);
    // The decision is spent: the consent cannot be signed twice.
    expect((await browser.post('options', { purpose: 'approve' })).status).toBe(403);
  });
});
