import type { Expression, Insertable } from 'kysely';
import { runCompiled } from '../../db/compiled.ts';
import type { Db, Executor } from '../../db/index.ts';
import type {
  ApiKey,
  ApiKeysTable,
  Client,
  ClientsTable,
  EmbedOriginsTable,
  NewOrganization,
  Organization,
  OrganizationUpdate,
} from '../../db/schema.ts';

export async function insertOrganization(db: Executor, row: NewOrganization): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function findOrganization(db: Executor, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The status of the organization `organizationId` names, as a subquery for another domain's lookup
 * to select: auth's token lookup runs on every authenticated call and stays one query (a second one
 * cost a round trip on PostgreSQL; the subquery plans as the join did), while only this store names
 * the table.
 */
export function organizationStatusOf(db: Db, organizationId: Expression<string>) {
  return db
    .selectFrom('organizations')
    .select('organizations.status')
    .where('organizations.id', '=', organizationId);
}

export async function countOrganizations(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Up to `limit` organization ids, oldest first. */
export async function organizationIds(db: Executor, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('organizations').select('id').orderBy('created_at').limit(limit).execute();
  return rows.map((row) => row.id);
}

export async function updateOrganization(
  db: Executor,
  id: string,
  changes: OrganizationUpdate,
): Promise<void> {
  await db.updateTable('organizations').set(changes).where('id', '=', id).execute();
}

/** The organization's settings that cards reads: its users' reward share and live card numbers. */
export async function cardSettings(db: Executor, id: string) {
  const [settings] = await runCompiled(db, 'card settings of organization', [id], () =>
    db.selectFrom('organizations').select(['reward_share_bps', 'live_card_details']).where('id', '=', id),
  );
  return settings;
}

export async function insertClient(db: Executor, row: Insertable<ClientsTable>): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

/** A client a metadata document describes (its id the document's URL): new, or its name and redirect URIs renewed. */
export async function saveDocumentClient(db: Executor, client: Insertable<ClientsTable>): Promise<void> {
  await db
    .insertInto('clients')
    .values(client)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ name: client.name, redirect_uris: client.redirect_uris }),
    )
    .execute();
}

export async function findClient(db: Executor, id: string): Promise<Client | undefined> {
  return db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The organization's oldest active confidential client of one mode. */
export async function firstActiveClient(
  db: Executor,
  organizationId: string,
  livemode: number,
): Promise<Client | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .where('status', '=', 'active')
    .where('type', '=', 'confidential')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function updateClient(db: Executor, id: string, changes: Partial<Client>): Promise<void> {
  await db.updateTable('clients').set(changes).where('id', '=', id).execute();
}

export async function insertApiKey(db: Executor, row: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findApiKeyByDigest(db: Executor, keyDigest: string): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_digest', '=', keyDigest).executeTakeFirst();
}

export async function findApiKey(db: Executor, id: string): Promise<ApiKey | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function revokeActiveApiKeys(
  db: Executor,
  organizationId: string,
  livemode: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ status: 'revoked', revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .where('status', '=', 'active')
    .execute();
}

export async function findEmbedOrigins(
  db: Executor,
  organizationId: string,
  livemode: number,
): Promise<EmbedOriginsTable | undefined> {
  return db
    .selectFrom('embed_origins')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .executeTakeFirst();
}

export async function saveEmbedOrigins(db: Executor, row: EmbedOriginsTable): Promise<void> {
  await db
    .insertInto('embed_origins')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'livemode'])
        .doUpdateSet({ origins: row.origins, updated_at: row.updated_at }),
    )
    .execute();
}

/** The names of these clients, by id. */
export async function clientNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('clients').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The active ones of these organizations, by name. */
export function activeOrganizations(db: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .orderBy('name')
    .execute();
}

/** The names of these organizations, by id. */
export async function organizationNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('organizations').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** An organization's clients in one mode, newest first (no secrets). */
export function clientsOf(db: Executor, organizationId: string, livemode: number) {
  return db
    .selectFrom('clients')
    .select(['id', 'name', 'type', 'status', 'created_at', 'revoked_at'])
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .orderBy('created_at', 'desc')
    .execute();
}

/** An organization's API keys in one mode, newest first (their prefixes, no digests). */
export function apiKeysOf(db: Executor, organizationId: string, livemode: number) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'key_prefix', 'status', 'created_at', 'revoked_at'])
    .where('organization_id', '=', organizationId)
    .where('livemode', '=', livemode)
    .orderBy('created_at', 'desc')
    .execute();
}
