import type { Insertable } from 'kysely';
import type { Executor } from '../../db/index.ts';
import type { OAuthCodesTable } from '../../db/schema.ts';

export async function insertCode(db: Executor, row: Insertable<OAuthCodesTable>): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute();
}

export async function findCode(db: Executor, codeDigest: string) {
  return db.selectFrom('oauth_codes').selectAll().where('code_digest', '=', codeDigest).executeTakeFirst();
}

/** Consumes a code; false when it already was (a replay, or a parallel exchange that won). */
export async function consumeCode(db: Executor, codeDigest: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('oauth_codes')
    .set({ consumed_at: now })
    .where('code_digest', '=', codeDigest)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Codes live 60 seconds; a consumed one is kept a little longer only to recognise its replay. */
export async function deleteCodesBefore(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('oauth_codes').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findClientDocument(db: Executor, clientId: string) {
  return db
    .selectFrom('oauth_client_documents')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** Remembers when the stored copy of a client's metadata document was fetched and when it goes stale. */
export async function saveClientDocument(
  db: Executor,
  clientId: string,
  document: { fetched_at: number; expires_at: number },
): Promise<void> {
  await db
    .insertInto('oauth_client_documents')
    .values({ client_id: clientId, ...document })
    .onConflict((oc) => oc.column('client_id').doUpdateSet(document))
    .execute();
}
