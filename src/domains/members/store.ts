import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { AuditLogTable, MemberRole, MemberSignInsTable } from '../../db/schema.ts';

/** The members domain's tables: members, memberships, sign-in attempts, sessions and the audit log. */

/** The member with this email, made with `id` when there is none; the member's id. */
export async function ensureMember(exec: Executor, row: { id: string; email: string; created_at: number }) {
  await exec
    .insertInto('members')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const found = await exec
    .selectFrom('members')
    .select('id')
    .where('email', '=', row.email)
    .executeTakeFirstOrThrow();
  return found.id;
}

/** Gives the member this role in the organization (a role already there is replaced). */
export async function grant(
  exec: Executor,
  row: { organization_id: string; member_id: string; role: MemberRole; created_at: number },
): Promise<void> {
  await exec
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'member_id']).doUpdateSet({ role: row.role }))
    .execute();
}

/** The organization's members and their roles, by email. */
export function membersOf(exec: Executor, organizationId: string) {
  return exec
    .selectFrom('memberships')
    .innerJoin('members', 'members.id', 'memberships.member_id')
    .select(['members.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.organization_id', '=', organizationId)
    .orderBy('members.email')
    .execute();
}

/** The member's organizations and roles there. */
export function membershipsOf(exec: Executor, memberId: string) {
  return exec
    .selectFrom('memberships')
    .select(['organization_id', 'role'])
    .where('member_id', '=', memberId)
    .execute();
}

/** How many sign-in codes were sent to this email since `since`. */
export async function signInsSince(exec: Executor, email: string, since: number): Promise<number> {
  const row = await exec
    .selectFrom('member_sign_ins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', email)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSignIn(exec: Executor, row: Insertable<MemberSignInsTable>): Promise<void> {
  await exec.insertInto('member_sign_ins').values(row).execute();
}

export function signInById(exec: Executor, id: string) {
  return exec.selectFrom('member_sign_ins').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Takes one of the attempt's code checks before the code is compared, atomically: parallel guesses
 * cannot all compare before any is counted (as connect codes, connect/store.ts `takeCodeCheck`).
 * False when none is left or the attempt is no longer pending.
 */
export async function takeSignInCheck(exec: Executor, id: string, maxChecks: number): Promise<boolean> {
  const result = await exec
    .updateTable('member_sign_ins')
    .set({ failed_attempts: sql`failed_attempts + 1` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('failed_attempts', '<', maxChecks)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** After a wrong code: the attempt fails for good once its last check is spent; true when it did. */
export async function failSignInIfSpent(exec: Executor, id: string, maxChecks: number): Promise<boolean> {
  const result = await exec
    .updateTable('member_sign_ins')
    .set({ status: 'failed' })
    .where('id', '=', id)
    .where('failed_attempts', '>=', maxChecks)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses a pending attempt; false when another request used it first. */
export async function useSignIn(exec: Executor, id: string): Promise<boolean> {
  const result = await exec
    .updateTable('member_sign_ins')
    .set({ status: 'used' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertSession(
  exec: Executor,
  row: { token_digest: string; member_id: string; expires_at: number; created_at: number },
): Promise<void> {
  await exec.insertInto('member_sessions').values(row).execute();
}

/** The member of a session, by its token's digest, with the session's end. */
export function sessionMember(exec: Executor, tokenDigest: string) {
  return exec
    .selectFrom('member_sessions')
    .innerJoin('members', 'members.id', 'member_sessions.member_id')
    .select(['members.id', 'members.email', 'member_sessions.expires_at'])
    .where('member_sessions.token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

export async function deleteSession(exec: Executor, tokenDigest: string): Promise<void> {
  await exec.deleteFrom('member_sessions').where('token_digest', '=', tokenDigest).execute();
}

export async function insertAudit(exec: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await exec.insertInto('audit_log').values(row).execute();
}

/** The newest entries of an organization's audit log (both modes). */
export function auditLog(exec: Executor, organizationId: string, limit: number) {
  return exec
    .selectFrom('audit_log')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
