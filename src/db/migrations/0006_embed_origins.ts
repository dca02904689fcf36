import type { Kysely } from 'kysely';

/** The origins allowed to frame an organization's hosted pages, per mode (`PUT /api/v2/embed_origins`). */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('embed_origins')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('origins', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('embed_origins_pk', ['organization_id', 'livemode'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('embed_origins').execute();
}
