/**
 * `npm run sdk:generate`: builds the service in-process (an in-memory database, the default
 * configuration, no environment read), takes the OpenAPI document it serves at
 * /api/v2/openapi.json, and writes its TypeScript types to packages/sdk/src/schema.d.ts with
 * openapi-typescript. The SDK's test fails while the committed file differs from what this writes.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { createContext } from '../../../src/context.ts';

export const SCHEMA_PATH = fileURLToPath(new URL('../src/schema.d.ts', import.meta.url));

const HEADER = `/**
 * The Purser platform API's paths and schemas, generated from the OpenAPI document the service
 * serves (GET /api/v2/openapi.json) by \`npm run sdk:generate\`. Do not edit: regenerate.
 */

`;

/** The document exactly as the service serves it, with the settings every build shares. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    BASE_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    // Nothing is sealed by a build; a throwaway key keeps it from writing one beside the database.
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  const ctx = await createContext(config);
  try {
    const app = await buildApp(ctx);
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await ctx.close();
  }
}

/** The text of schema.d.ts for the service as built now. */
export async function generateSchema(): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(await openApiDocument())));
  return HEADER + astToString(ast);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_PATH, await generateSchema());
  process.stdout.write(`Wrote ${SCHEMA_PATH}\n`);
}
