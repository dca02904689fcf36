import type { Kysely } from 'kysely';

/**
 * The spending controls a company-funded card is asked for (`POST /api/v2/cards {funding: "company",
 * spending_controls}`; docs/cards.md "Spending controls"): kept with the flow, checked and normalized
 * as the API took them (JSON), and set on its card when the flow mints it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('card_flows').addColumn('spending_controls', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('card_flows').dropColumn('spending_controls').execute();
}
