import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { s256Challenge } from '../../src/domains/messaging/provider.ts';
import { FakeAcpMerchant } from '../helpers/fake-acp-merchant.ts';
import { connectedUser, expectError, useOrgApp } from '../helpers/fixtures.ts';
import { formBody, formFields } from '../links/helpers.ts';

/**
 * Merchant account linking (docs/merchant-accounts.md): the API, the hosted page, the OAuth 2.0 +
 * PKCE round trip to a fake merchant on a real socket, `merchant.connected` (production only), and
 * refusals.
 */
const fake = new FakeAcpMerchant('acp_key_0123456789');
const f = useOrgApp({
  name: 'Platform Co',
  env: { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' },
  afterClose: () => fake.close(),
});

const RETURN_URL = 'https://platform.example/linked';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
let liveUser: string;
let sandboxUser: string;

beforeAll(async () => {
  await fake.start();
  const added = await f.t.ctx.merchants.add({
    slug: 'teashop',
    name: 'Tea Shop',
    acpUrl: fake.url,
    apiKey: fake.apiKey,
  });
  await f.t.ctx.merchantAccounts.setLinking(added.id, {
    ...fake.accounts.urls,
    clientId: fake.accounts.clientId,
    clientSecret: fake.accounts.clientSecret,
    scopes: ['profile', 'orders:write'],
  });
  await f.t.ctx.merchants.add({ slug: 'nolink', name: 'No Link', acpUrl: fake.url, apiKey: fake.apiKey });
  liveUser = await connectedUser(f.t, f.production, { production: true });
  sandboxUser = await connectedUser(f.t, f.sandbox);
});

async function openSession(token: string, userId: string, body: Record<string, unknown> = {}) {
  const response = await f.t.call('POST', `/api/v2/users/${userId}/merchant_links`, {
    token,
    body: { merchant: 'teashop', return_url: RETURN_URL, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  const session = response.json();
  return { session, path: new URL(session.url).pathname };
}

/** A browser: its cookie jar, and the forms on the last page it loaded. */
function browser() {
  let cookie = '';
  let html = '';
  return {
    get cookie() {
      return cookie;
    },
    async get(path: string) {
      const response = await f.t.request({ method: 'GET', url: path, headers: { cookie } });
      const set = [response.headers['set-cookie'] ?? []].flat()[0];
      if (set) cookie = set.split(';')[0]!;
      html = response.body;
      return response;
    },
    post(path: string, purpose: string, override: Record<string, string> = {}) {
      return f.t.request({
        method: 'POST',
        url: path,
        headers: { ...FORM, cookie },
        payload: formBody({ ...formFields(html, path, purpose), ...override }),
      });
    },
  };
}

/** The browser at the merchant: the fake signs in and approves, and redirects back to Purser. */
async function atMerchant(authorizeUrl: string): Promise<string> {
  const answer = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location')!);
  expect(back.origin).toBe('http://purser.test');
  return back.pathname + back.search;
}

/** Page, Continue, merchant: the callback path the merchant sends the browser back to. */
async function throughMerchant(path: string, b = browser()) {
  const page = await b.get(path);
  expect(page.statusCode, page.body).toBe(200);
  const started = await b.post(path, 'authorize');
  expect(started.statusCode, started.body).toBe(303);
  const authorizeUrl = started.headers.location as string;
  return { b, authorizeUrl, callback: await atMerchant(authorizeUrl) };
}

const events = async (type = 'merchant.connected') =>
  (
    await f.t.ctx.db
      .selectFrom('events')
      .select(['data', 'organization_id', 'livemode'])
      .where('type', '=', type)
      .execute()
  ).map((row) => ({
    data: JSON.parse(row.data),
    organization_id: row.organization_id,
    livemode: row.livemode,
  }));

describe('merchant account linking, end to end', () => {
  it('links a production account: tokens sealed, merchant.connected with exactly the spec fields, back to return_url', async () => {
    const { session, path } = await openSession(f.production, liveUser, { state: 's-1' });
    expect(session).toEqual({
      object: 'merchant_link_session',
      id: expect.stringMatching(/^mls_/),
      url: expect.stringMatching(/^http:\/\/purser\.test\/merchant-accounts\/mlt_[A-Za-z0-9]+$/),
      status: 'open',
      user_id: liveUser,
      merchant: 'teashop',
      state: 's-1',
      return_url: RETURN_URL,
      merchant_account_id: null,
      livemode: true,
      expires_at: new Date(f.t.clock.now() + 3600_000).toISOString(),
      completed_at: null,
      created_at: new Date(f.t.clock.now()).toISOString(),
    });

    const b = browser();
    const page = await b.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Link your Tea Shop account');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain(`form-action 'self' ${new URL(fake.url).origin} https://platform.example`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['set-cookie']).toMatch(/^purser_ml=[A-Za-z0-9]+; Path=\/merchant-accounts; /);

    const { authorizeUrl, callback } = await throughMerchant(path, b);
    const asked = new URL(authorizeUrl);
    expect(asked.origin + asked.pathname).toBe(fake.accounts.urls.authorizeUrl);
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      response_type: 'code',
      client_id: fake.accounts.clientId,
      redirect_uri: 'http://purser.test/merchant-accounts/callback',
      scope: 'profile orders:write',
      state: expect.stringMatching(/^[A-Za-z0-9]{40,}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    const before = (await events()).length;
    const back = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
    expect(back.statusCode, back.body).toBe(303);
    expect(back.headers.location).toBe(`${RETURN_URL}?session_id=${session.id}&state=s-1`);

    // PKCE: the verifier sent to the token endpoint is the one the challenge was made from.
    const exchange = fake.accounts.tokenRequests.at(-1)!;
    expect(exchange).toEqual({
      grant_type: 'authorization_code',
      code: expect.any(String),
      redirect_uri: 'http://purser.test/merchant-accounts/callback',
      code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(s256Challenge(exchange.code_verifier!)).toBe(asked.searchParams.get('code_challenge'));

    const fired = (await events()).slice(before);
    expect(fired).toEqual([
      {
        organization_id: f.org.organization_id,
        livemode: 1,
        data: {
          userId: liveUser,
          clientId: f.org.production.client_id,
          merchantSlug: 'teashop',
          merchantAccountRef: 'cust_4821',
        },
      },
    ]);

    const listed = await f.t.call('GET', `/api/v2/users/${liveUser}/merchant_accounts`, {
      token: f.production,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      object: 'list',
      data: [
        {
          object: 'merchant_account',
          id: expect.stringMatching(/^macct_/),
          user_id: liveUser,
          merchant: 'teashop',
          merchant_account_ref: 'cust_4821',
          scopes: ['profile', 'orders:write'],
          livemode: true,
          connected_at: new Date(f.t.clock.now()).toISOString(),
          updated_at: new Date(f.t.clock.now()).toISOString(),
        },
      ],
      has_more: false,
    });
    const account = listed.json().data[0];
    const completed = await f.t.call('GET', `/api/v2/merchant_link_sessions/${session.id}`, {
      token: f.production,
    });
    expect(completed.json()).toMatchObject({
      status: 'completed',
      url: null,
      merchant_account_id: account.id,
    });

    // Sealed at rest: neither the merchant's tokens nor the client secret appear in their rows.
    const issued = fake.accounts.issued.at(-1)!;
    const row = await f.t.ctx.db
      .selectFrom('merchant_accounts')
      .selectAll()
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(issued.accessToken);
    expect(stored).not.toContain(issued.refreshToken);
    expect(f.t.ctx.sealer.open(row.access_token_sealed, `merchant_accounts.access_token:${account.id}`)).toBe(
      issued.accessToken,
    );
    // Bound to its row: copied onto another account, it does not open.
    expect(() =>
      f.t.ctx.sealer.open(row.access_token_sealed, 'merchant_accounts.access_token:macct_other'),
    ).toThrow();
    const linking = JSON.stringify(
      await f.t.ctx.db.selectFrom('merchant_account_linking').selectAll().execute(),
    );
    expect(linking).not.toContain(fake.accounts.clientSecret);
    const sessionRow = JSON.stringify(
      await f.t.ctx.db.selectFrom('merchant_link_sessions').selectAll().execute(),
    );
    expect(sessionRow).not.toContain(exchange.code_verifier);
    expect(f.t.logs.text).not.toContain(issued.accessToken);
    expect(f.t.logs.text).not.toContain(exchange.code!);

    // The completed page only points back.
    const again = await f.t.request({ method: 'GET', url: path });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Linked');
  });

  it('refuses a replayed state: nothing linked twice, no second event', async () => {
    const { path } = await openSession(f.production, liveUser);
    const { b, callback } = await throughMerchant(path);
    const first = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
    expect(first.statusCode).toBe(303);
    const count = (await events()).length;
    const replay = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('This link does not work');
    expect((await events()).length).toBe(count);
  });

  it('refuses a callback from another browser, an unknown state, and no state', async () => {
    const { path } = await openSession(f.production, liveUser);
    const { b, callback } = await throughMerchant(path);
    const count = fake.accounts.tokenRequests.length;
    for (const cookie of ['', 'purser_ml=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'])
      expect((await f.t.request({ method: 'GET', url: callback, headers: { cookie } })).statusCode).toBe(400);
    const wrongState = callback.replace(/state=[^&]+/, 'state=abcdefabcdefabcdefabcdef');
    expect(
      (await f.t.request({ method: 'GET', url: wrongState, headers: { cookie: b.cookie } })).statusCode,
    ).toBe(400);
    const noState = callback.replace(/&?state=[^&]+/, '');
    expect(
      (await f.t.request({ method: 'GET', url: noState, headers: { cookie: b.cookie } })).statusCode,
    ).toBe(400);
    // None of those reached the merchant, nor used the state: the right browser still completes.
    expect(fake.accounts.tokenRequests.length).toBe(count);
    const right = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
    expect(right.statusCode).toBe(303);
  });

  it('only the latest authorization request completes: an earlier state is refused', async () => {
    const { path } = await openSession(f.production, liveUser);
    const first = await throughMerchant(path);
    const b = first.b;
    await b.get(path);
    const second = await b.post(path, 'authorize');
    const latest = await atMerchant(second.headers.location as string);
    expect(
      (await f.t.request({ method: 'GET', url: first.callback, headers: { cookie: b.cookie } })).statusCode,
    ).toBe(400);
    expect(
      (await f.t.request({ method: 'GET', url: latest, headers: { cookie: b.cookie } })).statusCode,
    ).toBe(303);
  });

  it('enforces PKCE: a code exchanged without the session’s verifier is refused by the merchant, nothing linked', async () => {
    const { session, path } = await openSession(f.production, liveUser);
    const { b, callback } = await throughMerchant(path);
    // Another verifier in place of the session's: the merchant's S256 check must fail.
    await f.t.ctx.db
      .updateTable('merchant_link_sessions')
      .set({
        code_verifier_sealed: f.t.ctx.sealer.seal(
          'x'.repeat(43),
          `merchant_link_sessions.code_verifier:${session.id}`,
        ),
      })
      .where('id', '=', session.id)
      .execute();
    const count = (await events()).length;
    const answer = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
    expect(answer.statusCode).toBe(502);
    expect(answer.body).toContain('token endpoint: invalid_grant');
    expect(answer.body).toContain(`href="${path}"`);
    expect((await events()).length).toBe(count);
    const still = await f.t.call('GET', `/api/v2/merchant_link_sessions/${session.id}`, {
      token: f.production,
    });
    expect(still.json()).toMatchObject({ status: 'open', merchant_account_id: null });
  });

  it('linking the same merchant again renews the one account: new tokens and ref, same id, the event again', async () => {
    const list = async () =>
      (await f.t.call('GET', `/api/v2/users/${liveUser}/merchant_accounts`, { token: f.production })).json()
        .data;
    const [before] = await list();
    const count = (await events()).length;
    fake.accounts.accountId = 'cust_9000';
    try {
      const { path } = await openSession(f.production, liveUser);
      f.t.clock.advance(60_000);
      const { b, callback } = await throughMerchant(path);
      expect(
        (await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } })).statusCode,
      ).toBe(303);
    } finally {
      fake.accounts.accountId = 'cust_4821';
    }
    const after = await list();
    expect(after).toEqual([
      { ...before, merchant_account_ref: 'cust_9000', updated_at: new Date(f.t.clock.now()).toISOString() },
    ]);
    const row = await f.t.ctx.db
      .selectFrom('merchant_accounts')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(f.t.ctx.sealer.open(row.access_token_sealed, `merchant_accounts.access_token:${before.id}`)).toBe(
      fake.accounts.issued.at(-1)!.accessToken,
    );
    const fired = (await events()).slice(count);
    expect(fired.map((e) => e.data.merchantAccountRef)).toEqual(['cust_9000']);
  });

  it('a sandbox link is stored but fires no event (live activity only)', async () => {
    const count = (await events()).length;
    fake.accounts.accountId = 'cust_sandbox_7';
    try {
      const { session, path } = await openSession(f.sandbox, sandboxUser, { state: 'sb' });
      expect(session.livemode).toBe(false);
      const { b, callback } = await throughMerchant(path);
      const back = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toBe(`${RETURN_URL}?session_id=${session.id}&state=sb`);
    } finally {
      fake.accounts.accountId = 'cust_4821';
    }
    expect((await events()).length).toBe(count);
    const listed = await f.t.call('GET', `/api/v2/users/${sandboxUser}/merchant_accounts`, {
      token: f.sandbox,
    });
    expect(listed.json().data).toEqual([
      expect.objectContaining({
        merchant: 'teashop',
        merchant_account_ref: 'cust_sandbox_7',
        livemode: false,
      }),
    ]);
  });

  it('a cardholder who declines, at the merchant or on the page, goes back with error=access_denied', async () => {
    const { session, path } = await openSession(f.production, liveUser);
    fake.accounts.deny = true;
    try {
      const { b, callback } = await throughMerchant(path);
      const back = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toBe(`${RETURN_URL}?session_id=${session.id}&error=access_denied`);
    } finally {
      fake.accounts.deny = false;
    }
    const b = browser();
    await b.get(path);
    const cancel = await b.post(path, 'decline');
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe(`${RETURN_URL}?session_id=${session.id}&error=access_denied`);
    const still = await f.t.call('GET', `/api/v2/merchant_link_sessions/${session.id}`, {
      token: f.production,
    });
    expect(still.json().status).toBe('open');
  });
});

describe('the hosted page', () => {
  it('a GET changes nothing; a form without its CSRF token or cookie is refused', async () => {
    const { session, path } = await openSession(f.production, liveUser);
    const b = browser();
    await b.get(path);
    const row = () =>
      f.t.ctx.db
        .selectFrom('merchant_link_sessions')
        .selectAll()
        .where('id', '=', session.id)
        .executeTakeFirstOrThrow();
    expect((await row()).oauth_state_digest).toBeNull();
    expect((await b.post(path, 'authorize', { csrf: 'forged' })).statusCode).toBe(403);
    const noCookie = await f.t.request({
      method: 'POST',
      url: path,
      headers: FORM,
      payload: formBody({ purpose: 'authorize', nonce: 'abcdefgh12345678', csrf: 'x' }),
    });
    expect(noCookie.statusCode).toBe(403);
    expect((await row()).oauth_state_digest).toBeNull();
  });

  it('unknown and expired links', async () => {
    expect(
      (await f.t.request({ method: 'GET', url: '/merchant-accounts/mlt_AAAAAAAAAAAAAAAAAAAAAAAAAA' }))
        .statusCode,
    ).toBe(404);
    const { session, path } = await openSession(f.production, liveUser);
    const { b, callback } = await throughMerchant(path);
    f.t.clock.advance(3600_000);
    try {
      expect((await f.t.request({ method: 'GET', url: path })).statusCode).toBe(410);
      const late = await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } });
      expect(late.statusCode).toBe(410);
      await f.renewTokens();
      const gone = await f.t.call('GET', `/api/v2/merchant_link_sessions/${session.id}`, {
        token: f.production,
      });
      expect(gone.json()).toMatchObject({ status: 'expired', url: null });
    } finally {
      await f.renewTokens();
    }
  });
});

describe('refusals', () => {
  it('unknown user or merchant 404; a merchant without linking 422; a bad return_url or body 400', async () => {
    const url = `/api/v2/users/${liveUser}/merchant_links`;
    const post = (body: Record<string, unknown>, path = url, token = f.production) =>
      f.t.call('POST', path, { token, body });
    expectError(
      await post({ merchant: 'teashop', return_url: RETURN_URL }, '/api/v2/users/usr_nobody/merchant_links'),
      404,
      'not_found',
    );
    expectError(await post({ merchant: 'nowhere', return_url: RETURN_URL }), 404, 'not_found');
    expectError(
      await post({ merchant: 'nolink', return_url: RETURN_URL }),
      422,
      'merchant_linking_unsupported',
    );
    expectError(
      await post({ merchant: 'retail', return_url: RETURN_URL }),
      422,
      'merchant_linking_unsupported',
    );
    const bad = expectError(
      await post({ merchant: 'teashop', return_url: 'http://platform.example/x' }),
      400,
      'invalid_request',
    );
    expect(Object.keys(bad.field_errors)).toEqual(['return_url']);
    const missing = expectError(await post({ return_url: RETURN_URL }), 400, 'invalid_request');
    expect(Object.keys(missing.field_errors)).toContain('merchant');
  });

  it('another organization or mode sees nothing: 404', async () => {
    const { session } = await openSession(f.production, liveUser);
    const other = await f.t.createOrg('Other platform');
    const otherLive = await f.t.platformToken(other.production);
    for (const token of [otherLive, f.sandbox]) {
      expectError(
        await f.t.call('POST', `/api/v2/users/${liveUser}/merchant_links`, {
          token,
          body: { merchant: 'teashop', return_url: RETURN_URL },
        }),
        404,
        'not_found',
      );
      expectError(
        await f.t.call('GET', `/api/v2/users/${liveUser}/merchant_accounts`, { token }),
        404,
        'not_found',
      );
      expectError(
        await f.t.call('GET', `/api/v2/merchant_link_sessions/${session.id}`, { token }),
        404,
        'not_found',
      );
    }
    const viaKey = await f.t.call('GET', `/api/v2/users/${liveUser}/merchant_accounts`, {
      headers: { authorization: `Bearer ${f.org.production.api_key}` },
    });
    expect(viaKey.statusCode).toBe(401);
  });
});

describe('purser merchant add --link-…', () => {
  const run = async (argv: string[]) => {
    const printed: string[] = [];
    await runCommand(f.t.ctx, argv, (line) => printed.push(line));
    return printed.join('\n');
  };
  const secretFile = join(tmpdir(), `link-secret-${process.pid}`);

  it('declares account linking; the secret from a file is sealed; a bad flag adds nothing', async () => {
    writeFileSync(secretFile, `${fake.accounts.clientSecret}\n`);
    const base = [
      'merchant',
      'add',
      '--name',
      'Cli Shop',
      '--acp-url',
      fake.url,
      '--api-key',
      fake.apiKey,
      '--json',
    ];
    const link = [
      '--link-authorize-url',
      fake.accounts.urls.authorizeUrl,
      '--link-token-url',
      fake.accounts.urls.tokenUrl,
      '--link-userinfo-url',
      fake.accounts.urls.userinfoUrl,
      '--link-client-id',
      fake.accounts.clientId,
      '--link-client-secret-file',
      secretFile,
      '--link-scopes',
      'profile',
    ];
    const out = JSON.parse(await run([...base, '--slug', 'clishop', ...link]));
    expect(out).toMatchObject({ slug: 'clishop', account_linking: true });
    expect(JSON.stringify(out)).not.toContain(fake.accounts.clientSecret);
    const { path } = await openSession(f.production, liveUser, { merchant: 'clishop' });
    const { b, callback } = await throughMerchant(path);
    expect(
      (await f.t.request({ method: 'GET', url: callback, headers: { cookie: b.cookie } })).statusCode,
    ).toBe(303);

    const badUrl = link.map((v) => (v === fake.accounts.urls.tokenUrl ? 'ftp://x.test/token' : v));
    await expect(run([...base, '--slug', 'clishop2', ...badUrl])).rejects.toMatchObject({
      fieldErrors: { link_token_url: expect.any(String) },
    });
    await expect(run([...base, '--slug', 'clishop2', '--link-client-id', 'x'])).rejects.toThrow(
      /--link-authorize-url is required/,
    );
    expect((await f.t.ctx.merchants.list()).map((m) => m.slug)).not.toContain('clishop2');
  });
});
