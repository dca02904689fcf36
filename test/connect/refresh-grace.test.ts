import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../src/core/crypto.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { connectUser, expectError, refresh, uniqueEmail } from './helpers.ts';

// An exact retry of a just-rotated refresh token within the retry grace (`REFRESH_RETRY_GRACE_SECONDS`,
// 10 s by default) gets the same successor pair (docs/decisions.md, Connect); after that, reuse
// revokes the family. An operator may set the grace to 0: then any reuse revokes at once.
const GRACE_MS = 10_000;

let t: TestApp;
let org: CreatedOrganization;
let sandbox: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
  sandbox = await t.platformToken(org.sandbox);
});
afterAll(() => t.close());

const successorSealed = async (refreshToken: string) =>
  (
    await t.ctx.db
      .selectFrom('refresh_tokens')
      .select('successor_sealed')
      .where('token_digest', '=', digest(refreshToken))
      .executeTakeFirstOrThrow()
  ).successor_sealed;

describe('refresh retry grace', () => {
  it('a retry within the grace gets the identical pair, which works and chains on', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const first = await refresh(t, sandbox, { refresh_token: c.refreshToken });
    expect(first.statusCode).toBe(200);
    t.clock.advance(GRACE_MS);
    const retry = await refresh(t, sandbox, { refresh_token: c.refreshToken });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await t.ctx.auth.authenticate(c.accessToken)).not.toBeNull();
    expect(await t.ctx.auth.authenticate(first.json().access_token)).toMatchObject({ userId: c.userId });
    // The successor's successor, and its own retry.
    const second = await refresh(t, sandbox, { refresh_token: first.json().refresh_token });
    expect(second.statusCode).toBe(200);
    expect((await refresh(t, sandbox, { refresh_token: first.json().refresh_token })).json()).toEqual(
      second.json(),
    );
    const third = await refresh(t, sandbox, { refresh_token: second.json().refresh_token });
    expect(third.statusCode).toBe(200);
  });

  it('a token two rotations old is replay even within the grace: refused, and the family revoked', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const first = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    const second = await refresh(t, sandbox, { refresh_token: first.refresh_token });
    expect(second.statusCode).toBe(200);
    t.clock.advance(1_000);
    // `first` was used: the grace no longer covers the token it came from.
    expectError(await refresh(t, sandbox, { refresh_token: c.refreshToken }), 401, 'invalid_refresh_token');
    expect(await t.ctx.auth.authenticate(second.json().access_token)).toBeNull();
    expectError(
      await refresh(t, sandbox, { refresh_token: second.json().refresh_token }),
      401,
      'invalid_refresh_token',
    );
  });

  it('keeps the successor only sealed, and only during the grace', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const next = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    const sealed = await successorSealed(c.refreshToken);
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(next.refresh_token);
    expect(sealed).not.toContain(next.access_token);
    t.clock.advance(GRACE_MS + 1);
    // Erased by the next rotation anywhere (and by the worker's retention sweep).
    const other = await connectUser(t, sandbox, { email: uniqueEmail() });
    await refresh(t, sandbox, { refresh_token: other.refreshToken });
    expect(await successorSealed(c.refreshToken)).toBeNull();
    expect(await successorSealed(other.refreshToken)).not.toBeNull();
    t.clock.advance(GRACE_MS + 1);
    expect(await t.ctx.connect.sweepRotatedSuccessors()).toBeGreaterThanOrEqual(1);
    expect(await successorSealed(other.refreshToken)).toBeNull();
  });

  it('after the grace, reuse revokes the family, successors included', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const next = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    t.clock.advance(GRACE_MS + 1);
    expectError(await refresh(t, sandbox, { refresh_token: c.refreshToken }), 401, 'invalid_refresh_token');
    expect(await t.ctx.auth.authenticate(next.access_token)).toBeNull();
    expectError(
      await refresh(t, sandbox, { refresh_token: next.refresh_token }),
      401,
      'invalid_refresh_token',
    );
  });

  it('a retry of a token whose family was revoked gets nothing, even within the grace', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const next = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    const after = (await refresh(t, sandbox, { refresh_token: next.refresh_token })).json();
    t.clock.advance(GRACE_MS + 1);
    // Reuse of `next` past its grace revokes the family...
    expectError(
      await refresh(t, sandbox, { refresh_token: next.refresh_token }),
      401,
      'invalid_refresh_token',
    );
    expect(await t.ctx.auth.authenticate(after.access_token)).toBeNull();
    // ...and the sealed pairs went with it.
    expect(await successorSealed(next.refresh_token)).toBeNull();
  });

  it('a retry from another client of the organization is refused and revokes nothing', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const next = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    const other = await t.platformToken(org.production);
    expectError(await refresh(t, other, { refresh_token: c.refreshToken }), 401, 'invalid_refresh_token');
    expect(await t.ctx.auth.authenticate(next.access_token)).not.toBeNull();
  });
});

describe('refresh retry grace set to 0', () => {
  let strict: TestApp;
  let token: string;
  beforeAll(async () => {
    strict = await startTestApp({ REFRESH_RETRY_GRACE_SECONDS: '0' });
    token = await strict.platformToken((await strict.createOrg()).sandbox);
  });
  afterAll(() => strict.close());

  it('20 concurrent refreshes with one token: exactly one succeeds, and the reuse revokes the family', async () => {
    const c = await connectUser(strict, token, { email: uniqueEmail() });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => refresh(strict, token, { refresh_token: c.refreshToken })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, ...Array(19).fill(401)]);
    for (const res of responses.filter((r) => r.statusCode === 401)) {
      expectError(res, 401, 'invalid_refresh_token');
    }
    const winner = responses.find((r) => r.statusCode === 200)!.json();
    expect(await strict.ctx.auth.authenticate(winner.access_token)).toBeNull();
    expectError(
      await refresh(strict, token, { refresh_token: winner.refresh_token }),
      401,
      'invalid_refresh_token',
    );
    // Nothing was sealed for a retry.
    const sealed = await strict.ctx.db
      .selectFrom('refresh_tokens')
      .select('successor_sealed')
      .where('successor_sealed', 'is not', null)
      .execute();
    expect(sealed).toEqual([]);
  });
});
