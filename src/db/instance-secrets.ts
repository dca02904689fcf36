import type { Db } from './index.ts';

/**
 * A secret generated once per installation and kept in the database, shared by every process
 * using it. Returns the stored value and whether this call created it. Exactly one of several
 * processes starting together creates it; the others read the winner's.
 */
export async function instanceSecret(
  db: Db,
  name: string,
  generate: () => string,
  now: number,
): Promise<{ value: string; created: boolean }> {
  const result = await db
    .insertInto('instance_secrets')
    .values({ name, value: generate(), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  const row = await db
    .selectFrom('instance_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return { value: row.value, created: Number(result.numInsertedOrUpdatedRows ?? 0) === 1 };
}

/** A stored secret, or null when none was ever stored (reading never creates one). */
export async function storedInstanceSecret(db: Db, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('instance_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value ?? null;
}
