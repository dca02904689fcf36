import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purser } from '../cli/process.ts';
import { type FakeSmtp, startFakeSmtp } from '../connect/fake-smtp.ts';
import {
  connectUser,
  expectError,
  type OrgApp,
  startOrgApp,
  uniqueEmail,
  useOrgApp,
} from '../helpers/fixtures.ts';

const f = useOrgApp();

const link = (token: string, body: unknown, headers?: Record<string, string>) =>
  f.t.call('POST', '/api/v2/checkout/vault_link', { token, body, ...(headers ? { headers } : {}) });

describe('POST /api/v2/checkout/vault_link', () => {
  it('opens a vault session for the email on the user’s account; only the outbox took it (sandbox): sent false, delivery outbox, and the url', async () => {
    const email = uniqueEmail('vault');
    const { userId } = await connectUser(f.t, f.sandbox, { email });
    const response = await link(f.sandbox, { user: userId });
    expect(response.statusCode, response.body).toBe(202);
    const outbox = await f.t.ctx.notifications.sentMessages(1000);
    const sent = outbox.find((m) => m.recipient === email && m.body.includes('/vault/'));
    const url = /http:\/\/purser\.test\/vault\/vlt_[A-Za-z0-9_-]+/.exec(sent?.body ?? '')?.[0];
    expect(url).toBeDefined();
    expect(response.json()).toEqual({
      object: 'vault_link',
      sent: false,
      delivery: 'outbox',
      user: userId,
      url,
    });
  });

  it('sends to the phone when the user has one', async () => {
    const phone = `+1415555${String(Date.now()).slice(-4)}`;
    const { userId } = await connectUser(f.t, f.sandbox, { phone });
    const response = await link(f.sandbox, { user: userId });
    expect(response.json()).toMatchObject({
      object: 'vault_link',
      sent: false,
      delivery: 'outbox',
      user: userId,
    });
    const outbox = await f.t.ctx.notifications.sentMessages(1000);
    expect(
      outbox.some((m) => m.channel === 'sms' && m.recipient === phone && m.body.includes('/vault/')),
    ).toBe(true);
  });

  it('a user not connected to the platform, of another organization or mode, is 404 not_found', async () => {
    expectError(await link(f.sandbox, { user: 'usr_doesnotexist000000000' }), 404, 'not_found');
    const { userId, accessToken } = await connectUser(f.t, f.sandbox, { email: uniqueEmail('vault') });
    expectError(await link(f.production, { user: userId }), 404, 'not_found');
    const other = await f.t.createOrg('Other');
    const otherToken = await f.t.platformToken(other.sandbox);
    expectError(await link(otherToken, { user: userId }), 404, 'not_found');
    // The user revokes the app's connection (the tool server's revoke_connection): no live connection left.
    const revoked = await f.t.request({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'revoke_connection', arguments: {} },
      },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().result.isError ?? false).toBe(false);
    expectError(await link(f.sandbox, { user: userId }), 404, 'not_found');
  });

  it('refuses bad bodies with 400 invalid_request', async () => {
    for (const body of [{}, { user: '' }, { user: 7 }, { user: 'usr_x', extra: true }]) {
      expectError(await link(f.sandbox, body), 400, 'invalid_request');
    }
    expectError(
      await f.t.call('POST', '/api/v2/checkout/vault_link', { body: { user: 'usr_x' } }),
      401,
      'unauthorized',
    );
  });

  it('a user with no phone or email is 422 contact_missing', async () => {
    const { userId } = await connectUser(f.t, f.sandbox, { email: uniqueEmail('vault') });
    await f.t.ctx.db
      .updateTable('users')
      .set({ email: null, phone: null })
      .where('id', '=', userId)
      .execute();
    expectError(await link(f.sandbox, { user: userId }), 422, 'contact_missing');
  });

  it('a branded vault gets sent: false and the url to deliver; the page opens, and a preview changes nothing', async () => {
    await f.t.ctx.vault.setBrandedVault(f.org.organization_id, true);
    try {
      const { userId } = await connectUser(f.t, f.sandbox, { email: uniqueEmail('vault') });
      const response = await link(f.sandbox, { user: userId });
      expect(response.statusCode).toBe(202);
      const body = response.json();
      expect(Object.keys(body)).toEqual(['object', 'sent', 'delivery', 'user', 'url']);
      expect(body).toMatchObject({ object: 'vault_link', sent: false, delivery: null, user: userId });
      const path = new URL(body.url).pathname;
      const before = await f.t.ctx.db.selectFrom('vault_sessions').selectAll().execute();
      for (let i = 0; i < 2; i++) {
        const page = await f.t.request({
          method: 'GET',
          url: path,
          headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' },
        });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toContain('text/html');
        expect(page.headers['cache-control']).toBe('no-store');
        expect(page.body).toContain('card vault');
      }
      expect(await f.t.ctx.db.selectFrom('vault_sessions').selectAll().execute()).toEqual(before);
      expect(f.t.logs.text).not.toContain(path.split('/').at(-1));
      f.t.clock.advance(15 * 60 * 1000 + 1);
      const expired = await f.t.request({ method: 'GET', url: path });
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain('expired');
      const unknown = await f.t.request({ method: 'GET', url: '/vault/vlt_nothing' });
      expect(unknown.statusCode).toBe(404);
    } finally {
      await f.t.ctx.vault.setBrandedVault(f.org.organization_id, false);
      await f.renewTokens();
    }
  });

  it('replays a retry with the same Idempotency-Key instead of opening a second session', async () => {
    const { userId } = await connectUser(f.t, f.sandbox, { email: uniqueEmail('vault') });
    const headers = { 'idempotency-key': `vault-${userId}` };
    const first = await link(f.sandbox, { user: userId }, headers);
    const second = await link(f.sandbox, { user: userId }, headers);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    const sessions = await f.t.ctx.db
      .selectFrom('vault_sessions')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(sessions).toHaveLength(1);
  });
});

it('purser org update --branded-vault turns the operator setting on and off', {
  timeout: 60_000,
}, async () => {
  // The CLI opens the test's database (PostgreSQL wants a key; nothing sealed is read here).
  const env = {
    DATABASE_URL: f.t.ctx.config.databaseUrl,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  };
  const on = await purser(['org', 'update', f.org.organization_id, '--branded-vault', 'on', '--json'], env);
  expect(on.code, on.stderr).toBe(0);
  expect(await f.t.ctx.vault.brandedVault(f.org.organization_id)).toBe(true);
  const off = await purser(['org', 'update', f.org.organization_id, '--branded-vault', 'off'], env);
  expect(off.code, off.stderr).toBe(0);
  expect(await f.t.ctx.vault.brandedVault(f.org.organization_id)).toBe(false);
  const bad = await purser(['org', 'update', f.org.organization_id, '--branded-vault', 'maybe'], env);
  expect(bad.code).not.toBe(0);
});

describe('a vault link by a mail server', () => {
  let smtp: FakeSmtp;
  const mailed = {} as OrgApp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    await startOrgApp({ env: { SMTP_URL: smtp.url, SANDBOX_REAL_DELIVERY: 'true' } }, mailed);
  });
  afterAll(async () => {
    await mailed.close();
    await smtp.close();
  });

  it('the mail server took it: sent true, delivery email, no url', async () => {
    const email = uniqueEmail('vault');
    const { userId } = await connectUser(mailed.t, mailed.sandbox, { email });
    const response = await mailed.t.call('POST', '/api/v2/checkout/vault_link', {
      token: mailed.sandbox,
      body: { user: userId },
    });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ object: 'vault_link', sent: true, delivery: 'email', user: userId });
    expect(smtp.messages.filter((m) => m.to.includes(email) && m.body.includes('/vault/vlt_'))).toHaveLength(
      1,
    );
  });
});
