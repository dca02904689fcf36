import { readFileSync } from 'node:fs';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';

const Str = Type.String({ minLength: 1 });

export const ProcessorEntry = Type.Object(
  {
    psp: Type.String({ minLength: 1, description: 'The payment processor' }),
    mode: Type.String({ minLength: 1 }),
    methods: Type.Array(Type.String({ pattern: '^[A-Z]+$' }), { description: 'HTTP methods' }),
    hosts: Type.Array(Str),
    client_side_encryption: Type.String({ minLength: 1, description: 'e.g. `not_supported`' }),
    challenge_surface: Type.String({ minLength: 1, description: 'e.g. `merchant_browser`' }),
    outcome: Str,
    request_flows: Type.Array(
      Type.Object({ flow: Str, coverage: Str, amount_authority: Str }, { additionalProperties: false }),
    ),
    limitations: Type.Array(Str),
  },
  { additionalProperties: false },
);

export const CoverageCatalog = Type.Object(
  {
    integration: Str,
    merchant_confirmation_required: Type.Boolean(),
    validation: Str,
    processors: Type.Array(ProcessorEntry, { minItems: 1 }),
  },
  { additionalProperties: false },
);

export type Coverage = Static<typeof CoverageCatalog>;

const catalogFile = new URL('./coverage.json', import.meta.url);

/**
 * The checkout coverage catalog (spec §2 Checkout coverage; docs/checkout-coverage.md): data in
 * `coverage.json`, checked against its schema once at start, so a bad edit stops the service
 * instead of answering a malformed document.
 */
export function loadCoverage(file: URL = catalogFile): Coverage {
  const { $comment: _comment, ...data } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (!Value.Check(CoverageCatalog, data)) {
    const problems = [...Value.Errors(CoverageCatalog, data)]
      .slice(0, 5)
      .map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new Error(`checkout coverage catalog ${file.pathname} is invalid: ${problems.join('; ')}`);
  }
  return data;
}
