import type { Kysely } from 'kysely';

/**
 * The hosted card vault (docs/vault.md): vault sessions opened by `POST /api/v2/checkout/vault_link`
 * (their link token kept as a digest), and each organization's operator setting for a dedicated
 * branded vault (its links are delivered by the platform itself).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vault_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('sent_to', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('organization_vault_settings')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('branded_vault', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('organization_vault_settings').execute();
  await db.schema.dropTable('vault_sessions').execute();
}
