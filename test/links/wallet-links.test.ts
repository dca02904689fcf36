import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { digest } from '../../src/core/crypto.ts';
import { connectedUser, expectError, useOrgApp } from '../helpers/fixtures.ts';

/** `POST /api/v2/wallet_links` exactly as the spec (§2 Wallet link, §4, §5.9, §7, §8). */
describe('POST /api/v2/wallet_links', () => {
  const f = useOrgApp();

  const create = (body: unknown, token = f.sandbox, headers: Record<string, string> = {}) =>
    f.t.call('POST', '/api/v2/wallet_links', { token, body, headers });
  const enable = (organizationId = f.org.organization_id, on = true) =>
    f.t.ctx.links.setEnabled(organizationId, on);
  const consent = async (userId: string, token = f.sandbox) => {
    const response = await f.t.call('POST', '/api/v2/connect/consent', { token, body: { user_id: userId } });
    expect(response.statusCode, response.body).toBe(201);
  };
  /** A sandbox user with consent recorded. */
  const readyUser = async (token = f.sandbox, production = false) => {
    const userId = await connectedUser(f.t, token, { prefix: 'wl', production });
    await consent(userId, token);
    return userId;
  };

  it('is 404 not_found while the operator has not enabled wallet links for the organization', async () => {
    const userId = await readyUser();
    const error = expectError(await create({ user_id: userId }), 404, 'not_found');
    expect(error.message).toBe('Wallet links are not enabled for this organization.');
  });

  it('the operator enables and disables it with `purser org update --wallet-links on|off`', async () => {
    const userId = await readyUser();
    const printed: string[] = [];
    const print = (line: string) => printed.push(line);
    await runCommand(
      f.t.ctx,
      ['org', 'update', f.org.organization_id, '--wallet-links', 'on', '--json'],
      print,
    );
    expect(JSON.parse(printed.join('\n')).wallet_links).toBe(true);
    expect((await create({ user_id: userId })).statusCode).toBe(201);
    printed.length = 0;
    await runCommand(
      f.t.ctx,
      ['org', 'update', f.org.organization_id, '--wallet-links', 'off', '--json'],
      print,
    );
    expect(JSON.parse(printed.join('\n')).wallet_links).toBe(false);
    expectError(await create({ user_id: userId }), 404, 'not_found');
    await expect(
      runCommand(f.t.ctx, ['org', 'update', f.org.organization_id, '--wallet-links', 'maybe'], print),
    ).rejects.toThrow(/wallet-links/);
  });

  it('201: every field of the wallet link, the default lifetime of 900 seconds, the token stored as a digest only', async () => {
    await enable();
    const userId = await readyUser();
    const now = f.t.clock.now();
    const response = await create({ user_id: userId });
    expect(response.statusCode, response.body).toBe(201);
    const link = response.json();
    expect(Object.keys(link).sort()).toEqual(
      ['object', 'id', 'user_id', 'status', 'url', 'expires_at', 'test_mode', 'delivery'].sort(),
    );
    expect(link).toEqual({
      object: 'wallet_link',
      id: expect.stringMatching(/^wl_[0-9A-Za-z]{30}$/),
      user_id: userId,
      status: 'active',
      url: expect.stringMatching(/^http:\/\/purser\.test\/wallet\/wlt_[0-9A-Za-z]{43}$/),
      expires_at: new Date(now + 900_000).toISOString(),
      test_mode: true,
      // Not asked to send it: the platform delivers the url, nothing was tried.
      delivery: null,
    });
    expect(await f.t.ctx.notifications.sentMessages(1000)).not.toContainEqual(
      expect.objectContaining({ body: expect.stringContaining(link.url) }),
    );
    const token = (link.url as string).split('/').pop() as string;
    const row = await f.t.ctx.db
      .selectFrom('wallet_links')
      .selectAll()
      .where('id', '=', link.id)
      .executeTakeFirst();
    expect(row).toMatchObject({ user_id: userId, livemode: 0, token_digest: digest(token) });
    expect(JSON.stringify(row)).not.toContain(token);
    // Two links never share a token.
    const other = (await create({ user_id: userId })).json();
    expect(other.url).not.toBe(link.url);
    expect(other.id).not.toBe(link.id);
  });

  it('send: true sends it to the user (sandbox: only the outbox took it, delivery outbox); no phone or email is 422 contact_missing', async () => {
    await enable();
    const userId = await readyUser();
    const response = await create({ user_id: userId, send: true, expires_in: 600 });
    expect(response.statusCode, response.body).toBe(201);
    const link = response.json();
    expect(link.delivery).toBe('outbox');
    const outbox = await f.t.ctx.notifications.sentMessages(1000);
    expect(outbox.find((m) => m.body.includes(link.url))?.body).toContain('valid 10 minutes');

    await f.t.ctx.db
      .updateTable('users')
      .set({ email: null, phone: null })
      .where('id', '=', userId)
      .execute();
    expectError(await create({ user_id: userId, send: true }), 422, 'contact_missing');
    expect((await create({ user_id: userId })).json().delivery).toBeNull();
    for (const bad of ['yes', 1, null])
      expect(
        Object.keys(
          expectError(await create({ user_id: userId, send: bad }), 400, 'invalid_request').field_errors,
        ),
      ).toEqual(['send']);
  });

  it('expires_in: 60 and 86400 are taken, 59, 86401, a fraction, a string and null are 400 invalid_request', async () => {
    await enable();
    const userId = await readyUser();
    for (const seconds of [60, 86_400]) {
      const now = f.t.clock.now();
      const response = await create({ user_id: userId, expires_in: seconds });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().expires_at).toBe(new Date(now + seconds * 1000).toISOString());
    }
    for (const bad of [59, 86_401, 900.5, '900', null, 0, -60]) {
      const error = expectError(await create({ user_id: userId, expires_in: bad }), 400, 'invalid_request');
      expect(Object.keys(error.field_errors)).toEqual(['expires_in']);
    }
  });

  it('400 invalid_request names a missing user_id and unknown fields; 401 without a platform token', async () => {
    await enable();
    const userId = await readyUser();
    expect(expectError(await create({}), 400, 'invalid_request').field_errors).toEqual({
      user_id: 'is required',
    });
    expect(
      expectError(await create({ user_id: userId, amount: 5 }), 400, 'invalid_request').field_errors,
    ).toEqual({
      amount: 'is not a recognised field',
    });
    expect(expectError(await create({ user_id: '' }), 400, 'invalid_request').field_errors).toHaveProperty(
      'user_id',
    );
    expectError(
      await f.t.call('POST', '/api/v2/wallet_links', { body: { user_id: userId } }),
      401,
      'unauthorized',
    );
  });

  it('404 not_found for an unknown user, another organization’s user and the other mode’s user', async () => {
    await enable();
    expectError(await create({ user_id: 'usr_doesnotexist000000000' }), 404, 'not_found');
    const otherOrg = await f.t.createOrg('Other');
    await enable(otherOrg.organization_id);
    const otherToken = await f.t.platformToken(otherOrg.sandbox);
    const theirs = await readyUser(otherToken);
    expectError(await create({ user_id: theirs }), 404, 'not_found');
    // The same organization's sandbox user, named with a production token (subscribed, so it gets that far).
    await f.t.ctx.orgs.updateOrganization(f.org.organization_id, { subscription: 'active' });
    const sandboxUser = await readyUser();
    expectError(await create({ user_id: sandboxUser }, f.production), 404, 'not_found');
    await f.t.ctx.orgs.updateOrganization(f.org.organization_id, { subscription: 'none' });
  });

  it('402 subscription_required in production without a subscription; 201 test_mode false with one', async () => {
    await enable();
    const userId = await readyUser(f.production, true);
    const error = expectError(await create({ user_id: userId }, f.production), 402, 'subscription_required');
    expect(error.docs).toBe('http://purser.test/docs/errors#subscription_required');
    await f.t.ctx.orgs.updateOrganization(f.org.organization_id, { subscription: 'active' });
    const response = await create({ user_id: userId }, f.production);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ test_mode: false, status: 'active', user_id: userId });
    await f.t.ctx.orgs.updateOrganization(f.org.organization_id, { subscription: 'none' });
  });

  it('422 user_info_required with missing_fields ["consent"] until consent is recorded', async () => {
    await enable();
    const userId = await connectedUser(f.t, f.sandbox, { prefix: 'wl' });
    const response = await create({ user_id: userId });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: {
        code: 'user_info_required',
        message: expect.stringContaining('consent'),
        docs: 'http://purser.test/docs/errors#user_info_required',
        field_errors: {},
        warnings: [],
        missing_fields: ['consent'],
      },
    });
    await consent(userId);
    expect((await create({ user_id: userId })).statusCode).toBe(201);
  });

  it('403 wallet_link_unavailable once the user’s identity verification is rejected', async () => {
    await enable();
    const userId = await readyUser();
    const rejected = await f.t.call('POST', '/api/v2/kyc/simulate', {
      token: f.sandbox,
      body: { user_id: userId, outcome: 'rejected' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const error = expectError(await create({ user_id: userId }), 403, 'wallet_link_unavailable');
    expect(error.message).toContain('rejected');
  });

  it('Idempotency-Key: a retry answers the same link and creates no second one', async () => {
    await enable();
    const userId = await readyUser();
    const headers = { 'idempotency-key': `wl-${userId}` };
    const first = await create({ user_id: userId, expires_in: 120 }, f.sandbox, headers);
    f.t.clock.advance(1000);
    const second = await create({ user_id: userId, expires_in: 120 }, f.sandbox, headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    const rows = await f.t.ctx.db
      .selectFrom('wallet_links')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    expect(rows).toHaveLength(1);
    expectError(
      await create({ user_id: userId, expires_in: 121 }, f.sandbox, headers),
      422,
      'idempotency_key_reused',
    );
  });

  it('the link token never reaches the log, and the OpenAPI document and error catalog describe the route', async () => {
    await enable();
    const userId = await readyUser();
    const link = (await create({ user_id: userId })).json();
    const token = (link.url as string).split('/').pop() as string;
    expect(
      (await f.t.request({ method: 'GET', url: `/wallet/${token}?merchant=Shop&amount=100` })).statusCode,
    ).toBe(200);
    expect(f.t.logs.text).toContain('/wallet/:token');
    expect(f.t.logs.text).not.toContain(token);

    const openapi = (await f.t.request({ method: 'GET', url: '/api/v2/openapi.json' })).json();
    const operation = openapi.paths['/api/v2/wallet_links'].post;
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '402', '403', '404', '422', '503']),
    );
    expect(operation.responses['422'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorBody',
    );
    expect(openapi.components.schemas.ErrorBody.properties.error.properties.missing_fields).toMatchObject({
      type: 'array',
    });
    expect(operation.requestBody.content['application/json'].schema.properties.expires_in).toMatchObject({
      type: 'integer',
      minimum: 60,
      maximum: 86400,
    });
    const catalog = (await f.t.request({ method: 'GET', url: '/docs/errors' })).body;
    for (const code of ['wallet_link_unavailable', 'subscription_required', 'user_info_required'])
      expect(catalog).toContain(code);
  });
});
