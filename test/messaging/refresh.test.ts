import { beforeEach, describe, expect, it } from 'vitest';
import { MINUTE } from '../../src/core/clock.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { expectError, quiet } from '../helpers/fixtures.ts';
import { connectProvider, useMessagingApp } from './helpers.ts';

const { f, provider } = useMessagingApp({ each: 'organization' });

// Each test starts with no connection anywhere (an earlier test's would be refreshed too) and counts
// the refresh requests it causes.
let mark = 0;
beforeEach(async () => {
  await f.t.ctx.db.deleteFrom('messaging_connections').execute();
  mark = provider().tokenRequests.length;
});
const refreshRequests = () =>
  provider()
    .tokenRequests.slice(mark)
    .filter((r) => r.grant_type === 'refresh_token');

const connection = () => f.t.call('GET', '/api/v2/provider/connection', { token: f.sandbox });
const storedRefreshToken = async () => {
  const row = await f.t.ctx.db
    .selectFrom('messaging_connections')
    .selectAll()
    .where('organization_id', '=', f.org.organization_id)
    .executeTakeFirstOrThrow();
  return row.refresh_token;
};

describe('the worker refreshes provider tokens before they expire', () => {
  it('nothing to do while the token is fresh; five minutes before expiry it refreshes, storing the rotated refresh token', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const first = provider().issued.at(-1)!;
    const sealedBefore = await storedRefreshToken();
    const worker = new Worker(f.t.ctx, quiet);

    await worker.runOnce();
    expect(refreshRequests()).toHaveLength(0);

    // 56 minutes later the hour-long token is within the five minutes: refreshed.
    f.t.clock.advance(56 * MINUTE);
    await worker.runOnce();
    const refreshes = refreshRequests();
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]!.refresh_token).toBe(first.refreshToken);
    const second = provider().issued.at(-1)!;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await storedRefreshToken()).not.toBe(sealedBefore);
    await f.renewTokens();
    const read = (await connection()).json();
    expect(read.token_expires_at).toBe(new Date(f.t.clock.now() + 3600_000).toISOString());
    expect(read.updated_at).toBe(new Date(f.t.clock.now()).toISOString());

    // The next refresh spends the rotated token (the first one would be invalid_grant now).
    f.t.clock.advance(56 * MINUTE);
    await worker.runOnce();
    const later = refreshRequests();
    expect(later).toHaveLength(2);
    expect(later[1]!.refresh_token).toBe(second.refreshToken);
    expect(provider().accepts(provider().issued.at(-1)!.accessToken)).toBe(true);
    expect(f.t.logs.text).not.toContain(second.refreshToken);
  });

  it('a provider outage is retried on the next pass; the connection stays', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const worker = new Worker(f.t.ctx, quiet);
    f.t.clock.advance(56 * MINUTE);
    provider().failTokens(503);
    try {
      await worker.runOnce();
    } finally {
      provider().failTokens(null);
    }
    await f.renewTokens();
    expect((await connection()).statusCode).toBe(200);
    f.t.clock.advance(MINUTE);
    await worker.runOnce();
    const refreshes = refreshRequests();
    expect(refreshes).toHaveLength(2);
    expect(provider().accepts(provider().issued.at(-1)!.accessToken)).toBe(true);
  });

  it('a refused refresh (invalid_grant) marks the connection broken: its tokens erased, GET is 404', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const worker = new Worker(f.t.ctx, quiet);
    provider().endAllGrants();
    f.t.clock.advance(56 * MINUTE);
    await worker.runOnce();
    const row = await f.t.ctx.db
      .selectFrom('messaging_connections')
      .selectAll()
      .where('organization_id', '=', f.org.organization_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'broken',
      access_token: null,
      refresh_token: null,
      broken_reason: 'invalid_grant',
    });
    await f.renewTokens();
    const read = expectError(await connection(), 404, 'not_found');
    expect(read.message).toContain('refused to refresh');
    // No further refresh attempts; a new connect repairs it.
    f.t.clock.advance(10 * MINUTE);
    await worker.runOnce();
    expect(refreshRequests()).toHaveLength(1);
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    expect((await connection()).statusCode).toBe(200);
    // Deleting a broken connection needs no provider: there is nothing left to revoke.
    provider().endAllGrants();
    f.t.clock.advance(56 * MINUTE);
    await worker.runOnce();
    await f.renewTokens();
    const deleted = await f.t.call('DELETE', '/api/v2/provider/connection', { token: f.sandbox });
    expect(deleted.statusCode).toBe(200);
  });

  it('two workers never spend the same refresh token', async () => {
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    f.t.clock.advance(56 * MINUTE);
    await Promise.all([new Worker(f.t.ctx, quiet).runOnce(), new Worker(f.t.ctx, quiet).runOnce()]);
    const refreshes = refreshRequests();
    expect(refreshes).toHaveLength(1);
    await f.renewTokens();
    expect((await connection()).statusCode).toBe(200);
  });
});
