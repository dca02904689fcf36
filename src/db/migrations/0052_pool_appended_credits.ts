import type { Kysely } from 'kysely';

/**
 * The company pool takes credits without its lock (flag 4, `AccountFlags.creditsAppended`): every
 * release of an organization's company-funded cards credits it, so a lock on it would serialize the
 * organization's single-use approvals and the issuer's reports (issue 24). On PostgreSQL such a
 * credit is appended to `ledger_account_deltas`; a debit locks the row and reads the deltas with it
 * (docs/ledger.md, "Accounts credited without their lock").
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('ledger_accounts').set({ flags: 5 }).where('kind', '=', 'company_pool').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.updateTable('ledger_accounts').set({ flags: 1 }).where('kind', '=', 'company_pool').execute();
}
