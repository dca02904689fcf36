import type { Insertable } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { WalletLinkActionsTable, WalletLinkRow, WalletLinksTable } from '../../db/schema.ts';

/** The only code that touches the wallet-link tables. */

export async function insertLink(db: Executor, row: Insertable<WalletLinksTable>): Promise<void> {
  await db.insertInto('wallet_links').values(row).execute();
}

export async function findLinkByDigest(
  db: Executor,
  tokenDigest: string,
): Promise<WalletLinkRow | undefined> {
  return db.selectFrom('wallet_links').selectAll().where('token_digest', '=', tokenDigest).executeTakeFirst();
}

export async function isEnabled(db: Executor, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('wallet_link_settings')
    .select('enabled')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row?.enabled === 1;
}

export async function setEnabled(
  db: Executor,
  organizationId: string,
  enabled: boolean,
  now: number,
): Promise<void> {
  await db
    .insertInto('wallet_link_settings')
    .values({ organization_id: organizationId, enabled: enabled ? 1 : 0, updated_at: now })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({ enabled: enabled ? 1 : 0, updated_at: now }),
    )
    .execute();
}

/** Records an action once per (link, nonce): false when that nonce was already used (a resubmitted form). */
export async function recordAction(db: Executor, row: Insertable<WalletLinkActionsTable>): Promise<boolean> {
  const result = await db
    .insertInto('wallet_link_actions')
    .values(row)
    .onConflict((oc) => oc.columns(['link_id', 'nonce']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The newest decision on this link for a merchant and amount, if the user gave one. */
export async function latestDecision(
  db: Executor,
  linkId: string,
  merchant: string,
  amountCents: number,
): Promise<Pick<WalletLinkActionsTable, 'decision' | 'created_at'> | undefined> {
  return db
    .selectFrom('wallet_link_actions')
    .select(['decision', 'created_at'])
    .where('link_id', '=', linkId)
    .where('kind', '=', 'payment_approval')
    .where('merchant', '=', merchant)
    .where('amount_cents', '=', amountCents)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
