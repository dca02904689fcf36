import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { serializersBySchema } from '../../src/core/serializers.ts';

const errorBody = (...fields: string[]) => ({
  $id: 'ErrorBody',
  type: 'object',
  properties: Object.fromEntries(fields.map((field) => [field, { type: 'string' }])),
});
const route = (url: string, httpStatus: string, schema: unknown) => ({
  method: 'GET',
  url,
  httpStatus,
  schema,
});

describe('response serializers compiled once per distinct schema', () => {
  it('gives routes with equal schemas and equal shared schemas one serializer', () => {
    const factory = serializersBySchema();
    // Fastify hands each route its own copies of the schemas: equal, not the same objects.
    const first = factory({ ErrorBody: errorBody('code') })(route('/a', '404', { $ref: 'ErrorBody' }));
    const second = factory({ ErrorBody: errorBody('code') })(route('/b', '400', { $ref: 'ErrorBody' }));
    expect(second).toBe(first);
    expect(first({ code: 'not_found', stray: 'x' })).toBe('{"code":"not_found"}');
  });

  it('compiles anew for another schema or other shared schemas, each serializing by its own', () => {
    const factory = serializersBySchema();
    const narrow = factory({ ErrorBody: errorBody('code') })(route('/a', '404', { $ref: 'ErrorBody' }));
    const wide = factory({ ErrorBody: errorBody('code', 'message') })(
      route('/a', '404', { $ref: 'ErrorBody' }),
    );
    const other = factory({ ErrorBody: errorBody('code') })(
      route('/a', '200', { type: 'object', properties: { id: { type: 'string' } } }),
    );
    expect(new Set([narrow, wide, other]).size).toBe(3);
    const body = { code: 'c', message: 'm', id: 'i' };
    expect(narrow(body)).toBe('{"code":"c"}');
    expect(wide(body)).toBe('{"code":"c","message":"m"}');
    expect(other(body)).toBe('{"id":"i"}');
  });

  it('serializes every route of a Fastify app by its own schema', async () => {
    const app = Fastify({
      schemaController: { compilersFactory: { buildSerializer: serializersBySchema() } },
    });
    app.addSchema(errorBody('code'));
    const answer = { code: 'c', message: 'm', id: 'i' };
    const byRef = { response: { 200: { $ref: 'ErrorBody#' } } };
    app.get('/one', { schema: byRef }, async () => answer);
    app.get('/two', { schema: byRef }, async () => answer);
    app.get(
      '/three',
      { schema: { response: { 200: { type: 'object', properties: { id: { type: 'string' } } } } } },
      async () => answer,
    );
    await app.register(async (scope) => {
      // An encapsulated context whose shared schema of the same name says more.
      scope.addSchema({ ...errorBody('code', 'message'), $id: 'Wide' });
      scope.get('/four', { schema: { response: { 200: { $ref: 'Wide#' } } } }, async () => answer);
    });
    const bodies = await Promise.all(
      ['/one', '/two', '/three', '/four'].map(async (url) => (await app.inject({ url })).body),
    );
    expect(bodies).toEqual(['{"code":"c"}', '{"code":"c"}', '{"id":"i"}', '{"code":"c","message":"m"}']);
    await app.close();
  });
});
