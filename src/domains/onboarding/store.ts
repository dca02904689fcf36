import { type Insertable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { CardholderOnboardingSessionRow, CardholderOnboardingSessionsTable } from '../../db/schema.ts';

/** The only code that touches the onboarding-session table. */

export async function insertSession(
  db: Executor,
  row: Insertable<CardholderOnboardingSessionsTable>,
): Promise<void> {
  await db.insertInto('cardholder_onboarding_sessions').values(row).execute();
}

export function sessionById(
  db: Executor,
  organizationId: string,
  livemode: number,
  id: string,
): Promise<CardholderOnboardingSessionRow | undefined> {
  return db
    .selectFrom('cardholder_onboarding_sessions')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .executeTakeFirst();
}

export function sessionByDigest(
  db: Executor,
  tokenDigest: string,
): Promise<CardholderOnboardingSessionRow | undefined> {
  return db
    .selectFrom('cardholder_onboarding_sessions')
    .selectAll()
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/**
 * Changes a session that is still open; false when it no longer is (completed meanwhile), so of two
 * submits racing only one completes it.
 */
export async function updateOpenSession(
  db: Executor,
  id: string,
  changes: Updateable<CardholderOnboardingSessionsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('cardholder_onboarding_sessions')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Takes one of an open session's claim-code checks; false when none is left. */
export async function takeClaimCheck(db: Executor, id: string, max: number): Promise<boolean> {
  const result = await db
    .updateTable('cardholder_onboarding_sessions')
    .set({ claim_failed_attempts: sql`claim_failed_attempts + 1` })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where('claim_failed_attempts', '<', max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
