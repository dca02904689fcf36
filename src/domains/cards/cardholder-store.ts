import type { Insertable, Updateable } from 'kysely';
import { runCompiled } from '../../db/compiled.ts';
import type { Executor } from '../../db/index.ts';
import type { CardholdersTable } from '../../db/schema.ts';

/** The cardholders' records (cardholders.ts): the person a user's cards are issued to, one per user. */

/**
 * False when the row's user already has a cardholder in its organization and mode (another
 * transaction made it first): the insert does nothing rather than fail the caller's transaction.
 */
export async function insertCardholder(exec: Executor, row: Insertable<CardholdersTable>): Promise<boolean> {
  const result = await exec
    .insertInto('cardholders')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'livemode', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export function cardholder(exec: Executor, organizationId: string, livemode: number, id: string) {
  return exec
    .selectFrom('cardholders')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .executeTakeFirst();
}

export async function cardholderOfUser(
  exec: Executor,
  organizationId: string,
  livemode: number,
  userId: string,
) {
  const [row] = await runCompiled(exec, 'cardholder of user', [organizationId, livemode, userId], () =>
    exec
      .selectFrom('cardholders')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode)
      .where('user_id', '=', userId),
  );
  return row;
}

export function cardholderByEmailDigest(
  exec: Executor,
  organizationId: string,
  livemode: number,
  digests: string[],
) {
  return exec
    .selectFrom('cardholders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .where('email_digest', 'in', digests)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

export function cardholdersWithoutEmailDigest(exec: Executor, organizationId: string, livemode: number) {
  return exec
    .selectFrom('cardholders')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .where('email_digest', 'is', null)
    .execute();
}

export async function updateCardholder(
  exec: Executor,
  id: string,
  changes: Updateable<CardholdersTable>,
): Promise<void> {
  await exec.updateTable('cardholders').set(changes).where('id', '=', id).execute();
}
