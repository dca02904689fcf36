import type { Db, Executor } from '../../db/index.ts';
import type {
  MerchantAccountLinkingTable,
  MerchantAccountsTable,
  MerchantLinkSessionRow,
  MerchantLinkSessionsTable,
} from '../../db/schema.ts';

/** The only code that touches `merchant_account_linking`, `merchant_link_sessions` and `merchant_accounts`. */

/** Declares (or replaces) the linking settings of a merchant; a replacement keeps its `created_at`. */
export async function upsertLinking(
  db: Executor,
  merchantId: string,
  settings: Omit<MerchantAccountLinkingTable, 'merchant_id' | 'created_at'>,
  now: number,
): Promise<void> {
  await db
    .insertInto('merchant_account_linking')
    .values({ merchant_id: merchantId, ...settings, created_at: now })
    .onConflict((oc) => oc.column('merchant_id').doUpdateSet(settings))
    .execute();
}

/** The linking settings of the `merchants` row of this id, if it links accounts. */
export function findLinking(db: Executor, merchantId: string) {
  return db
    .selectFrom('merchant_account_linking')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
}

export async function insertSession(db: Db, row: MerchantLinkSessionRow): Promise<void> {
  await db.insertInto('merchant_link_sessions').values(row).execute();
}

export function findSession(db: Executor, organizationId: string, livemode: number, id: string) {
  return db
    .selectFrom('merchant_link_sessions')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .executeTakeFirst();
}

export function findSessionByToken(db: Executor, tokenDigest: string) {
  return db
    .selectFrom('merchant_link_sessions')
    .selectAll()
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

export function findSessionByState(db: Executor, stateDigest: string) {
  return db
    .selectFrom('merchant_link_sessions')
    .selectAll()
    .where('oauth_state_digest', '=', stateDigest)
    .executeTakeFirst();
}

export async function updateSession(
  db: Executor,
  id: string,
  values: Partial<Omit<MerchantLinkSessionsTable, 'id'>>,
): Promise<void> {
  await db.updateTable('merchant_link_sessions').set(values).where('id', '=', id).execute();
}

/** Uses the state once: true for the one caller that cleared it (a replay, or a racing one, gets false). */
export async function consumeState(db: Executor, id: string, stateDigest: string): Promise<boolean> {
  const result = await db
    .updateTable('merchant_link_sessions')
    .set({ oauth_state_digest: null })
    .where('id', '=', id)
    .where('oauth_state_digest', '=', stateDigest)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function completeSession(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('merchant_link_sessions')
    .set({ status: 'completed', completed_at: now, code_verifier_sealed: null })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function findAccount(
  db: Executor,
  key: { organization_id: string; livemode: number; user_id: string; merchant_id: string },
) {
  return db
    .selectFrom('merchant_accounts')
    .select(['id'])
    .where('organization_id', '=', key.organization_id)
    .where('livemode', '=', key.livemode)
    .where('user_id', '=', key.user_id)
    .where('merchant_id', '=', key.merchant_id)
    .executeTakeFirst();
}

export async function insertAccount(db: Executor, row: MerchantAccountsTable): Promise<void> {
  await db.insertInto('merchant_accounts').values(row).execute();
}

export async function updateAccount(
  db: Executor,
  id: string,
  values: Partial<Omit<MerchantAccountsTable, 'id'>>,
): Promise<void> {
  await db.updateTable('merchant_accounts').set(values).where('id', '=', id).execute();
}

/** A user's linked accounts, oldest first (one per merchant: a handful). */
export function listAccounts(db: Executor, organizationId: string, livemode: number, userId: string) {
  return db
    .selectFrom('merchant_accounts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
