import { beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../src/core/clock.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { useOrgApp } from '../helpers/fixtures.ts';
import { testEncryptionKey } from './receiver.ts';

const f = useOrgApp({ env: { ENCRYPTION_KEY: testEncryptionKey() } });
const ids: Record<string, string> = {};
let t0: number;

beforeAll(async () => {
  t0 = Math.floor(f.t.clock.now() / 1000);
  // One event per second, oldest first.
  for (const type of [
    'card.created',
    'card.updated',
    'card_flow.started',
    'transaction.cleared',
    'card.closed',
  ]) {
    ids[type] = (
      await f.t.ctx.db.transaction().execute((trx) =>
        f.t.ctx.events.emit(trx, {
          organizationId: f.org.organization_id,
          livemode: false,
          type,
          data: { type },
        }),
      )
    ).id;
    f.t.clock.advance(1000);
  }
});

const list = async (query = '') => {
  const res = await f.t.call('GET', `/api/v2/events${query}`, { token: f.sandbox });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    object: string;
    data: { id: string; type: string }[];
    has_more: boolean;
  };
};

describe('GET /api/v2/events', () => {
  it('needs a platform token', async () => {
    expect((await f.t.call('GET', '/api/v2/events')).statusCode).toBe(401);
    expect((await f.t.call('GET', '/api/v2/events', { token: f.org.sandbox.api_key })).statusCode).toBe(401);
  });

  it('lists newest first in the list envelope, each event exactly the spec envelope', async () => {
    const page = await list();
    expect(page).toEqual({ object: 'list', data: expect.any(Array), has_more: false });
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
    const bad = await f.t.call('GET', '/api/v2/events?type=card*', { token: f.sandbox });
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
    const bad = await f.t.call('GET', '/api/v2/events?created[gte]=yesterday', { token: f.sandbox });
    expect(bad.statusCode).toBe(400);
    const unknown = await f.t.call('GET', '/api/v2/events?created_after=1', { token: f.sandbox });
    expect(unknown.statusCode).toBe(400);
  });

  it('pages with limit and starting_after (the last id) until has_more is false', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.has_more ? page.data.at(-1)!.id : null;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual((await list()).data.map((e) => e.id));
    expect((await f.t.call('GET', '/api/v2/events?limit=0', { token: f.sandbox })).statusCode).toBe(400);
    expect((await f.t.call('GET', '/api/v2/events?limit=101', { token: f.sandbox })).statusCode).toBe(400);
    expect(
      (await f.t.call('GET', '/api/v2/events?starting_after=evt_nope', { token: f.sandbox })).statusCode,
    ).toBe(400);
  });

  it('pages stably through events created in the same millisecond', async () => {
    const fresh = await f.t.createOrg('Burst');
    const burstToken = await f.t.platformToken(fresh.sandbox);
    await f.t.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 7; i++) {
        await f.t.ctx.events.emit(trx, {
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
      const res = await f.t.call(
        'GET',
        `/api/v2/events?limit=3${cursor ? `&starting_after=${cursor}` : ''}`,
        {
          token: burstToken,
        },
      );
      seen.push(...res.json().data.map((e: { id: string }) => e.id));
      cursor = res.json().has_more ? res.json().data.at(-1).id : null;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });
});

describe('GET /api/v2/events/{id}', () => {
  it('retrieves an event of the calling organization and mode', async () => {
    const res = await f.t.call('GET', `/api/v2/events/${ids['card.updated']}`, { token: f.sandbox });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: ids['card.updated'], type: 'card.updated', livemode: false });
  });

  it('answers 404 not_found for another organization or mode', async () => {
    const other = await f.t.createOrg('Other');
    for (const credentials of [other.sandbox, f.org.production]) {
      const res = await f.t.call('GET', `/api/v2/events/${ids['card.updated']}`, {
        token: await f.t.platformToken(credentials),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      const page = await f.t.call('GET', '/api/v2/events', { token: await f.t.platformToken(credentials) });
      expect(page.json().data).toEqual([]);
    }
  });
});

describe('retention', () => {
  it('keeps events 30 days, then the sweep removes them', async () => {
    const fresh = await f.t.createOrg('Retention');
    const freshToken = await f.t.platformToken(fresh.sandbox);
    const { id } = await f.t.ctx.db.transaction().execute((trx) =>
      f.t.ctx.events.emit(trx, {
        organizationId: fresh.organization_id,
        livemode: false,
        type: 'card.created',
        data: {},
      }),
    );
    const worker = new Worker(f.t.ctx, { info: () => {}, error: () => {} });
    f.t.clock.advance(30 * DAY - 1000);
    await worker.runOnce();
    expect(
      (await f.t.call('GET', `/api/v2/events/${id}`, { token: await f.t.platformToken(fresh.sandbox) }))
        .statusCode,
    ).toBe(200);
    f.t.clock.advance(2000);
    expect(await f.t.ctx.events.pruneExpired()).toBeGreaterThanOrEqual(1);
    expect(
      (await f.t.call('GET', `/api/v2/events/${id}`, { token: await f.t.platformToken(fresh.sandbox) }))
        .statusCode,
    ).toBe(404);
    void freshToken;
  });
});
