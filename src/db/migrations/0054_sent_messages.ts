import type { Kysely } from 'kysely';

/**
 * The notifications message log is `sent_messages` (issue 26: one word per concept; "outbox" is the
 * webhook events' outbox). A rename keeps every row, and the sealed subject and body still open:
 * their associated data (`outbox.<field>|<id>`, notifications/service.ts) does not name the table.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations describe the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox_messages').renameTo('sent_messages').execute();
  await db.schema.dropIndex('outbox_created').execute();
  await db.schema.createIndex('sent_messages_created').on('sent_messages').columns(['created_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sent_messages_created').execute();
  await db.schema.createIndex('outbox_created').on('sent_messages').columns(['created_at']).execute();
  await db.schema.alterTable('sent_messages').renameTo('outbox_messages').execute();
}
