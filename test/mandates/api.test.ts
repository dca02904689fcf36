import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Worker } from '../../src/jobs/worker.ts';
import { expectError, useCards } from '../cards/helpers.ts';
import { quiet } from '../helpers/fixtures.ts';
import { activate, createMandate, termsFor } from './helpers.ts';

/**
 * The mandate as a platform sees it (issue 28; docs/mandates.md): the object, its validation, its
 * hash, its states and events, and nothing of another organization or mode.
 */
const f = useCards();
const post = (userId: string, body: unknown, token = f.sandbox) =>
  f.t.call('POST', `/api/v2/users/${userId}/mandates`, { token, body });

describe('creating a mandate', () => {
  it('answers the exact object, the terms as stored and their hash computed independently', async () => {
    const userId = await f.connectedUser();
    const body = {
      ...termsFor(f, { expires_at: new Date(f.t.clock.now() + 86_400_000).toISOString() }),
      allowed_categories: ['5411', '5411', 'grocery_stores_supermarkets'],
    };
    const created = await post(userId, body);
    expect(created.statusCode, created.body).toBe(201);
    const mandate = created.json();
    expect(Object.keys(mandate).sort()).toEqual(
      [
        'object',
        'id',
        'status',
        'approval_url',
        'terms_hash',
        'terms',
        'spent_cents',
        'remaining_cents',
        'created_at',
        'approved_at',
        'expires_at',
      ].sort(),
    );
    expect(mandate).toMatchObject({
      object: 'mandate',
      id: expect.stringMatching(/^mdt_/),
      status: 'pending_approval',
      approval_url: expect.stringMatching(
        new RegExp(`^http://purser\\.test/mandates/${mandate.id}/approve/`),
      ),
      spent_cents: 0,
      remaining_cents: 20_000,
      approved_at: null,
      expires_at: body.expires_at,
    });
    expect(mandate.terms).toEqual({
      client_id: f.org.sandbox.client_id,
      description: 'Groceries every week',
      currency: 'usd',
      max_amount_cents: 5_000,
      budget: { amount_cents: 20_000, interval: 'monthly' },
      allowed_categories: ['5411', 'grocery_stores_supermarkets'],
      allowed_merchants: null,
      expires_at: body.expires_at,
    });
    // RFC 8785 by hand: keys sorted by code unit, no spaces, integers as written.
    const canonical =
      `{"allowed_categories":["5411","grocery_stores_supermarkets"],"allowed_merchants":null,` +
      `"budget":{"amount_cents":20000,"interval":"monthly"},"client_id":${JSON.stringify(f.org.sandbox.client_id)},` +
      `"currency":"usd","description":"Groceries every week","expires_at":"${body.expires_at}",` +
      `"max_amount_cents":5000}`;
    expect(mandate.terms_hash).toBe(createHash('sha256').update(canonical).digest('hex'));

    const read = await f.t.call('GET', `/api/v2/mandates/${mandate.id}`, { token: f.sandbox });
    expect(read.json()).toEqual(mandate);
    const list = await f.t.call('GET', `/api/v2/users/${userId}/mandates`, { token: f.sandbox });
    expect(list.json()).toEqual({ object: 'list', data: [mandate], has_more: false });
  });

  it('refuses bad terms with a 400 naming each field, and writes nothing', async () => {
    const userId = await f.connectedUser();
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'eur' }, 'currency'],
      [{ max_amount_cents: 30_000 }, 'max_amount_cents'],
      [{ allowed_categories: ['not-a-category'] }, 'allowed_categories'],
      [{ allowed_categories: [] }, 'allowed_categories'],
      [{ allowed_merchants: [] }, 'allowed_merchants'],
      [{ expires_at: 'tomorrow' }, 'expires_at'],
      [{ expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ expires_at: new Date(f.t.clock.now() + 400 * 86_400_000).toISOString() }, 'expires_at'],
      [{ client_id: 'cli_unknown' }, 'client_id'],
      [{ client_id: f.org.production.client_id }, 'client_id'],
    ];
    for (const [over, field] of cases) {
      const error = expectError(await post(userId, termsFor(f, over as never)), 400, 'invalid_request');
      expect(Object.keys(error.field_errors), JSON.stringify(over)).toEqual([field]);
    }
    for (const shape of [
      { max_amount_cents: 0 },
      { max_amount_cents: 1.5 },
      { budget: { amount_cents: 1, interval: 'yearly' } },
      { extra: 1 },
    ])
      expectError(await post(userId, { ...termsFor(f), ...shape }), 400, 'invalid_request');
    const missing = { ...termsFor(f) } as Record<string, unknown>;
    delete missing.description;
    expectError(await post(userId, missing), 400, 'invalid_request');
    const list = await f.t.call('GET', `/api/v2/users/${userId}/mandates`, { token: f.sandbox });
    expect(list.json().data).toEqual([]);
  });

  it('is 404 for a user or a mandate of another organization or mode', async () => {
    const userId = await f.connectedUser();
    expectError(await post('usr_nobody', termsFor(f)), 404, 'not_found');
    expectError(
      await post(userId, { ...termsFor(f), client_id: f.org.production.client_id }, f.production),
      404,
      'not_found',
    );
    const mandate = await createMandate(f, userId);
    const other = await f.t.createOrg('Other');
    const otherToken = await f.t.platformToken(other.sandbox);
    for (const token of [f.production, otherToken]) {
      expectError(await f.t.call('GET', `/api/v2/mandates/${mandate.id}`, { token }), 404, 'not_found');
      expectError(await f.t.call('DELETE', `/api/v2/mandates/${mandate.id}`, { token }), 404, 'not_found');
      const list = await f.t.call('GET', `/api/v2/users/${userId}/mandates`, { token });
      expect(list.json().data).toEqual([]);
    }
  });
});

describe('states and events', () => {
  it('approves, revokes once with mandate.revoked, and drops the approval link', async () => {
    const userId = await f.connectedUser();
    const mandate = await createMandate(f, userId);
    await activate(f, mandate);
    const active = (await f.t.call('GET', `/api/v2/mandates/${mandate.id}`, { token: f.sandbox })).json();
    expect(active).toMatchObject({ status: 'active', approval_url: null, approved_at: expect.any(String) });
    expect((await f.events('mandate.approved')).filter((e) => e.id === mandate.id)).toEqual([
      expect.objectContaining({ status: 'active', user_id: userId, terms_hash: mandate.terms_hash }),
    ]);
    for (let i = 0; i < 2; i++) {
      const revoked = await f.t.call('DELETE', `/api/v2/mandates/${mandate.id}`, { token: f.sandbox });
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(revoked.json()).toMatchObject({ id: mandate.id, status: 'revoked' });
    }
    expect((await f.events('mandate.revoked')).filter((e) => e.id === mandate.id)).toHaveLength(1);
  });

  it("expires at its end by the worker's chores with mandate.expired, and can no longer be revoked", async () => {
    const userId = await f.connectedUser();
    const mandate = await createMandate(f, userId, {
      expires_at: new Date(f.t.clock.now() + 3_600_000).toISOString(),
    });
    await activate(f, mandate);
    f.t.clock.advance(3_600_000);
    await f.renewTokens();
    const shown = (await f.t.call('GET', `/api/v2/mandates/${mandate.id}`, { token: f.sandbox })).json();
    expect(shown.status).toBe('expired');
    await new Worker(f.t.ctx, quiet).runOnce();
    expect((await f.events('mandate.expired')).filter((e) => e.id === mandate.id)).toEqual([
      expect.objectContaining({ status: 'expired' }),
    ]);
    expectError(
      await f.t.call('DELETE', `/api/v2/mandates/${mandate.id}`, { token: f.sandbox }),
      409,
      'invalid_mandate_state',
    );
  });
});
