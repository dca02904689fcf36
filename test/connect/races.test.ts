import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../../src/core/crypto.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import {
  connectUser,
  consent,
  expectError,
  outboxCode,
  refresh,
  SANDBOX_CODE,
  startAttempt,
  uniqueEmail,
  verify,
} from './helpers.ts';

// On PostgreSQL these requests really run in parallel (a pool of connections); on SQLite they interleave.

let t: TestApp;
let org: CreatedOrganization;
let sandbox: string;
let production: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await t.createOrg();
  sandbox = await t.platformToken(org.sandbox);
  production = await t.platformToken(org.production);
});
afterAll(() => t.close());

const statuses = (responses: { statusCode: number }[]) => responses.map((r) => r.statusCode).sort();

describe('concurrent requests', () => {
  it('20 concurrent verifies of one attempt: exactly one connects, 19 get invalid_connect_attempt', async () => {
    const connectId = await startAttempt(t, sandbox, { email: uniqueEmail() });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => verify(t, sandbox, { connect_id: connectId, code: SANDBOX_CODE })),
    );
    expect(statuses(responses)).toEqual([200, ...Array(19).fill(400)]);
    for (const res of responses.filter((r) => r.statusCode === 400)) {
      expectError(res, 400, 'invalid_connect_attempt');
    }
    // One connection and one token pair came out of it.
    const winner = responses.find((r) => r.statusCode === 200)!.json();
    const connections = await t.ctx.db
      .selectFrom('connections')
      .selectAll()
      .where('user_id', '=', winner.user.id)
      .execute();
    expect(connections).toHaveLength(1);
    const families = await t.ctx.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('connection_id', '=', connections[0]!.id)
      .execute();
    expect(families).toHaveLength(1);
  });

  it('20 concurrent refreshes with one refresh token: one rotation, whose pair all get; nothing is revoked', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => refresh(t, sandbox, { refresh_token: c.refreshToken })),
    );
    expect(statuses(responses)).toEqual(Array(20).fill(200));
    const pairs = new Set(responses.map((r) => `${r.json().access_token} ${r.json().refresh_token}`));
    expect(pairs.size).toBe(1);
    const { family_id: family } = await t.ctx.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('token_digest', '=', digest(c.refreshToken))
      .executeTakeFirstOrThrow();
    const rotations = await t.ctx.db
      .selectFrom('refresh_tokens')
      .select('token_digest')
      .where('family_id', '=', family)
      .execute();
    expect(rotations).toHaveLength(2); // the verify's token and its one successor
    // The successor works: its access token, and its refresh token down the chain.
    const winner = responses[0]!.json();
    expect(await t.ctx.auth.authenticate(winner.access_token)).not.toBeNull();
    const next = await refresh(t, sandbox, { refresh_token: winner.refresh_token });
    expect(next.statusCode).toBe(200);
    expect(await t.ctx.auth.authenticate(next.json().access_token)).not.toBeNull();
  });

  it('20 concurrent replays of a rotated token after the retry grace: the family is revoked', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const second = (await refresh(t, sandbox, { refresh_token: c.refreshToken })).json();
    t.clock.advance(10_001);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => refresh(t, sandbox, { refresh_token: c.refreshToken })),
    );
    expect(statuses(responses)).toEqual(Array(20).fill(401));
    for (const res of responses) expectError(res, 401, 'invalid_refresh_token');
    expect(await t.ctx.auth.authenticate(second.access_token)).toBeNull();
    expectError(
      await refresh(t, sandbox, { refresh_token: second.refresh_token }),
      401,
      'invalid_refresh_token',
    );
  });

  it('concurrent wrong codes: no more than 5 are ever checked, then the attempt is locked', async () => {
    const email = uniqueEmail();
    const connectId = await startAttempt(t, production, { email });
    const code = await outboxCode(t, email);
    const guesses = Array.from({ length: 30 }, (_, i) => String(i).padStart(6, '0')).filter(
      (g) => g !== code,
    );
    const responses = await Promise.all(
      guesses.map((g) => verify(t, production, { connect_id: connectId, code: g })),
    );
    const checked = responses.filter((r) => r.statusCode === 401);
    for (const res of checked) expectError(res, 401, 'invalid_code');
    for (const res of responses.filter((r) => r.statusCode !== 401)) {
      expectError(res, 400, 'invalid_connect_attempt');
    }
    expect(checked.length).toBeLessThanOrEqual(5);
    expectError(await verify(t, production, { connect_id: connectId, code }), 400, 'invalid_connect_attempt');
  });

  it('a right code raced against a flood of wrong ones never gives more than 5 guesses', async () => {
    // Whatever wins, the total number of codes evaluated (401s plus the one success) stays within 5.
    const email = uniqueEmail();
    const connectId = await startAttempt(t, production, { email });
    const code = await outboxCode(t, email);
    const bodies = Array.from({ length: 25 }, (_, i) => ({
      connect_id: connectId,
      code: i === 12 ? code : code === '999999' ? '999998' : '999999',
    }));
    const responses = await Promise.all(bodies.map((b) => verify(t, production, b)));
    const evaluated = responses.filter((r) => r.statusCode === 401 || r.statusCode === 200);
    expect(evaluated.length).toBeLessThanOrEqual(5);
    expect(responses.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1);
  });

  it('concurrent verifies of different attempts for one email create one user', async () => {
    const email = uniqueEmail();
    // Five open attempts (the destination cap), each started once the resend cooldown has passed.
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await startAttempt(t, sandbox, { email }));
      t.clock.advance(30_000);
    }
    const responses = await Promise.all(
      ids.map((id) => verify(t, sandbox, { connect_id: id, code: SANDBOX_CODE })),
    );
    expect(statuses(responses)).toEqual(Array(5).fill(200));
    const userIds = new Set(responses.map((r) => r.json().user.id));
    expect(userIds.size).toBe(1);
    expect(await t.ctx.db.selectFrom('users').selectAll().where('email', '=', email).execute()).toHaveLength(
      1,
    );
    expect(
      await t.ctx.db
        .selectFrom('connections')
        .selectAll()
        .where('user_id', '=', [...userIds][0]!)
        .execute(),
    ).toHaveLength(1);
  });

  it('concurrent consents for one user keep a single record', async () => {
    const c = await connectUser(t, sandbox, { email: uniqueEmail() });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        consent(t, sandbox, { user_id: c.userId, terms_version: `v${i}` }),
      ),
    );
    expect(statuses(responses)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((r) => r.json().id)).size).toBe(1);
    expect(
      await t.ctx.db.selectFrom('consents').selectAll().where('user_id', '=', c.userId).execute(),
    ).toHaveLength(1);
  });
});
