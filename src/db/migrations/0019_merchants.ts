import type { Kysely } from 'kysely';

/**
 * Merchants an operator configured (issue 11): production merchants reached over the Agentic
 * Commerce Protocol. The built-in sandbox merchants are a checked-in file, not rows. The API key
 * and the webhook secret are sealed (AES-256-GCM, bound to the row's slug): they must be read back
 * to call the merchant and to verify its webhooks.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('acp_url', 'text', (c) => c.notNull())
    .addColumn('api_key_sealed', 'text', (c) => c.notNull())
    .addColumn('webhook_secret_sealed', 'text')
    .addColumn('countries', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('merchants').execute();
}
