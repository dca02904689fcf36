import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  ERROR_CLASSES_PATH,
  generateErrorClasses,
  generateSchema,
  SCHEMA_PATH,
} from '../scripts/generate.ts';

it('ships types generated from the OpenAPI document the service serves now', {
  timeout: 60_000,
}, async () => {
  const committed = readFileSync(SCHEMA_PATH, 'utf8');
  const current = await generateSchema();
  // A route or schema changed since packages/sdk/src/schema.d.ts was generated.
  expect(current === committed, 'schema.d.ts is stale: run `npm run sdk:generate` and commit it').toBe(true);
});

it('ships an error class for every code of the error catalog', () => {
  const committed = readFileSync(ERROR_CLASSES_PATH, 'utf8');
  expect(
    generateErrorClasses() === committed,
    'error-classes.ts is stale: run `npm run sdk:generate` and commit it',
  ).toBe(true);
});
