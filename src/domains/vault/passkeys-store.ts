import { livemodeColumn } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import type { VaultPasskeysTable, WebauthnChallengesTable } from '../../db/schema.ts';
import type { UserScope } from './passkeys.ts';

/** The vault's passkeys and the WebAuthn challenges issued for them (passkeys.ts has the rules). */

// ---- passkeys

/** The user's passkeys, oldest first. */
export function passkeysOf(exec: Executor, user: UserScope): Promise<VaultPasskeysTable[]> {
  return exec
    .selectFrom('vault_passkeys')
    .selectAll()
    .where('organization_id', '=', user.organizationId)
    .where('livemode', '=', livemodeColumn(user.livemode))
    .where('user_id', '=', user.userId)
    .orderBy('created_at')
    .execute();
}

/** Stores a passkey; a credential stored already stays as it is. */
export async function insertPasskey(exec: Executor, row: VaultPasskeysTable): Promise<void> {
  await exec
    .insertInto('vault_passkeys')
    .values(row)
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .execute();
}

/** Removes every passkey of the user; answers how many there were. */
export async function deletePasskeysOf(exec: Executor, user: UserScope): Promise<number> {
  const result = await exec
    .deleteFrom('vault_passkeys')
    .where('organization_id', '=', user.organizationId)
    .where('livemode', '=', livemodeColumn(user.livemode))
    .where('user_id', '=', user.userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Records an assertion's counter, compare-and-set: only a counter above the stored one (or 0 after
 * 0) is taken. False when it was not (another assertion raised it first).
 */
export async function raiseCounter(
  exec: Executor,
  id: string,
  newCounter: number,
  now: number,
): Promise<boolean> {
  const moved = await exec
    .updateTable('vault_passkeys')
    .set({ counter: newCounter, last_used_at: now })
    .where('id', '=', id)
    .where((eb) => (newCounter === 0 ? eb('counter', '=', 0) : eb('counter', '<', newCounter)))
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

// ---- challenges

export async function insertChallenge(exec: Executor, row: WebauthnChallengesTable): Promise<void> {
  await exec.insertInto('webauthn_challenges').values(row).execute();
}

/** Takes a challenge issued for this binding and purpose, unused and unexpired at `now`; false if none. */
export async function takeChallenge(
  exec: Executor,
  challenge: Pick<WebauthnChallengesTable, 'challenge' | 'binding' | 'purpose'>,
  now: number,
): Promise<boolean> {
  const taken = await exec
    .updateTable('webauthn_challenges')
    .set({ used_at: now })
    .where('challenge', '=', challenge.challenge)
    .where('binding', '=', challenge.binding)
    .where('purpose', '=', challenge.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Forgets the challenges expired at `now`; answers how many. */
export async function deleteExpiredChallenges(exec: Executor, now: number): Promise<number> {
  const result = await exec
    .deleteFrom('webauthn_challenges')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
