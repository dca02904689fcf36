import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';
import { testEncryptionKey } from './receiver.ts';

let t: TestApp;
let org: CreatedOrganization;
let token: string;
const ids: Record<string, string> = {};
let t0: number;

beforeAll(async () => {
  t = await startTestApp({ ENCRYPTION_KEY: testEncryptionKey() });
  org = await t.createOrg();
  token = await t.platformToken(org.sandbox);
  t0 = Math.floor(t.clock.now() / 1000);
  // One event per second, oldest first.
  for (const type of [
    'card.created',
    'card.updated',
    'card_flow.started',
    'transaction.cleared',
    'card.closed',
  ]) {
    ids[type] = (
      await t.ctx.db.transaction().execute((trx) =>
        t.ctx.events.emit(trx, {
          organizationId: org.organization_id,
          livemode: false,
          type,
          data: { type },
        }),
      )
    ).id;
    t.clock.advance(1000);
  }
});
afterAll(() => t.close());

const list = async (query = '') => {
  const res = await t.call('GET', `/api/v2/events${query}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    object: string;
    data: { id: string; type: string }[];
    has_more: boolean;
    next_cursor: string | null;
  };
};

describe('GET /api/v2/events', () => {
  it('needs a platform token', async () => {
    expect((await t.call('GET', '/api/v2/events')).statusCode).toBe(401);
    expect((await t.call('GET', '/api/v2/events', { token: org.sandbox.api_key })).statusCode).toBe(401);
  });

  it('lists newest first in the list envelope, each event exactly the spec envelope', async () => {
    const page = await list();
    expect(page).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(page.data.map((e) => e.type)).toEqual([
      'card.closed',
      'transaction.cleared',
      'card_flow.started',
      'card.updated',
      'card.created',
    ]);
    expect(page.data[4]).toEqual({
      id: ids['card.created'],
      type: 'card.created',
      created: t0,
      livemode: false,
      data: { type: 'card.created' },
    });
  });

  it('filters by exact type, prefix wildcard (not matching card_flow), several, and *', async () => {
    expect((await list('?type=card.updated')).data.map((e) => e.id)).toEqual([ids['card.updated']]);
    expect((await list('?type=card.*')).data.map((e) => e.type)).toEqual([
      'card.closed',
      'card.updated',
      'card.created',
    ]);
    expect((await list('?type=card_flow.*&type=transaction.cleared')).data.map((e) => e.type)).toEqual([
      'transaction.cleared',
      'card_flow.started',
    ]);
    expect((await list('?type=card_flow.started,card.closed')).data).toHaveLength(2);
    expect((await list('?type=*')).data).toHaveLength(5);
    // `_` is not a wildcard: `card_*` is not a valid pattern, and `car_.*` matches nothing.
    expect((await list('?type=car_.*')).data).toHaveLength(0);
    const bad = await t.call('GET', '/api/v2/events?type=card*', { token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.field_errors).toHaveProperty('type');
  });

  it('filters by time with created[gte|gt|lte|lt] in Unix seconds', async () => {
    expect((await list(`?created[gte]=${t0 + 3}`)).data.map((e) => e.type)).toEqual([
      'card.closed',
      'transaction.cleared',
    ]);
    expect((await list(`?created[gt]=${t0 + 3}`)).data.map((e) => e.type)).toEqual(['card.closed']);
    expect((await list(`?created[lte]=${t0 + 1}`)).data.map((e) => e.type)).toEqual([
      'card.updated',
      'card.created',
    ]);
    expect((await list(`?created[lt]=${t0 + 1}`)).data.map((e) => e.type)).toEqual(['card.created']);
    expect(
      (await list(`?created[gte]=${t0 + 1}&created[lt]=${t0 + 3}&type=card.*`)).data.map((e) => e.type),
    ).toEqual(['card.updated']);
    const bad = await t.call('GET', '/api/v2/events?created[gte]=yesterday', { token });
    expect(bad.statusCode).toBe(400);
    const unknown = await t.call('GET', '/api/v2/events?created_after=1', { token });
    expect(unknown.statusCode).toBe(400);
  });

  it('pages with limit and starting_after (next_cursor) until has_more is false', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual((await list()).data.map((e) => e.id));
    expect((await t.call('GET', '/api/v2/events?limit=0', { token })).statusCode).toBe(400);
    expect((await t.call('GET', '/api/v2/events?limit=101', { token })).statusCode).toBe(400);
    expect((await t.call('GET', '/api/v2/events?starting_after=evt_nope', { token })).statusCode).toBe(400);
  });

  it('pages stably through events created in the same millisecond', async () => {
    const fresh = await t.createOrg('Burst');
    const burstToken = await t.platformToken(fresh.sandbox);
    await t.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 7; i++) {
        await t.ctx.events.emit(trx, {
          organizationId: fresh.organization_id,
          livemode: false,
          type: 'card.created',
          data: { i },
        });
      }
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await t.call('GET', `/api/v2/events?limit=3${cursor ? `&starting_after=${cursor}` : ''}`, {
        token: burstToken,
      });
      seen.push(...res.json().data.map((e: { id: string }) => e.id));
      cursor = res.json().next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });
});

describe('GET /api/v2/events/{id}', () => {
  it('retrieves an event of the calling organization and mode', async () => {
    const res = await t.call('GET', `/api/v2/events/${ids['card.updated']}`, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ids['card.updated'], type: 'card.updated', livemode: false });
  });

  it('answers 404 not_found for another organization or mode', async () => {
    const other = await t.createOrg('Other');
    for (const credentials of [other.sandbox, org.production]) {
      const res = await t.call('GET', `/api/v2/events/${ids['card.updated']}`, {
        token: await t.platformToken(credentials),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      const page = await t.call('GET', '/api/v2/events', { token: await t.platformToken(credentials) });
      expect(page.json().data).toEqual([]);
    }
  });
});

describe('retention', () => {
  it('keeps events 30 days, then the sweep removes them', async () => {
    const fresh = await t.createOrg('Retention');
    const freshToken = await t.platformToken(fresh.sandbox);
    const { id } = await t.ctx.db.transaction().execute((trx) =>
      t.ctx.events.emit(trx, {
        organizationId: fresh.organization_id,
        livemode: false,
        type: 'card.created',
        data: {},
      }),
    );
    const worker = new Worker(t.ctx, { info: () => {}, error: () => {} });
    t.clock.advance(30 * DAY - 1000);
    await worker.runOnce();
    expect(
      (await t.call('GET', `/api/v2/events/${id}`, { token: await t.platformToken(fresh.sandbox) }))
        .statusCode,
    ).toBe(200);
    t.clock.advance(2000);
    expect(await t.ctx.events.pruneExpired()).toBeGreaterThanOrEqual(1);
    expect(
      (await t.call('GET', `/api/v2/events/${id}`, { token: await t.platformToken(fresh.sandbox) }))
        .statusCode,
    ).toBe(404);
    void freshToken;
  });
});
