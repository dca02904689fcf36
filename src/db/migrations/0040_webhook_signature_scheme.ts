import type { Kysely } from 'kysely';

/**
 * Webhook endpoints choose how their deliveries are signed (docs/webhooks.md "Signature schemes"):
 * `purser`, the spec's `Service-Signature` (every endpoint made before this), or `standard_webhooks`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('signature_scheme', 'text', (column) => column.notNull().defaultTo('purser'))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('signature_scheme').execute();
}
