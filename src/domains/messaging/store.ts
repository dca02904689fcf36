import type { Insertable, Selectable } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Executor } from '../../db/index.ts';
import type { MessagingConnectionsTable, MessagingOAuthStatesTable } from '../../db/schema.ts';

export type ConnectionRow = Selectable<MessagingConnectionsTable>;
export type StateRow = Selectable<MessagingOAuthStatesTable>;

export async function insertState(db: Executor, row: Insertable<MessagingOAuthStatesTable>): Promise<void> {
  await db.insertInto('messaging_oauth_states').values(row).execute();
}

/**
 * Consumes a state once: marks it used if it is unused and unexpired, and answers its row; null when
 * it is unknown, used or expired. One conditional UPDATE, so two callbacks racing cannot both win.
 */
export async function consumeState(db: Executor, stateDigest: string, now: number): Promise<StateRow | null> {
  const result = await db
    .updateTable('messaging_oauth_states')
    .set({ used_at: now })
    .where('state_digest', '=', stateDigest)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return (
    (await db
      .selectFrom('messaging_oauth_states')
      .selectAll()
      .where('state_digest', '=', stateDigest)
      .executeTakeFirst()) ?? null
  );
}

/** States past their expiry (used or not) are of no further use. */
export async function deleteExpiredStates(db: Executor, now: number): Promise<number> {
  const result = await db
    .deleteFrom('messaging_oauth_states')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findConnection(db: Executor, owner: Tenant): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('messaging_connections')
    .selectAll()
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode))
    .executeTakeFirst();
}

/** Stores a new connection, or replaces the organization's (a reconnect keeps `created_at`). */
export async function upsertConnection(
  db: Executor,
  row: Insertable<MessagingConnectionsTable> & { updated_at: number },
): Promise<void> {
  const { id: _id, organization_id: _org, livemode: _mode, created_at: _created, ...replaced } = row;
  await db
    .insertInto('messaging_connections')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'livemode']).doUpdateSet(replaced))
    .execute();
}

export async function deleteConnection(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('messaging_connections').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Active connections whose access token expires before `horizon`, not leased to another refresher. */
export async function dueForRefresh(db: Executor, horizon: number, now: number): Promise<ConnectionRow[]> {
  return db
    .selectFrom('messaging_connections')
    .selectAll()
    .where('status', '=', 'active')
    .where('refresh_token', 'is not', null)
    .where('token_expires_at', '<=', horizon)
    .where((eb) => eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<=', now)]))
    .orderBy('token_expires_at')
    .limit(100)
    .execute();
}

/**
 * Takes the refresh lease of a connection until `until`, if nobody holds it: only the holder spends
 * the refresh token (a rotated one may be used once; a second use would look like theft).
 */
export async function takeRefreshLease(
  db: Executor,
  id: string,
  now: number,
  until: number,
): Promise<boolean> {
  const result = await db
    .updateTable('messaging_connections')
    .set({ refresh_lease_until: until })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Writes the outcome of a refresh (and lets the lease go), on the connection that was refreshed. */
export async function updateConnection(
  db: Executor,
  id: string,
  changes: Partial<Omit<MessagingConnectionsTable, 'id' | 'organization_id' | 'livemode' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('messaging_connections').set(changes).where('id', '=', id).execute();
}
