import { sql } from 'kysely';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import type { PasskeyResetsTable } from '../../db/schema.ts';
import type { UserScope } from './passkeys.ts';

/**
 * The passkey resets (recovery.ts has the rules). Each move is one conditional update: of two
 * requests racing for the same move, one makes it, and the caller learns which (`true`).
 */

type Reset = PasskeyResetsTable;

/** The live statuses: a reset that may still move. */
const OPEN: Reset['status'][] = ['pending', 'verified'];

/** A new reset of the user's passkeys, cancelling their open ones: one live link at a time. */
export async function replaceOpenResets(exec: Executor, row: Reset): Promise<void> {
  await exec
    .updateTable('passkey_resets')
    .set({ status: 'canceled' })
    .where('organization_id', '=', row.organization_id)
    .where('livemode', '=', row.livemode)
    .where('user_id', '=', row.user_id)
    .where('status', 'in', OPEN)
    .execute();
  await exec.insertInto('passkey_resets').values(row).execute();
}

/** The user's newest reset still open and unexpired at `now`. */
export function openResetOf(exec: Executor, user: UserScope, now: number) {
  return exec
    .selectFrom('passkey_resets')
    .selectAll()
    .where('organization_id', '=', user.organizationId)
    .where('livemode', '=', livemodeColumn(user.livemode))
    .where('user_id', '=', user.userId)
    .where('status', 'in', OPEN)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** A reset of this organization and mode. */
export function resetOf(exec: Executor, owner: { organizationId: string; livemode: boolean }, id: string) {
  return exec
    .selectFrom('passkey_resets')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .executeTakeFirst();
}

export function resetByTokenDigest(exec: Executor, tokenDigest: string) {
  return exec
    .selectFrom('passkey_resets')
    .selectAll()
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/**
 * A new code for a pending reset, within its limits: fewer than `maxSent` codes sent, the last one
 * at least `cooldownMs` ago. False when a limit (or another request) stopped it.
 */
export async function takeCodeSend(
  exec: Executor,
  id: string,
  code: Pick<Reset, 'channel' | 'code_digest' | 'code_expires_at'>,
  limits: { maxSent: number; cooldownMs: number },
  now: number,
): Promise<boolean> {
  const taken = await exec
    .updateTable('passkey_resets')
    .set({ ...code, code_sent_at: now, codes_sent: sql`codes_sent + 1` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('codes_sent', '<', limits.maxSent)
    .where((eb) => eb.or([eb('code_sent_at', 'is', null), eb('code_sent_at', '<=', now - limits.cooldownMs)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Forgets the reset's code (one that never left cannot be checked). */
export async function dropCode(exec: Executor, id: string): Promise<void> {
  await exec.updateTable('passkey_resets').set({ code_digest: null }).where('id', '=', id).execute();
}

/** Counts one more code check of a pending reset, while fewer than `maxFailed` were made. */
export async function takeCodeCheck(exec: Executor, id: string, maxFailed: number): Promise<boolean> {
  const check = await exec
    .updateTable('passkey_resets')
    .set({ failed_attempts: sql`failed_attempts + 1` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('failed_attempts', '<', maxFailed)
    .executeTakeFirst();
  return Number(check.numUpdatedRows) === 1;
}

/** Locks a pending reset that made `maxFailed` code checks. */
export async function lockIfSpent(exec: Executor, id: string, maxFailed: number): Promise<boolean> {
  const locked = await exec
    .updateTable('passkey_resets')
    .set({ status: 'locked' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('failed_attempts', '>=', maxFailed)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) === 1;
}

/** A pending reset's code proven, by the browser of `proofDigest`. */
export async function markVerified(
  exec: Executor,
  id: string,
  proofDigest: string,
  now: number,
): Promise<boolean> {
  const verified = await exec
    .updateTable('passkey_resets')
    .set({ status: 'verified', verified_at: now, proof_digest: proofDigest, code_digest: null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(verified.numUpdatedRows) === 1;
}

/** A verified reset, unexpired at `now`, completes having removed `removed` passkeys. */
export async function markCompleted(
  exec: Executor,
  id: string,
  removed: number,
  now: number,
): Promise<boolean> {
  const completed = await exec
    .updateTable('passkey_resets')
    .set({ status: 'completed', completed_at: now, passkeys_removed: removed, proof_digest: null })
    .where('id', '=', id)
    .where('status', '=', 'verified')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(completed.numUpdatedRows) === 1;
}
