import type { Kysely } from 'kysely';

/**
 * Purchases under a mandate (issue 28, docs/mandates.md "Purchases"): the mandate a card is held to
 * (an order's card, or a card its app created under the mandate), and the organization's choice for
 * a purchase outside a mandate's terms (`mandate_overflow`: decline, or ask for the user's approval).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cards').addColumn('mandate_id', 'text').execute();
  await db.schema.alterTable('organization_vault_settings').addColumn('mandate_overflow', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization_vault_settings').dropColumn('mandate_overflow').execute();
  await db.schema.alterTable('cards').dropColumn('mandate_id').execute();
}
