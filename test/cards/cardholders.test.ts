import { describe, expect, it } from 'vitest';
import { expectError, useCards } from './helpers.ts';

const f = useCards();

const v1 = (method: string, url: string, body?: unknown, key = f.org.sandbox.api_key) =>
  f.t.call(method, url, { body, headers: { authorization: `Bearer ${key}` } });

const ada = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  date_of_birth: '1990-12-10',
  phone_number: '+14155550123',
};

describe('v1 cardholders', () => {
  it('creates a cardholder and fires cardholder.created with exactly the spec fields', async () => {
    const response = await v1('POST', '/api/v1/cardholders', { ...ada, external_user_id: 'ext-1' });
    expect(response.statusCode).toBe(201);
    const cardholder = response.json();
    expect(cardholder).toEqual({
      object: 'cardholder',
      id: expect.stringMatching(/^ch_/),
      ...ada,
      external_user_id: 'ext-1',
      user_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const [event] = (await f.events('cardholder.created')).filter((e) => e.id === cardholder.id);
    expect(event).toEqual({ id: cardholder.id, ...ada, created_at: cardholder.created_at });
    expect((await v1('GET', `/api/v1/cardholders/${cardholder.id}`)).json()).toEqual(cardholder);
    // Personal details are sealed at rest.
    const row = await f.t.ctx.db
      .selectFrom('cardholders')
      .selectAll()
      .where('id', '=', cardholder.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('Lovelace');
    expect(JSON.stringify(row)).not.toContain('1990-12-10');
  });

  it('updates details and fires cardholder.updated naming what changed', async () => {
    const created = (await v1('POST', '/api/v1/cardholders', ada)).json();
    f.t.clock.advance(1_000);
    const response = await v1('PATCH', `/api/v1/cardholders/${created.id}`, {
      last_name: 'King',
      email: ada.email,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ last_name: 'King', email: ada.email });
    const updates = (await f.events('cardholder.updated')).filter((e) => e.id === created.id);
    expect(updates).toEqual([
      {
        id: created.id,
        ...ada,
        last_name: 'King',
        updated_fields: ['last_name'],
        updated_at: response.json().updated_at,
      },
    ]);
    // Nothing changed: no event.
    await v1('PATCH', `/api/v1/cardholders/${created.id}`, { last_name: 'King' });
    expect((await f.events('cardholder.updated')).filter((e) => e.id === created.id)).toHaveLength(1);
    // Only the platform's own reference: answered as it now is, with no event (not a detail of §6).
    const relinked = await v1('PATCH', `/api/v1/cardholders/${created.id}`, { external_user_id: 'ext-2' });
    expect(relinked.json().external_user_id).toBe('ext-2');
    expect((await v1('GET', `/api/v1/cardholders/${created.id}`)).json()).toEqual(relinked.json());
    expect((await f.events('cardholder.updated')).filter((e) => e.id === created.id)).toHaveLength(1);
  });

  it('refuses bad details with field errors and changes nothing', async () => {
    for (const bad of [
      { ...ada, date_of_birth: '1990-02-30' },
      { ...ada, date_of_birth: '2999-01-01' },
      { ...ada, date_of_birth: '10/12/1990' },
      { ...ada, phone_number: '4155550123' },
      { ...ada, phone_number: '+1415' },
      { ...ada, email: 'not-an-email' },
      { ...ada, first_name: '' },
      { ...ada, first_name: ' ' },
      { ...ada, last_name: '\t\n' },
      { ...ada, nickname: 'A' },
      { last_name: 'Lovelace' },
    ]) {
      const response = await v1('POST', '/api/v1/cardholders', bad);
      expectError(response, 400, 'invalid_request');
    }
    const created = (await v1('POST', '/api/v1/cardholders', ada)).json();
    expectError(await v1('PATCH', `/api/v1/cardholders/${created.id}`, {}), 400, 'invalid_request');
    for (const bad of [
      { date_of_birth: '1990-13-01' },
      { first_name: '   ' },
      { phone_number: '+1 415 555 0123' },
    ]) {
      expectError(await v1('PATCH', `/api/v1/cardholders/${created.id}`, bad), 400, 'invalid_request');
    }
    expect((await v1('GET', `/api/v1/cardholders/${created.id}`)).json()).toEqual(created);
    // Any E.164 number of a possible length, test numbers included.
    for (const phone_number of ['+15555550100', '+447700900123']) {
      expect(
        (await v1('POST', '/api/v1/cardholders', { ...ada, phone_number })).statusCode,
        phone_number,
      ).toBe(201);
    }
  });

  it('keeps organizations and modes apart (404) and needs an API key (401)', async () => {
    const created = (await v1('POST', '/api/v1/cardholders', ada)).json();
    expectError(
      await v1('GET', `/api/v1/cardholders/${created.id}`, undefined, f.org.production.api_key),
      404,
      'not_found',
    );
    const other = await f.t.createOrg('Other');
    expectError(
      await v1('GET', `/api/v1/cardholders/${created.id}`, undefined, other.sandbox.api_key),
      404,
      'not_found',
    );
    expectError(
      await v1('PATCH', `/api/v1/cardholders/${created.id}`, { last_name: 'X' }, other.sandbox.api_key),
      404,
      'not_found',
    );
    expectError(
      await f.t.call('GET', `/api/v1/cardholders/${created.id}`, { token: f.sandbox }),
      401,
      'unauthorized',
    );
    expectError(await f.t.call('GET', `/api/v1/cardholders/${created.id}`), 401, 'unauthorized');
  });

  it('answers the deprecated payment-method status with Deprecation and Sunset headers', async () => {
    const created = (await v1('POST', '/api/v1/cardholders', ada)).json();
    const response = await v1('GET', `/api/v1/cardholders/${created.id}/payment-method/status`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ hasPaymentMethod: false });
    expect(response.headers.deprecation).toMatch(/^@\d+$/);
    expect(new Date(response.headers.sunset as string).getTime()).toBeGreaterThan(0);
    expect(response.headers.link).toContain('rel="deprecation"');
    expectError(await v1('GET', '/api/v1/cardholders/ch_nope/payment-method/status'), 404, 'not_found');
  });
});

describe('approved users', () => {
  it('become cardholders once, linked both ways, with what the verification established', async () => {
    const userId = await f.connectedUser();
    const simulate = (outcome: string) =>
      f.t.call('POST', '/api/v2/kyc/simulate', { token: f.sandbox, body: { user_id: userId, outcome } });
    await simulate('approved');
    await simulate('rejected');
    await simulate('approved');
    const row = await f.t.ctx.db
      .selectFrom('cardholders')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(row).toHaveLength(1);
    const created = (await f.events('cardholder.created')).filter((e) => e.id === row[0]?.id);
    expect(created).toHaveLength(1);
    // The simulated verification established no names: unknown is null, not "".
    expect(created[0]).toMatchObject({
      email: expect.stringContaining('@example.com'),
      phone_number: null,
      first_name: null,
      last_name: null,
    });
    const cardholder = (await v1('GET', `/api/v1/cardholders/${row[0]?.id}`)).json();
    expect(cardholder).toMatchObject({ user_id: userId, first_name: null, last_name: null });
    await f.fund(userId, 500);
    const card = await f.createCard(userId, 500);
    expect(card.cardholder_id).toBe(cardholder.id);
  });
});
