/**
 * Every list route answers one envelope and pages by one rule (core/pagination.ts, docs/decisions.md
 * "One list envelope"): `{object: "list", data, has_more}` and nothing else; `limit` 1 to 100;
 * a `starting_after` that is not an object of the list is `400 invalid_request` on that field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connectUser, expectError, uniqueEmail, useOrgApp } from '../helpers/fixtures.ts';

const f = useOrgApp({ env: { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' } });
let userId: string;
let userToken: string;
let endpointId: string;
let eventId: string;

beforeAll(async () => {
  ({ userId, accessToken: userToken } = await connectUser(f.t, f.sandbox, { email: uniqueEmail() }));
  const endpoint = await f.t.call('POST', '/api/v1/webhook_endpoints', {
    token: f.org.sandbox.api_key,
    body: { url: 'http://localhost:9/hook', enabled_events: ['*'] },
  });
  expect(endpoint.statusCode, endpoint.body).toBe(201);
  endpointId = endpoint.json().id;
  const event = await f.t.ctx.db.transaction().execute((trx) =>
    f.t.ctx.events.emit(trx, {
      organizationId: f.org.organization_id,
      livemode: false,
      type: 'card.created',
      data: {},
    }),
  );
  eventId = event.id;
});

/**
 * A list route: `path` is read once the fixtures exist. `/api/v1` takes the API key, `/api/v2` a
 * platform token, `/buy` the connected user's token.
 */
const route = (name: string, path: () => string, unknown = '') => ({ name, path, unknown });

/** The paged lists (`limit`, `starting_after`), each with an id that names none of its objects. */
const paged = [
  route('cards', () => '/api/v2/cards', 'card_nope'),
  route('transactions', () => '/api/v2/transactions', 'txn_nope'),
  route('events', () => '/api/v2/events', 'evt_nope'),
  route('mandates', () => `/api/v2/users/${userId}/mandates`, 'mdt_nope'),
  route('connected organizations', () => '/api/v2/connected_organizations', 'org_nope'),
  route('webhook endpoints', () => '/api/v1/webhook_endpoints', 'wh_nope'),
  route('deliveries of an endpoint', () => `/api/v1/webhook_endpoints/${endpointId}/deliveries`, 'whd_nope'),
  route('deliveries of an event', () => `/api/v1/events/${eventId}/deliveries`, 'whd_nope'),
];

/** The whole lists: catalogs and lists bounded by one, on one page. */
const whole = [
  route('merchant categories', () => '/api/v2/merchant_categories'),
  route('merchant accounts', () => `/api/v2/users/${userId}/merchant_accounts`),
  route('merchants of /buy', () => '/buy/merchants'),
];

const tokenFor = (path: string) =>
  path.startsWith('/api/v1/') ? f.org.sandbox.api_key : path.startsWith('/buy/') ? userToken : f.sandbox;
const get = (path: string) => f.t.call('GET', path, { token: tokenFor(path) });
const envelope = { object: 'list', data: expect.any(Array), has_more: expect.any(Boolean) };

describe.each(paged)('the list of $name', ({ path, unknown }) => {
  it('answers the list envelope and nothing else', async () => {
    const res = await get(`${path()}?limit=1`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(envelope);
    expect(res.json().data.length).toBeLessThanOrEqual(1);
  });

  it('takes a limit from 1 to 100', async () => {
    expectError(await get(`${path()}?limit=0`), 400, 'invalid_request');
    expectError(await get(`${path()}?limit=101`), 400, 'invalid_request');
    expect((await get(`${path()}?limit=100`)).statusCode).toBe(200);
  });

  it('answers 400 invalid_request on starting_after for an id that is not in the list', async () => {
    const error = expectError(await get(`${path()}?starting_after=${unknown}`), 400, 'invalid_request');
    expect(Object.keys(error.field_errors)).toEqual(['starting_after']);
  });
});

describe.each(whole)('the list of $name', ({ path }) => {
  it('answers every object on one page of the list envelope', async () => {
    const res = await get(path());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...envelope, has_more: false });
  });
});

describe('the OpenAPI document', () => {
  it('lists the routes above as every route answering a list, each paged one with the one query', async () => {
    const doc = (await f.t.call('GET', '/api/v2/openapi.json')).json() as {
      paths: Record<string, Record<string, OpenApiOperation>>;
      components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
    };
    const isList = (operation: OpenApiOperation) => {
      const schema = operation.responses?.['200']?.content?.['application/json']?.schema;
      const resolved = schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
      return resolved?.properties?.object?.enum?.join() === 'list';
    };
    const lists = Object.entries(doc.paths)
      .filter(([, operations]) => operations.get && isList(operations.get))
      .map(([route]) => route);
    const template = (route: string) =>
      route
        .replace(userId, '{user_id}')
        .replace(`webhook_endpoints/${endpointId}`, 'webhook_endpoints/{id}')
        .replace(`events/${eventId}`, 'events/{id}');
    const known = [...paged, ...whole].map((list) => template(list.path()));
    expect(lists.sort()).toEqual(known.sort());
    for (const list of paged) {
      const parameters = doc.paths[template(list.path())]!.get!.parameters ?? [];
      const query = parameters.filter((p) => p.in === 'query').map((p) => p.name);
      expect(query, list.name).toEqual(expect.arrayContaining(['limit', 'starting_after']));
    }
  });
});

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  responses?: Record<
    string,
    { content?: Record<string, { schema?: { $ref?: string; properties?: never } }> }
  >;
}
