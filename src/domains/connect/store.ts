import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import { runCompiled } from '../../db/compiled.ts';
import { type DatabaseHandle, type Executor, preparedLookup } from '../../db/index.ts';
import type {
  ConnectAttempt,
  ConnectAttemptsTable,
  Database,
  RefreshTokensTable,
  User,
} from '../../db/schema.ts';
import { attemptTransition } from './states.ts';

/** After this many wrong codes an attempt is locked for good, so codes cannot be guessed. */
export const MAX_FAILED_CODES = 5;

export async function insertAttempt(db: Executor, row: Insertable<ConnectAttemptsTable>): Promise<void> {
  await db.insertInto('connect_attempts').values(row).execute();
}

/** The newest attempt to this destination in the organization and mode. */
export async function latestAttemptTo(
  db: Executor,
  to: { organizationId: string; livemode: number; email: string | null; phone: string | null },
) {
  return destination(db, to)
    .select(['status', 'expires_at', 'created_at'])
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Creation times (newest first, at most `limit`) of attempts to this destination after `since`. */
export async function attemptTimesTo(
  db: Executor,
  to: { organizationId: string; livemode: number; email: string | null; phone: string | null },
  since: number,
  limit: number,
): Promise<number[]> {
  const rows = await destination(db, to)
    .select('created_at')
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.created_at);
}

/** Creation times (newest first, at most `limit`) of the client's attempts after `since`. */
export async function attemptTimesBy(
  db: Executor,
  clientId: string,
  since: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('connect_attempts')
    .select('created_at')
    .where('client_id', '=', clientId)
    .where('created_at', '>', since)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.created_at);
}

function destination(
  db: Executor,
  to: { organizationId: string; livemode: number; email: string | null; phone: string | null },
) {
  const query = db
    .selectFrom('connect_attempts')
    .where('organization_id', '=', to.organizationId)
    .where('livemode', '=', to.livemode);
  return to.email !== null
    ? query.where('email', '=', to.email)
    : query.where('phone', '=', to.phone as string);
}

export async function findAttempt(db: Executor, id: string): Promise<ConnectAttempt | undefined> {
  return db.selectFrom('connect_attempts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markUndeliverable(db: Executor, id: string): Promise<void> {
  const { from, to } = attemptTransition('delivery_failed');
  await db
    .updateTable('connect_attempts')
    .set({ status: to })
    .where('id', '=', id)
    .where('status', '=', from)
    .execute();
}

/**
 * Takes one of the attempt's code checks before the code is compared; false when none is left or
 * the attempt is no longer pending. Taking it first, atomically, is what keeps parallel guesses
 * within the limit: counting only after a wrong comparison lets every request in flight compare.
 * (`failed_attempts` therefore counts checks taken; the one that succeeds ends the attempt anyway.)
 */
export async function takeCodeCheck(db: Executor, id: string): Promise<boolean> {
  const result = await db
    .updateTable('connect_attempts')
    .set({ failed_attempts: sql`failed_attempts + 1` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('failed_attempts', '<', MAX_FAILED_CODES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** After a wrong code: the attempt locks for good once its last check is spent. */
export async function lockIfExhausted(db: Executor, id: string): Promise<void> {
  const { from, to } = attemptTransition('checks_exhausted');
  await db
    .updateTable('connect_attempts')
    .set({ status: to })
    .where('id', '=', id)
    .where('status', '=', from)
    .where('failed_attempts', '>=', MAX_FAILED_CODES)
    .execute();
}

/** Claims a pending attempt as verified; false when another request got there first. */
export async function claimAttempt(db: Executor, id: string, now: number): Promise<boolean> {
  const { from, to } = attemptTransition('code_matched');
  const result = await db
    .updateTable('connect_attempts')
    .set({ status: to, verified_at: now })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The user of this organization and mode with that email or phone, created on first sight. */
export async function findOrCreateUser(
  db: Executor,
  user: {
    id: string;
    organization_id: string;
    livemode: number;
    email: string | null;
    phone: string | null;
    created_at: number;
  },
): Promise<User> {
  const column = user.email !== null ? 'email' : 'phone';
  const value = (user.email ?? user.phone) as string;
  await db
    .insertInto('users')
    .values(user)
    .onConflict((oc) => oc.columns(['organization_id', 'livemode', column]).doNothing())
    .execute();
  return db
    .selectFrom('users')
    .selectAll()
    .where('organization_id', '=', user.organization_id)
    .where('livemode', '=', user.livemode)
    .where(column, '=', value)
    .executeTakeFirstOrThrow();
}

/**
 * A user in an organization and mode, by id, outside any transaction: every tool call of the tool
 * server reads its user, so this runs on the read-only connection as the token lookup does.
 */
export function committedUserLookup(handle: Pick<DatabaseHandle, 'db' | 'reader'>) {
  return preparedLookup(
    handle,
    handle.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', '')
      .where('organization_id', '=', '')
      .where('livemode', '=', 0),
  );
}

export async function findUser(db: Executor, organizationId: string, livemode: number, id: string) {
  const [user] = await runCompiled(db, 'user in scope', [id, organizationId, livemode], () =>
    db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('livemode', '=', livemode),
  );
  return user;
}

export async function upsertConnection(
  db: Executor,
  row: {
    id: string;
    organization_id: string;
    client_id: string;
    user_id: string;
    livemode: number;
    external_user_id: string | null;
    now: number;
  },
): Promise<string> {
  const { now, ...values } = row;
  await db
    .insertInto('connections')
    .values({ ...values, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'client_id']).doUpdateSet((eb) => ({
        updated_at: now,
        external_user_id: eb.fn.coalesce(
          eb.ref('excluded.external_user_id'),
          eb.ref('connections.external_user_id'),
        ),
      })),
    )
    .execute();
  const connection = await db
    .selectFrom('connections')
    .select('id')
    .where('user_id', '=', row.user_id)
    .where('client_id', '=', row.client_id)
    .executeTakeFirstOrThrow();
  return connection.id;
}

export async function findConnection(db: Executor, userId: string, clientId: string) {
  return db
    .selectFrom('connections')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** The user's most recently made connection, whichever client it is with. */
export async function findLatestConnection(db: Executor, userId: string) {
  return db
    .selectFrom('connections')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertRefreshToken(db: Executor, row: Insertable<RefreshTokensTable>): Promise<void> {
  await db.insertInto('refresh_tokens').values(row).execute();
}

export async function findRefreshToken(db: Executor, tokenDigest: string) {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('connections', 'connections.id', 'refresh_tokens.connection_id')
    .select([
      'refresh_tokens.token_digest',
      'refresh_tokens.family_id',
      'refresh_tokens.expires_at',
      'refresh_tokens.rotated_at',
      'refresh_tokens.revoked_at',
      'connections.id as connection_id',
      'connections.organization_id',
      'connections.client_id',
      'connections.user_id',
      'connections.livemode',
    ])
    .where('refresh_tokens.token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/** Marks a refresh token as exchanged; false when it already was (reuse, or a parallel refresh). */
export async function rotateRefreshToken(db: Executor, tokenDigest: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: now })
    .where('token_digest', '=', tokenDigest)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Seals the successor pair onto the row just rotated (erased once the retry grace is over). */
export async function keepSuccessor(db: Executor, tokenDigest: string, sealed: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ successor_sealed: sealed })
    .where('token_digest', '=', tokenDigest)
    .execute();
}

export async function findRotation(db: Executor, tokenDigest: string) {
  return db
    .selectFrom('refresh_tokens')
    .select(['rotated_at', 'revoked_at', 'successor_sealed'])
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/** Forgets the successor pairs of tokens rotated at or before `rotatedBefore`. */
export async function eraseSuccessors(db: Executor, rotatedBefore: number): Promise<number> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ successor_sealed: null })
    .where('successor_sealed', 'is not', null)
    .where('rotated_at', '<', rotatedBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function revokeRefreshFamily(db: Executor, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now, successor_sealed: null })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function upsertConsent(
  db: Executor,
  row: {
    id: string;
    organization_id: string;
    livemode: number;
    user_id: string;
    terms_version: string | null;
    now: number;
  },
) {
  const { now, ...values } = row;
  await db
    .insertInto('consents')
    .values({ ...values, created_at: now, updated_at: now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ terms_version: row.terms_version, updated_at: now }),
    )
    .execute();
  return db.selectFrom('consents').selectAll().where('user_id', '=', row.user_id).executeTakeFirstOrThrow();
}

export async function findConsent(db: Executor, userId: string) {
  return db.selectFrom('consents').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function findConnectionById(db: Executor, id: string) {
  return db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function revokeConnectionRefreshTokens(db: Executor, connectionId: string, now: number) {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now, successor_sealed: null })
    .where('connection_id', '=', connectionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Whether a connection is live: a refresh token of it still works (not revoked by a disconnect or a
 * reuse, not exchanged, not expired).
 */
export function isLive(eb: ExpressionBuilder<Database, 'connections'>, now: number) {
  return eb.exists(
    eb
      .selectFrom('refresh_tokens')
      .select('refresh_tokens.token_digest')
      .whereRef('refresh_tokens.connection_id', '=', 'connections.id')
      .where('refresh_tokens.revoked_at', 'is', null)
      .where('refresh_tokens.rotated_at', 'is', null)
      .where('refresh_tokens.expires_at', '>', now),
  );
}

/** The user's connections that still hold a live refresh token. */
export async function liveConnections(
  db: Executor,
  organizationId: string,
  livemode: number,
  userId: string,
  now: number,
) {
  return db
    .selectFrom('connections')
    .select(['connections.id', 'connections.client_id', 'connections.created_at', 'connections.updated_at'])
    .where('connections.organization_id', '=', organizationId)
    .where('connections.livemode', '=', livemode)
    .where('connections.user_id', '=', userId)
    .where((eb) => isLive(eb, now))
    .orderBy('connections.updated_at', 'desc')
    .execute();
}

/** The organization's users in one mode, newest first, or one of them. */
export function usersOf(db: Executor, owner: Tenant, limit: number, id?: string) {
  let query = db
    .selectFrom('users')
    .select(['id', 'email', 'phone', 'created_at'])
    .where('organization_id', '=', owner.organizationId)
    .where('livemode', '=', livemodeColumn(owner.livemode));
  if (id !== undefined) query = query.where('id', '=', id);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The users' connections (one per client they connected to), each `live` as `isLive` says. */
export function connectionsOfUsers(db: Executor, owner: Tenant, userIds: string[], now: number) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('connections')
    .select((eb) => [
      'connections.id',
      'connections.user_id',
      'connections.client_id',
      'connections.external_user_id',
      'connections.created_at',
      'connections.updated_at',
      isLive(eb, now).as('live'),
    ])
    .where('connections.organization_id', '=', owner.organizationId)
    .where('connections.livemode', '=', livemodeColumn(owner.livemode))
    .where('connections.user_id', 'in', userIds)
    .orderBy('connections.created_at', 'desc')
    .execute();
}

/**
 * The organization's connections in one mode (one per user and app), newest first, each `live`
 * as `isLive` says, with the user's email or phone.
 */
export function connectionsWithUsers(db: Executor, owner: Tenant, now: number, limit: number) {
  return db
    .selectFrom('connections')
    .innerJoin('users', 'users.id', 'connections.user_id')
    .select((eb) => [
      'connections.id',
      'connections.user_id',
      'connections.client_id',
      'users.email',
      'users.phone',
      'connections.created_at',
      'connections.updated_at',
      isLive(eb, now).as('live'),
    ])
    .where('connections.organization_id', '=', owner.organizationId)
    .where('connections.livemode', '=', livemodeColumn(owner.livemode))
    .orderBy('connections.created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Which of these user ids exist (in any organization or mode), read in batches. */
export async function existingUsers(db: Executor, userIds: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}
