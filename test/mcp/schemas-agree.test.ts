import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CardObject, TransactionObject, WalletObject } from '../../src/domains/cards/card-schemas.ts';
import { SpendingControlsObject } from '../../src/domains/cards/control-routes.ts';
import { KycState } from '../../src/domains/kyc/routes.ts';
import { MandateObject, TermsObject } from '../../src/domains/mandates/routes.ts';
import { TOOLS } from '../../src/domains/mcp/tools.ts';
import {
  CartObject,
  ConversationObject,
  Envelope,
  MerchantList,
} from '../../src/domains/purchases/schemas.ts';

/*
 * The MCP tools describe the API's objects again, in zod (the SDK's schema language). The two must
 * not drift: each tool's output object, as JSON Schema, has the same members, the same required
 * ones and the same kinds of value as the API's TypeBox object.
 */

type Json = Record<string, unknown>;

/** The API's named schemas the objects below refer to (`ref()` in core/schemas.ts). */
const NAMED = new Map<string, Json>(
  [SpendingControlsObject, TermsObject, CartObject].map((schema) => [
    (schema as unknown as Json).$id as string,
    JSON.parse(JSON.stringify(schema)) as Json,
  ]),
);

/** A schema reduced to what a client relies on: members, required ones, value kinds, enum values. */
function shape(schema: Json): unknown {
  if (typeof schema.$ref === 'string') {
    const named = NAMED.get(schema.$ref);
    if (!named) throw new Error(`no named schema ${schema.$ref}`);
    return shape(named);
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives) {
    // A union of literals is an enum, whichever way it is written; nested unions flatten.
    const flat = alternatives.map(shape).flatMap((kind) => (kind as { anyOf?: unknown[] }).anyOf ?? [kind]);
    const values = flat.flatMap((kind) => (kind as { enum?: unknown[] }).enum ?? []);
    const others = flat.filter((kind) => !(kind as { enum?: unknown[] }).enum);
    const kinds = [...(values.length ? [{ enum: [...new Set(values)].sort() }] : []), ...others];
    if (kinds.length === 1) return kinds[0];
    return {
      anyOf: [...new Set(kinds.map((kind) => JSON.stringify(kind)))].sort().map((kind) => JSON.parse(kind)),
    };
  }
  if (schema.const !== undefined) return { enum: [schema.const] };
  if (schema.enum) {
    const values = schema.enum as unknown[];
    if (!values.includes(null)) return { enum: [...values].sort() };
    return shape({ anyOf: [{ enum: values.filter((v) => v !== null) }, { type: 'null' }] });
  }
  const type = schema.type;
  if (Array.isArray(type)) return shape({ anyOf: type.map((t) => ({ ...schema, type: t })) });
  if (type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    return {
      type,
      properties: Object.fromEntries(
        Object.keys(properties)
          .sort()
          .map((name) => [name, shape(properties[name] as Json)]),
      ),
      required: [...((schema.required as string[] | undefined) ?? [])].sort(),
    };
  }
  if (type === 'array') return { type, items: shape((schema.items ?? {}) as Json) };
  return { type };
}

const zodShape = (schema: z.ZodType) => shape(z.toJSONSchema(schema, { io: 'output' }) as Json);
const typeboxShape = (schema: TSchema) => shape(JSON.parse(JSON.stringify(schema)) as Json);

interface Shape {
  type?: string;
  properties?: Record<string, Shape>;
  required?: string[];
  items?: Shape;
}

/**
 * A tool's object that names only some members of the API's (a loose object: the rest pass through
 * unchecked): each member it names is the API's, of the same kind, required where the API requires it;
 * its objects inside are compared the same way.
 */
function expectMembersOf(mine: Shape, api: Shape, path: string): void {
  if (mine.type === 'object' && api.type === 'object') {
    for (const [name, kind] of Object.entries(mine.properties ?? {})) {
      expect(api.properties, `${path}.${name} is not a member of the API's object`).toHaveProperty([name]);
      expectMembersOf(kind, api.properties?.[name] as Shape, `${path}.${name}`);
    }
    for (const name of mine.required ?? [])
      expect(api.required, `${path}.${name} is required by the tool, not by the API`).toContain(name);
    return;
  }
  if (mine.type === 'array' && api.type === 'array')
    expectMembersOf(mine.items as Shape, api.items as Shape, `${path}[]`);
  else expect(mine, path).toEqual(api);
}

const tool = (name: string) => {
  const found = TOOLS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

describe("the MCP tools' objects agree with the API's", () => {
  it.each([
    ['get_wallet', WalletObject],
    ['close_card', CardObject],
  ] as const)('%s answers the API object', (name, api) => {
    expect(zodShape(tool(name).output)).toEqual(typeboxShape(api));
  });

  it('get_kyc_status answers members of the API object, each as the API has it (not those only uploads carry)', () => {
    const mine = zodShape(tool('get_kyc_status').output) as { properties: Record<string, unknown> };
    const api = typeboxShape(KycState) as { properties: Record<string, unknown> };
    for (const [name, kind] of Object.entries(mine.properties))
      expect(kind, name).toEqual(api.properties[name]);
  });

  it('list_cards and list_transactions list the API objects', () => {
    const listed = (name: string) =>
      (zodShape(tool(name).output) as { properties: { data: unknown } }).properties.data;
    expect(listed('list_cards')).toEqual({ type: 'array', items: typeboxShape(CardObject) });
    expect(listed('list_transactions')).toEqual({ type: 'array', items: typeboxShape(TransactionObject) });
  });

  it('get_mandate answers the API object', () => {
    expect(zodShape(tool('get_mandate').output)).toEqual(typeboxShape(MandateObject));
  });

  it('buy and get_conversation answer members of the API objects, each as the API has it', () => {
    expectMembersOf(zodShape(tool('buy').output) as Shape, typeboxShape(Envelope) as Shape, 'buy');
    expectMembersOf(
      zodShape(tool('get_conversation').output) as Shape,
      typeboxShape(ConversationObject) as Shape,
      'get_conversation',
    );
  });

  it('list_merchants lists the API objects', () => {
    const data = (shape: unknown) => (shape as { properties: { data: unknown } }).properties.data;
    expect(data(zodShape(tool('list_merchants').output))).toEqual(data(typeboxShape(MerchantList)));
  });
});
