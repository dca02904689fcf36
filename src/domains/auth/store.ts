import type { Insertable } from 'kysely';
import { type DatabaseHandle, type Db, type Executor, preparedLookup } from '../../db/index.ts';
import type { AccessTokensTable } from '../../db/schema.ts';
import { organizationStatusOf } from '../orgs/index.ts';

export async function insertAccessToken(db: Executor, row: Insertable<AccessTokensTable>): Promise<void> {
  await db.insertInto('access_tokens').values(row).execute();
}

function selectAccessToken(db: Db, tokenDigest: string) {
  return db
    .selectFrom('access_tokens')
    .select((eb) => [
      'access_tokens.kind',
      'access_tokens.organization_id',
      'access_tokens.client_id',
      'access_tokens.livemode',
      'access_tokens.connection_id',
      'access_tokens.user_id',
      'access_tokens.expires_at',
      'access_tokens.revoked_at',
      'access_tokens.audience',
      organizationStatusOf(db, eb.ref('access_tokens.organization_id')).as('organization_status'),
    ])
    .where('access_tokens.token_digest', '=', tokenDigest);
}

/**
 * The token with its organization's status, in one query: this runs on every authenticated call,
 * so it is compiled once (the digest is its only parameter).
 */
export function accessTokenLookup(handle: Pick<DatabaseHandle, 'db' | 'reader'>) {
  return preparedLookup(handle, selectAccessToken(handle.db, ''));
}

export async function revokeAccessTokenFamily(db: Executor, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeConnectionAccessTokens(
  db: Executor,
  connectionId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('connection_id', '=', connectionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Every live access token the client minted stops (the client is revoked). */
export async function revokeClientAccessTokens(db: Executor, clientId: string, now: number): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The family and client of an access token, by digest (RFC 7009 revocation). */
export async function findAccessTokenGrant(db: Executor, tokenDigest: string) {
  return db
    .selectFrom('access_tokens')
    .select(['client_id', 'family_id', 'kind'])
    .where('token_digest', '=', tokenDigest)
    .executeTakeFirst();
}

/** Expired tokens are useless; the worker's sweep keeps the table small. */
export async function deleteExpiredAccessTokens(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('access_tokens').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
