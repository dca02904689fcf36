import type { Executor } from '../../db/index.ts';
import type { PlatformConnectSessionRow } from '../../db/schema.ts';

/** The platform-connect domain's tables: its sessions and the connections they made. */

type Session = PlatformConnectSessionRow;

export async function insertSession(exec: Executor, row: Session): Promise<void> {
  await exec.insertInto('platform_connect_sessions').values(row).execute();
}

/** A session of this platform and mode. */
export function sessionOf(exec: Executor, owner: { organizationId: string; livemode: number }, id: string) {
  return exec
    .selectFrom('platform_connect_sessions')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', owner.livemode)
    .executeTakeFirst();
}

export function sessionByTokenDigest(exec: Executor, tokenDigest: string) {
  return exec
    .selectFrom('platform_connect_sessions')
    .selectAll()
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/** Completes an open session; false when another request completed it first. */
export async function claimSession(exec: Executor, id: string, now: number): Promise<boolean> {
  const result = await exec
    .updateTable('platform_connect_sessions')
    .set({ status: 'completed', completed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records the organization a completed session connected, and the connection itself. */
export async function connect(
  exec: Executor,
  session: Pick<Session, 'id' | 'organization_id' | 'livemode'>,
  organizationId: string,
  now: number,
): Promise<void> {
  await exec
    .updateTable('platform_connect_sessions')
    .set({ connected_organization_id: organizationId })
    .where('id', '=', session.id)
    .execute();
  await exec
    .insertInto('organization_connections')
    .values({
      platform_organization_id: session.organization_id,
      livemode: session.livemode,
      connected_organization_id: organizationId,
      session_id: session.id,
      created_at: now,
    })
    .onConflict((oc) =>
      oc
        .columns(['platform_organization_id', 'livemode', 'connected_organization_id'])
        .doUpdateSet({ session_id: session.id }),
    )
    .execute();
}

/** The platform's connections in one mode, newest first (`connected_organization_id` the id). */
export function connections(exec: Executor, platform: { organizationId: string; livemode: number }) {
  return exec
    .selectFrom('organization_connections')
    .select(['connected_organization_id as id', 'session_id', 'created_at'])
    .where('platform_organization_id', '=', platform.organizationId)
    .where('livemode', '=', platform.livemode);
}
